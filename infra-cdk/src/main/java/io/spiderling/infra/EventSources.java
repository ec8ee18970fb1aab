package io.spiderling.infra;

import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.Queue;
import io.spiderling.infra.Functions.DeployedFunction;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.lambda.EventInvokeConfigOptions;
import software.amazon.awscdk.services.lambda.destinations.SqsDestination;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSource;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSourceProps;
import software.amazon.awscdk.services.s3.EventType;
import software.amazon.awscdk.services.s3.NotificationKeyFilter;
import software.amazon.awscdk.services.s3.notifications.LambdaDestination;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * What invokes each function, from its catalog {@link EventSource}: an SQS mapping, S3 object-created
 * notifications, or an EventBridge schedule. HTTP functions are invoked through the routes of the HTTP API
 * ({@link HttpApiConstruct}). Every source targets the function's {@code live} alias.
 */
public final class EventSources extends Construct {

    /**
     * Lambda's retries of a failed asynchronous invocation (S3 notifications are asynchronous), before the event
     * goes to the on-failure queue. Two is Lambda's maximum.
     */
    static final int OBJECT_EVENT_RETRIES = 2;

    /** Suffix of the queue that keeps S3 events their function failed on, after the prefix. */
    static final String OBJECT_EVENT_FAILURES = "s3-events-failed";

    private final Optional<IQueue> objectEventFailures;

    public EventSources(Construct scope, String id, EventSourcesProps props) {
        super(scope, id);
        boolean anyObjectEvents = props.functions().all().stream()
                .anyMatch(f -> f.spec().source() instanceof EventSource.ObjectCreated);
        objectEventFailures = anyObjectEvents ? Optional.of(failureQueue(props.resourcePrefix())) : Optional.empty();
        for (DeployedFunction function : props.functions().all()) {
            switch (function.spec().source()) {
                case EventSource.Http http -> {
                    // Routed by the HTTP API, from the route table.
                }
                case EventSource.QueueSource source -> consume(function, source, props);
                case EventSource.ObjectCreated source -> notify(function, source, props);
                case EventSource.Schedule source -> schedule(function, source);
            }
        }
        if (anyObjectEvents) {
            acceptNotificationsHandler(this);
        }
    }

    /** The queue of S3 events whose function failed on every try; empty when no function takes S3 events. */
    public Optional<IQueue> objectEventFailures() {
        return objectEventFailures;
    }

    /** The mapping grants the function's role what consuming needs (receive, delete, change visibility). */
    private static void consume(DeployedFunction function, EventSource.QueueSource source, EventSourcesProps props) {
        IQueue queue = props.queues().queue(source.queue()).orElseThrow(() -> new IllegalArgumentException(
                function.spec().name() + " consumes " + source.queue() + ", which this deployment leaves out"));
        var mapping = SqsEventSourceProps.builder()
                .batchSize(source.batchSize())
                .reportBatchItemFailures(source.reportsBatchItemFailures());
        // A FIFO source takes no batching window at all (the catalog checks it), so zero means "leave it unset".
        if (!source.batchingWindow().isZero()) {
            mapping.maxBatchingWindow(Duration.seconds(source.batchingWindow().toSeconds()));
        }
        Optional.ofNullable(props.maxConcurrency().get(function.spec().name())).ifPresent(mapping::maxConcurrency);
        function.target().addEventSource(new SqsEventSource(queue, mapping.build()));
    }

    /**
     * One notification per prefix, to the alias: S3 invokes exactly the function it is given, so handing it the
     * unqualified function would run {@code $LATEST}, bypass the alias's async settings and, for a JVM build,
     * SnapStart.
     */
    private void notify(DeployedFunction function, EventSource.ObjectCreated source, EventSourcesProps props) {
        for (BucketPrefix prefix : source.prefixes()) {
            props.storage().bucket().addEventNotification(EventType.OBJECT_CREATED,
                    new LambdaDestination(function.target()),
                    NotificationKeyFilter.builder().prefix(prefix.prefix()).build());
        }
        function.target().configureAsyncInvoke(EventInvokeConfigOptions.builder()
                .retryAttempts(OBJECT_EVENT_RETRIES)
                .onFailure(new SqsDestination(objectEventFailures.orElseThrow()))
                .build());
    }

