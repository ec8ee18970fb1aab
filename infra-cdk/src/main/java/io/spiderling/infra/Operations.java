package io.spiderling.infra;

import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Metrics;
import io.spiderling.infra.Functions.DeployedFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * What tells an operator something is wrong: alarms on every dead-letter queue, on S3 events that failed, on each
 * function's errors and throttles and on frontier lag, all notifying one encrypted SNS topic; and a dashboard of the
 * same signals.
 */
public final class Operations extends Construct {

    /** Alarms look at five-minute windows: short enough to page promptly, long enough to smooth one bad minute. */
    static final Duration PERIOD = Duration.minutes(5);

    private final Topic topic;
    private final List<Alarm> alarms = new ArrayList<>();

    public Operations(Construct scope, String id, OperationsProps props) {
        super(scope, id);
        topic = alarmTopic();
        SnsAction notify = new SnsAction(topic);

        props.queues().all().forEach((queue, created) -> {
            if (queue.isDeadLetterQueue()) {
                alarm(Names.constructId(queue.suffix()) + "Depth", props,
                        created.metricApproximateNumberOfMessagesVisible(maximum()), 0,
                        queue.nameIn(props.resourcePrefix()) + " holds messages its source queue gave up on; its"
                                + " consumer (if any) ends them as failed, read them before they expire in "
                                + queue.retention().toDays() + " days");
            }
        });
        props.objectEventFailures().ifPresent(failed -> alarm("ObjectEventFailuresDepth", props,
                failed.metricApproximateNumberOfMessagesVisible(maximum()), 0,
                "S3 events a function failed on after " + EventSources.OBJECT_EVENT_RETRIES + " retries; the sweep"
                        + " re-plans lost manifests, but content/ events mean bodies not yet extracted"));
        for (DeployedFunction function : props.functions().all()) {
            String name = Names.constructId(function.spec().name());
            alarm(name + "Errors", props, function.function().metricErrors(sum()), 0,
                    function.spec().name() + " failed invocations (handler exceptions, timeouts)");
            alarm(name + "Throttles", props, function.function().metricThrottles(sum()), 0,
                    function.spec().name() + " invocations Lambda refused for lack of concurrency");
        }
        // The sweep publishes the lag every run, 0 when nothing waits, so no data means the sweep is not running.
        frontierLag(props).ifPresent(lag -> alarm("FrontierLag", props, lag,
                props.frontierLagAlarm().toSeconds(),
                "The oldest due frontier entry has waited longer than " + props.frontierLagAlarm().toSeconds()
                        + " s to be released (or the sweep stopped reporting): fetching is falling behind",
                TreatMissingData.BREACHING));
        alarms.forEach(alarm -> alarm.addAlarmAction(notify));

        Dashboard.Builder.create(this, "Dashboard")
                .dashboardName(props.resourcePrefix())
                .widgets(dashboard(props))
                .build();
    }

    /** The topic every alarm notifies; subscribe to it. */
    public ITopic topic() {
        return topic;
    }

    /**
     * CloudWatch can publish to an encrypted topic only through a customer-managed key whose policy lets it use the
     * key (the AWS-managed SNS key does not), and the topic's own policy must let it publish once CDK replaces the
     * default policy to enforce TLS.
     */
    private Topic alarmTopic() {
        Key key = Key.Builder.create(this, "AlarmTopicKey")
                .description("Encrypts the Spiderling alarm topic")
                .enableKeyRotation(true)
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        ServicePrincipal cloudWatch = new ServicePrincipal("cloudwatch.amazonaws.com");
        key.addToResourcePolicy(PolicyStatement.Builder.create()
                .principals(List.of(cloudWatch))
                .actions(List.of("kms:Decrypt", "kms:GenerateDataKey*"))
                .resources(List.of("*"))
                .build());
        Topic created = Topic.Builder.create(this, "AlarmTopic")
                .displayName("Spiderling alarms")
                .masterKey(key)
                .enforceSsl(true)
                .build();
        created.addToResourcePolicy(PolicyStatement.Builder.create()
                .principals(List.of(cloudWatch))
                .actions(List.of("sns:Publish"))
                .resources(List.of(created.getTopicArn()))
                .conditions(Map.of("StringEquals", Map.of("aws:SourceAccount", Stack.of(this).getAccount())))
                .build());
        return created;
    }

