package io.spiderling.catalog;

/**
 * Custom CloudWatch metrics the functions publish (in the embedded metric format, on standard output) and the CDK
 * stack alarms on. Lambda's own metrics (errors, throttles) and SQS's (queue depth) need nothing here.
 */
public final class Metrics {

    private Metrics() {}

    public static final String NAMESPACE = "Spiderling";

    /** The one dimension: the publishing function's name, as Lambda reports it. */
    public static final String FUNCTION_DIMENSION = "FunctionName";

    /**
     * Published by the sweep every run: seconds since the oldest frontier entry that is due but not released became
     * due (0 when none waits). The backlog waits in DynamoDB, so the fetch queue's age cannot show it.
     */
    public static final String FRONTIER_LAG_SECONDS = "FrontierLagSeconds";

    /** Published by the sweep: manifests and uploads it planned because their S3 event never did. */
    public static final String STRANDED_PLANS = "StrandedPlans";
}
