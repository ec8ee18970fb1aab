package io.spiderling.infra;

import io.spiderling.catalog.Queue;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.sqs.DeadLetterQueue;
import software.amazon.awscdk.services.sqs.DeduplicationScope;
import software.amazon.awscdk.services.sqs.FifoThroughputLimit;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * One SQS queue per {@link Queue} the deployment keeps, with the catalog's kind, dead-letter queue, visibility and
 * retention. Every queue is encrypted (SQS-managed keys, so no KMS grants) and refuses plain-HTTP requests.
 */
public final class Queues extends Construct {

    private final Map<Queue, IQueue> queues = new EnumMap<>(Queue.class);

    public Queues(Construct scope, String id, QueuesProps props) {
        super(scope, id);
        for (Queue queue : Queue.all()) {
            if (!props.omitted().contains(queue)) {
                create(queue, props);
            }
        }
    }

    /** The queue, unless the deployment left it out. */
    public Optional<IQueue> queue(Queue queue) {
        return Optional.ofNullable(queues.get(queue));
    }

    /** Every queue created, in catalog order (so the template is the same on every synth). */
    public Map<Queue, IQueue> all() {
        return Collections.unmodifiableMap(queues);
    }

    private IQueue create(Queue queue, QueuesProps props) {
        IQueue existing = queues.get(queue);
        if (existing != null) {
            return existing;
        }
        var builder = software.amazon.awscdk.services.sqs.Queue.Builder
                .create(this, Names.constructId(queue.suffix()) + "Queue")
                .queueName(queue.nameIn(props.resourcePrefix()))
                .visibilityTimeout(Duration.seconds(queue.visibility().toSeconds()))
                .retentionPeriod(Duration.seconds(queue.retention().toSeconds()))
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true);
        queue.deadLetter().ifPresent(dlq -> builder.deadLetterQueue(DeadLetterQueue.builder()
                .queue(create(dlq.queue(), props))
                .maxReceiveCount(dlq.maxReceiveCount())
                .build()));
        if (queue.fifo()) {
            // The senders set an explicit deduplication id per job attempt (DESIGN: a repeated id within five
            // minutes is dropped silently), so the body must never be the id.
            builder.fifo(true).contentBasedDeduplication(false);
            if (!queue.isDeadLetterQueue()) {
                // One message group per site: ordering and deduplication per group lets SQS spread the groups over
                // partitions instead of capping the whole queue at 300 messages a second.
                builder.deduplicationScope(DeduplicationScope.MESSAGE_GROUP)
                        .fifoThroughputLimit(FifoThroughputLimit.PER_MESSAGE_GROUP_ID);
            }
        }
        IQueue created = builder.build();
        if (queue == Queue.WAKE) {
            Nag.accept(created, "AwsSolutions-SQS3", "Its consumer never fails a message: a wake-up it cannot act on"
                    + " is dropped, and the minute's sweep releases the site's due jobs anyway.");
        } else if (queue.deadLetter().isEmpty() && !queue.isDeadLetterQueue() && !props.consumed().contains(queue)) {
            Nag.accept(created, "AwsSolutions-SQS3", "No function of the deployment consumes "
                    + queue.nameIn(props.resourcePrefix()) + " (it is for listeners outside it), so no receive"
                    + " here can fail; a listener that consumes it brings its own redrive policy.");
        }
        queues.put(queue, created);
        return created;
    }

    /** Which queues to create, and what the deployment does with them. */
    public static final class QueuesProps {
        private final String resourcePrefix;
        private final Set<Queue> omitted;
        private final Set<Queue> consumed;

        private QueuesProps(Builder b) {
            this.resourcePrefix = Objects.requireNonNull(b.resourcePrefix, "resourcePrefix");
            this.omitted = Collections.unmodifiableSet(b.omitted);
            this.consumed = Collections.unmodifiableSet(b.consumed);
        }

        public static Builder builder() {
            return new Builder();
        }

        /** Stem of the queue names. */
        String resourcePrefix() {
            return resourcePrefix;
        }

        /**
         * Queues the deployment does without; each must be one no function needs (its URL key is optional, nothing
         * consumes it and nothing dead-letters into it), which {@link SpiderlingStackProps} checks.
         */
        Set<Queue> omitted() {
            return omitted;
        }

        /** Queues a function of the deployment consumes. */
        Set<Queue> consumed() {
            return consumed;
        }

        public static final class Builder {
            private String resourcePrefix;
            private final Set<Queue> omitted = EnumSet.noneOf(Queue.class);
            private final Set<Queue> consumed = EnumSet.noneOf(Queue.class);

            private Builder() {}

            public Builder resourcePrefix(String prefix) {
                this.resourcePrefix = prefix;
                return this;
            }

            public Builder omitted(Set<Queue> queues) {
                this.omitted.addAll(queues);
                return this;
            }

            public Builder consumed(Set<Queue> queues) {
                this.consumed.addAll(queues);
                return this;
            }

            public QueuesProps build() {
                return new QueuesProps(this);
            }
        }
    }
}