    /** An alarm when {@code metric} exceeds {@code threshold}; no data (no messages, no invocations) is fine. */
    private void alarm(String id, OperationsProps props, IMetric metric, double threshold, String description) {
        alarm(id, props, metric, threshold, description, TreatMissingData.NOT_BREACHING);
    }

    private void alarm(String id, OperationsProps props, IMetric metric, double threshold, String description,
            TreatMissingData missingData) {
        alarms.add(Alarm.Builder.create(this, id)
                .alarmName(props.resourcePrefix() + "-" + id)
                .alarmDescription(description)
                .metric(metric)
                .threshold(threshold)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
                .evaluationPeriods(1)
                .treatMissingData(missingData)
                .build());
    }

    /** Published by the sweep, under its own function name as Lambda reports it. */
    private static Optional<IMetric> frontierLag(OperationsProps props) {
        return props.functions().all().stream()
                .filter(f -> f.spec().name().equals(FunctionNames.SWEEP))
                .findFirst()
                .map(sweep -> Metric.Builder.create()
                        .namespace(Metrics.NAMESPACE)
                        .metricName(Metrics.FRONTIER_LAG_SECONDS)
                        .dimensionsMap(Map.of(Metrics.FUNCTION_DIMENSION, sweep.function().getFunctionName()))
                        .statistic("Maximum")
                        .period(PERIOD)
                        .build());
    }

    private static List<List<IWidget>> dashboard(OperationsProps props) {
        List<List<IWidget>> rows = new ArrayList<>();
        List<IWidget> functions = new ArrayList<>();
        for (DeployedFunction function : props.functions().all()) {
            var f = function.function();
            functions.add(GraphWidget.Builder.create()
                    .title(function.spec().name())
                    .width(8)
                    .left(List.of(f.metricInvocations(sum()), f.metricErrors(sum()), f.metricThrottles(sum())))
                    .right(List.of(f.metricDuration(MetricOptions.builder().statistic("p99").period(PERIOD)
                            .build())))
                    .build());
        }
        rows.add(functions);
        List<IWidget> queues = new ArrayList<>();
        props.queues().all().forEach((queue, created) -> queues.add(queueWidget(queue.nameIn(props.resourcePrefix()),
                created)));
        props.objectEventFailures().ifPresent(failed -> queues.add(queueWidget("S3 events failed", failed)));
        rows.add(queues);
        frontierLag(props).ifPresent(lag -> rows.add(List.of(GraphWidget.Builder.create()
                .title("Frontier lag (s)")
                .width(24)
                .left(List.of(lag))
                .build())));
        fetchStage(props).ifPresent(rows::add);
        return rows;
    }

    /**
     * The fetch stage's own metrics (catalog {@link Metrics}): GET latency, GETs of pages and of robots.txt by
     * outcome (every outcome a search finds, so a new one shows without a redeploy), rate refusals, retries,
     * dead-letter arrivals and bytes stored.
     */
    private static Optional<List<IWidget>> fetchStage(OperationsProps props) {
        Optional<DeployedFunction> fetch = function(props, FunctionNames.FETCH);
        if (fetch.isEmpty()) {
            return Optional.empty();
        }
        String fetchName = fetch.get().function().getFunctionName();
        List<IWidget> widgets = new ArrayList<>();
        widgets.add(GraphWidget.Builder.create()
                .title("Fetch latency (ms)")
                .width(8)
                .left(List.of(custom(Metrics.FETCH_LATENCY, fetchName, "p50"),
                        custom(Metrics.FETCH_LATENCY, fetchName, "p99")))
                .build());
        for (String metric : Metrics.BY_OUTCOME) {
            widgets.add(GraphWidget.Builder.create()
                    .title(metric + " by " + Metrics.OUTCOME_DIMENSION)
                    .width(8)
                    .left(List.of(MathExpression.Builder.create()
                            .expression("SEARCH('{" + Metrics.NAMESPACE + "," + Metrics.FUNCTION_DIMENSION + ","
                                    + Metrics.OUTCOME_DIMENSION + "} MetricName=\"" + metric + "\" "
                                    + Metrics.FUNCTION_DIMENSION + "=\"" + fetchName + "\"', 'Sum', "
                                    + PERIOD.toSeconds().intValue() + ")")
                            .usingMetrics(Map.of())
                            .label(metric)
                            .period(PERIOD)
                            .build()))
                    .build());
        }
        widgets.add(GraphWidget.Builder.create()
                .title("Rate refusals, late sends and retries")
                .width(8)
                .left(List.of(custom(Metrics.RATE_REFUSALS, fetchName, "Sum"),
                        custom(Metrics.LATE_SENDS, fetchName, "Sum"), custom(Metrics.RETRIES, fetchName, "Sum")))
                .build());
        List<IMetric> deadLetters = new ArrayList<>();
        for (String consumer : List.of(FunctionNames.FETCH_DLQ, FunctionNames.NOTIFY_DLQ)) {
            function(props, consumer).ifPresent(f -> deadLetters.add(custom(Metrics.DLQ_SENDS,
                    f.function().getFunctionName(), "Sum")));
        }
        if (!deadLetters.isEmpty()) {
            widgets.add(GraphWidget.Builder.create()
                    .title("Dead-lettered messages")
                    .width(8)
                    .left(deadLetters)
                    .build());
        }
        widgets.add(GraphWidget.Builder.create()
                .title("Bytes stored")
                .width(8)
                .left(List.of(custom(Metrics.BYTES_STORED, fetchName, "Sum")))
                .build());
        return Optional.of(widgets);
    }

