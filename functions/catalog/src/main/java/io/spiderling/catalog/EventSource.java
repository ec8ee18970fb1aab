package io.spiderling.catalog;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What invokes a function. The local runner wires each kind to its local loop; the CDK stack to its AWS source. */
public sealed interface EventSource {

    /** HTTP API requests on the routes {@link Routes} gives the function. */
    record Http() implements EventSource {}

    /**
     * An SQS event source mapping.
     *
     * @param batchSize messages per invocation, 1 to 10
     * @param batchingWindow how long Lambda waits to fill a batch; zero for none (FIFO queues allow none)
     * @param reportsBatchItemFailures the handler answers an {@code SQSBatchResponse} naming the failed messages
     * @param maxConcurrency the most concurrent invocations the mapping starts (2 to 1000); empty for no limit
     */
    record QueueSource(Queue queue, int batchSize, Duration batchingWindow, boolean reportsBatchItemFailures,
            Optional<Integer> maxConcurrency) implements EventSource {

        public QueueSource batchSize(int size) {
            return new QueueSource(queue, size, batchingWindow, reportsBatchItemFailures, maxConcurrency);
        }

        public QueueSource batchingWindow(Duration window) {
            return new QueueSource(queue, batchSize, window, reportsBatchItemFailures, maxConcurrency);
        }

        public QueueSource reportingBatchItemFailures() {
            return new QueueSource(queue, batchSize, batchingWindow, true, maxConcurrency);
        }

        public QueueSource maxConcurrency(int limit) {
            return new QueueSource(queue, batchSize, batchingWindow, reportsBatchItemFailures, Optional.of(limit));
        }
    }

    /**
     * S3 ObjectCreated notifications for keys under {@code prefixes}, one notification per prefix. S3 invokes the
     * function asynchronously: Lambda retries a failed event twice, then hands it to the on-failure destination.
     */
    record ObjectCreated(List<BucketPrefix> prefixes) implements EventSource {
        public ObjectCreated {
            prefixes = List.copyOf(prefixes);
        }
    }

    /** A fixed-rate schedule (EventBridge on AWS; a timer locally). */
    record Schedule(Duration every) implements EventSource {}

    static Http http() {
        return new Http();
    }

    /** Ten messages a batch, no batching window, no failure reports, no concurrency limit: refine from there. */
    static QueueSource queue(Queue queue) {
        return new QueueSource(queue, 10, Duration.ZERO, false, Optional.empty());
    }

    static ObjectCreated objectCreated(BucketPrefix... prefixes) {
        return new ObjectCreated(List.of(prefixes));
    }

    static Schedule every(Duration every) {
        return new Schedule(every);
    }
}
