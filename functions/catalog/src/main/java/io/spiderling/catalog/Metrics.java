package io.spiderling.catalog;

import java.util.List;
import java.util.Map;

/**
 * Custom CloudWatch metrics the functions publish (in the embedded metric format, on standard output) and the CDK
 * stack alarms on and graphs. Lambda's own metrics (errors, throttles) and SQS's (queue depth) need nothing here.
 *
 * <p>Dimensions stay few: every metric has {@link #FUNCTION_DIMENSION}; the outcome counts add
 * {@link #OUTCOME_DIMENSION}, whose values are a fixed set of words. Never a site or a URL: each distinct dimension
 * value is a metric of its own, billed monthly. A function publishes at most one line per invocation for each set of
 * dimension values, with the invocation's values summed (or, for latencies, listed). docs/observability.md has the
 * table of names, units and meanings.
 */
public final class Metrics {

    private Metrics() {}

    public static final String NAMESPACE = "Spiderling";

    /** On every metric: the publishing function's name, as Lambda reports it. */
    public static final String FUNCTION_DIMENSION = "FunctionName";

    /**
     * On {@link #FETCH_OUTCOMES} and {@link #ROBOTS_OUTCOMES}: what the site's answer was, one of a fixed set of
     * words ({@code ok}, {@code throttled}, {@code server-error}, {@code client-error}, {@code timeout},
     * {@code connect}, {@code dns}, {@code tls}, {@code io}, {@code blocked}).
     */
    public static final String OUTCOME_DIMENSION = "Outcome";

    /**
     * Published by the sweep every run: seconds since the oldest frontier entry that is due but not released became
     * due (0 when none waits). The backlog waits in DynamoDB, so the fetch queue's age cannot show it.
     */
    public static final String FRONTIER_LAG_SECONDS = "FrontierLagSeconds";

    /** Published by the sweep: manifests and uploads it planned because their S3 event never did. */
    public static final String STRANDED_PLANS = "StrandedPlans";

    /** Fetch: each page GET's time, start to last byte or failure, in milliseconds (one value per GET). */
    public static final String FETCH_LATENCY = "FetchLatency";

    /** Fetch: page GETs, by {@link #OUTCOME_DIMENSION}. */
    public static final String FETCH_OUTCOMES = "FetchOutcomes";

    /** Fetch: robots.txt GETs, by {@link #OUTCOME_DIMENSION}. */
    public static final String ROBOTS_OUTCOMES = "RobotsOutcomes";

    /** Fetch: requests the site's rate refused a slot, each parked in the frontier for later. */
    public static final String RATE_REFUSALS = "RateRefusals";

    /**
     * Fetch: requests not sent because they missed their slot's send window (the site would have got them closer
     * than its interval to the next slot's); each gets the next slot once, and goes back to the frontier if late again.
     */
    public static final String LATE_SENDS = "LateSends";

    /** Fetch: jobs sent back to the frontier for another attempt after an error (5xx, timeout, connection). */
    public static final String RETRIES = "Retries";

    /** The dead-letter consumers: messages that arrived in a dead-letter queue, each ended as failed. */
    public static final String DLQ_SENDS = "DlqSends";

    /** Fetch: body bytes written to S3 (bodies already stored under their content key are not written again). */
    public static final String BYTES_STORED = "BytesStored";

    /** The metrics of the fetch and dead-letter functions, as the dashboard graphs them. */
    public static final List<String> FETCH_STAGE = List.of(FETCH_LATENCY, FETCH_OUTCOMES, ROBOTS_OUTCOMES,
            RATE_REFUSALS, LATE_SENDS, RETRIES, DLQ_SENDS, BYTES_STORED);

    /** Each metric's CloudWatch unit. */
    public static final Map<String, String> UNITS = Map.of(FRONTIER_LAG_SECONDS, "Seconds", STRANDED_PLANS, "Count",
            FETCH_LATENCY, "Milliseconds", FETCH_OUTCOMES, "Count", ROBOTS_OUTCOMES, "Count", RATE_REFUSALS, "Count",
            LATE_SENDS, "Count", RETRIES, "Count", DLQ_SENDS, "Count", BYTES_STORED, "Bytes");

    /** The metrics counted by {@link #OUTCOME_DIMENSION}. */
    public static final List<String> BY_OUTCOME = List.of(FETCH_OUTCOMES, ROBOTS_OUTCOMES);
}