    private static Optional<DeployedFunction> function(OperationsProps props, String name) {
        return props.functions().all().stream().filter(f -> f.spec().name().equals(name)).findFirst();
    }

    /** A metric the functions publish, dimensioned by the publishing function alone. */
    private static IMetric custom(String metric, String functionName, String statistic) {
        return Metric.Builder.create()
                .namespace(Metrics.NAMESPACE)
                .metricName(metric)
                .dimensionsMap(Map.of(Metrics.FUNCTION_DIMENSION, functionName))
                .statistic(statistic)
                .period(PERIOD)
                .build();
    }

    private static IWidget queueWidget(String title, IQueue queue) {
        return GraphWidget.Builder.create()
                .title(title)
                .width(8)
                .left(List.of(queue.metricApproximateNumberOfMessagesVisible(maximum()),
                        queue.metricApproximateNumberOfMessagesNotVisible(maximum())))
                .right(List.of(queue.metricApproximateAgeOfOldestMessage(maximum())))
                .build();
    }

    private static MetricOptions sum() {
        return MetricOptions.builder().statistic("Sum").period(PERIOD).build();
    }

    private static MetricOptions maximum() {
        return MetricOptions.builder().statistic("Maximum").period(PERIOD).build();
    }

    /** What the operations watch. */
    public static final class OperationsProps {
        private final Functions functions;
        private final Queues queues;
        private final Optional<IQueue> objectEventFailures;
        private final String resourcePrefix;
        private final java.time.Duration frontierLagAlarm;

        private OperationsProps(Builder b) {
            this.functions = Objects.requireNonNull(b.functions, "functions");
            this.queues = Objects.requireNonNull(b.queues, "queues");
            this.objectEventFailures = Objects.requireNonNull(b.objectEventFailures, "objectEventFailures");
            this.resourcePrefix = Objects.requireNonNull(b.resourcePrefix, "resourcePrefix");
            this.frontierLagAlarm = Objects.requireNonNull(b.frontierLagAlarm, "frontierLagAlarm");
        }

        public static Builder builder() {
            return new Builder();
        }

        Functions functions() {
            return functions;
        }

        Queues queues() {
            return queues;
        }

        Optional<IQueue> objectEventFailures() {
            return objectEventFailures;
        }

        String resourcePrefix() {
            return resourcePrefix;
        }

        java.time.Duration frontierLagAlarm() {
            return frontierLagAlarm;
        }

        public static final class Builder {
            private Functions functions;
            private Queues queues;
            private Optional<IQueue> objectEventFailures = Optional.empty();
            private String resourcePrefix;
            private java.time.Duration frontierLagAlarm;

            private Builder() {}

            public Builder functions(Functions functions) {
                this.functions = functions;
                return this;
            }

            public Builder queues(Queues queues) {
                this.queues = queues;
                return this;
            }

            public Builder objectEventFailures(Optional<IQueue> queue) {
                this.objectEventFailures = queue;
                return this;
            }

            public Builder resourcePrefix(String prefix) {
                this.resourcePrefix = prefix;
                return this;
            }

            public Builder frontierLagAlarm(java.time.Duration threshold) {
                this.frontierLagAlarm = threshold;
                return this;
            }

            public OperationsProps build() {
                return new OperationsProps(this);
            }
        }
    }
}