    private void schedule(DeployedFunction function, EventSource.Schedule source) {
        java.time.Duration every = source.every();
        if (!every.equals(java.time.Duration.ofMinutes(every.toMinutes()))) {
            throw new IllegalArgumentException(function.spec().name() + ": EventBridge rates are whole minutes, not "
                    + every);
        }
        Rule.Builder.create(this, Names.constructId(function.spec().name()) + "Schedule")
                .description("Runs " + function.spec().name() + " every " + every.toMinutes() + " min")
                .schedule(Schedule.rate(Duration.minutes(every.toMinutes())))
                .targets(List.of(new LambdaFunction(function.target())))
                .build();
    }

    /**
     * Keeps each failed S3 event, with its error, for as long as SQS can (14 days), for an operator to look at. The
     * sweep separately plans manifests whose events were lost, so nothing is lost if nobody does.
     */
    private IQueue failureQueue(String resourcePrefix) {
        IQueue queue = software.amazon.awscdk.services.sqs.Queue.Builder.create(this, "ObjectEventFailures")
                .queueName(resourcePrefix + "-" + OBJECT_EVENT_FAILURES)
                .retentionPeriod(Duration.seconds(Queue.DEAD_LETTER_RETENTION.toSeconds()))
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .build();
        Nag.accept(queue, "AwsSolutions-SQS3", "This queue is the on-failure destination of the S3 event"
                + " invocations, i.e. already the dead-letter queue of that path; an alarm fires when a message"
                + " arrives, and there is nowhere further to send it.");
        return queue;
    }

    /**
     * CDK configures bucket notifications through one singleton function of its own, created at the stack's root
     * when the first notification is added.
     */
    private static void acceptNotificationsHandler(Construct scope) {
        Stack stack = Stack.of(scope);
        stack.getNode().getChildren().stream()
                .filter(child -> child.getNode().getId().startsWith("BucketNotificationsHandler"))
                .forEach(handler -> Nag.accept(handler.getNode().findChild("Role"), "AwsSolutions-IAM4",
                        "CDK's own custom resource that writes the bucket's notification configuration while"
                                + " CloudFormation deploys; the AWS-managed basic execution policy only lets it"
                                + " write its logs, and it never touches data."));
    }

    /** What the event sources connect. */
    public static final class EventSourcesProps {
        private final Functions functions;
        private final Queues queues;
        private final Storage storage;
        private final String resourcePrefix;
        private final Map<String, Integer> maxConcurrency;

        private EventSourcesProps(Builder b) {
            this.functions = Objects.requireNonNull(b.functions, "functions");
            this.queues = Objects.requireNonNull(b.queues, "queues");
            this.storage = Objects.requireNonNull(b.storage, "storage");
            this.resourcePrefix = Objects.requireNonNull(b.resourcePrefix, "resourcePrefix");
            this.maxConcurrency = Map.copyOf(b.maxConcurrency);
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

        Storage storage() {
            return storage;
        }

        String resourcePrefix() {
            return resourcePrefix;
        }

        /** The concurrency limit of each queue-driven function's mapping that has one. */
        Map<String, Integer> maxConcurrency() {
            return maxConcurrency;
        }

        public static final class Builder {
            private Functions functions;
            private Queues queues;
            private Storage storage;
            private String resourcePrefix;
            private Map<String, Integer> maxConcurrency = Map.of();

            private Builder() {}

            public Builder functions(Functions functions) {
                this.functions = functions;
                return this;
            }

            public Builder queues(Queues queues) {
                this.queues = queues;
                return this;
            }

            public Builder storage(Storage storage) {
                this.storage = storage;
                return this;
            }

            public Builder resourcePrefix(String prefix) {
                this.resourcePrefix = prefix;
                return this;
            }

            public Builder maxConcurrency(Map<String, Integer> limits) {
                this.maxConcurrency = limits;
                return this;
            }

            public EventSourcesProps build() {
                return new EventSourcesProps(this);
            }
        }
    }
}
