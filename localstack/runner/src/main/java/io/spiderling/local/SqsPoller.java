package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * Lambda's SQS event source mapping, locally: long-poll up to 10 messages, hand them to the handler as one event,
 * then delete every message the handler did not report as failed. Failed messages stay and come back after their
 * visibility timeout, and after maxReceiveCount receives the queue's redrive policy moves them to the DLQ, as on AWS.
 *
 * <p>By default a poller runs each batch itself, so a function has as many concurrent invocations as it has pollers.
 * {@link #dispatching} makes it behave like a mapping that scales: it receives while earlier batches still run, and
 * runs each batch as its own invocation, up to the mapping's maximum concurrency. A FIFO queue still hands out one
 * batch per message group at a time, so concurrency follows the groups that have messages, as it does on Lambda.
 */
final class SqsPoller implements Runnable {

    private static final System.Logger LOG = System.getLogger(SqsPoller.class.getName());

    private final SqsClient sqs;
    private final String queueUrl;
    private final String queueArn;
    private final Function<SQSEvent, SQSBatchResponse> handler;
    private final AtomicBoolean running;
    private final int batchSize;
    /** Short polls with this pause after a short batch, instead of long polls; empty for long polls. */
    private final Optional<Duration> pause;
    /** Where each batch runs, when not on the poller's own thread; empty: on it. */
    private final Optional<Invocations> invocations;
    /** What cuts a pause short: a send to the queue; empty: nothing. */
    private final Optional<Doorbell> doorbell;

    /**
     * Concurrent invocations of one function: at most as many as {@code slots} has permits, each run by
     * {@code runner} (a thread of its own).
     */
    record Invocations(Semaphore slots, Executor runner) {}

    SqsPoller(SqsClient sqs, String queueUrl, Function<SQSEvent, SQSBatchResponse> handler, AtomicBoolean running) {
        this(sqs, queueUrl, handler, running, 10);
    }

    /** @param batchSize the event source mapping's batch size, 1 to 10 */
    SqsPoller(SqsClient sqs, String queueUrl, Function<SQSEvent, SQSBatchResponse> handler, AtomicBoolean running,
            int batchSize) {
        this(sqs, queueUrl, handler, running, batchSize, Optional.empty(), Optional.empty(), Optional.empty());
    }

    private SqsPoller(SqsClient sqs, String queueUrl, Function<SQSEvent, SQSBatchResponse> handler,
            AtomicBoolean running, int batchSize, Optional<Duration> pause, Optional<Invocations> invocations,
            Optional<Doorbell> doorbell) {
        this.batchSize = batchSize;
        this.pause = pause;
        this.invocations = invocations;
        this.doorbell = doorbell;
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.queueArn = "arn:aws:sqs:" + LocalEvents.REGION + ":000000000000:"
                + queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
        this.handler = handler;
        this.running = running;
    }

    /**
     * The same poller, polling without waiting and pausing {@code pause} whenever a poll brings back less than a full
     * batch. For a queue that may lag by that much: a long poll is answered the moment a message is sent, and
     * ElasticMQ's persistence (on a data folder) can then race its own receive of the message: its
     * {@code DBMessage.from} failed on a message received as it was being stored, and the queue's next send timed
     * out after 21 s. A long-polling listener on the busy events queue met that once in 3,000 messages. Also for a
     * busy FIFO queue, on which ElasticMQ spins while a long poll waits ({@code LocalSpiderling.FIFO_RECEIVE_PAUSE}).
     */
    SqsPoller pausing(Duration pause) {
        return new SqsPoller(sqs, queueUrl, handler, running, batchSize, Optional.of(pause), invocations, doorbell);
    }

    /** The same poller, its pauses cut short by {@code doorbell}: a message sent to the queue is polled for at once. */
    SqsPoller wokenBy(Doorbell doorbell) {
        return new SqsPoller(sqs, queueUrl, handler, running, batchSize, pause, invocations, Optional.of(doorbell));
    }

    /**
     * The same poller, receiving while the batches it received run as invocations of their own, at most as many at
     * once as {@code invocations} allows: it waits for a free one before it receives, so no batch waits in the
     * runner while its messages' visibility timeout runs.
     */
    SqsPoller dispatching(Invocations invocations) {
        return new SqsPoller(sqs, queueUrl, handler, running, batchSize, pause, Optional.of(invocations),
                doorbell);
    }

    @Override
    public void run() {
        while (running.get()) {
            try {
                long rang = doorbell.map(Doorbell::rings).orElse(0L);
                if (pollOnce() < batchSize && pause.isPresent()) {
                    pause(pause.get(), rang);
                }
            } catch (RuntimeException e) {
                if (running.get()) {
                    LOG.log(System.Logger.Level.WARNING, "polling " + queueUrl + " failed; retrying", e);
                    sleep();
                }
            }
        }
    }

    /** One receive and what follows; how many messages it brought. */
    private int pollOnce() {
        if (invocations.isEmpty()) {
            List<Message> messages = receive();
            invoke(messages);
            return messages.size();
        }
        Semaphore slots = invocations.get().slots();
        slots.acquireUninterruptibly();
        List<Message> messages;
        try {
            messages = receive();
        } catch (RuntimeException e) {
            slots.release();
            throw e;
        }
        if (messages.isEmpty()) {
            slots.release();
            return 0;
        }
        try {
            invocations.get().runner().execute(() -> {
                try {
                    invoke(messages);
                } catch (RuntimeException e) {
                    // The deletes failed: the messages come back after their visibility timeout, as on Lambda.
                    LOG.log(System.Logger.Level.WARNING, "deleting a batch from " + queueUrl + " failed", e);
                } finally {
                    slots.release();
                }
            });
        } catch (RuntimeException e) {
            slots.release(); // not started (the runner is closing): the messages come back after their timeout
            throw e;
        }
        return messages.size();
    }

    private List<Message> receive() {
        return sqs.receiveMessage(b -> b.queueUrl(queueUrl)
                .maxNumberOfMessages(batchSize)
                .waitTimeSeconds(pause.isPresent() ? 0 : 1)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
    }

    /** One invocation of the handler with {@code messages}, then the deletes of those it did not report failed. */
    private void invoke(List<Message> messages) {
        if (messages.isEmpty()) {
            return;
        }
        Set<String> failed;
        try {
            SQSBatchResponse response = handler.apply(LocalEvents.sqs(queueArn, messages));
            failed = response.getBatchItemFailures().stream()
                    .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                    .collect(Collectors.toSet());
        } catch (RuntimeException e) {
            // A handler that throws fails the whole batch, as Lambda does.
            LOG.log(System.Logger.Level.WARNING, "handler failed for a batch from " + queueUrl, e);
            return;
        }
        List<DeleteMessageBatchRequestEntry> done = messages.stream()
                .filter(m -> !failed.contains(m.messageId()))
                .map(m -> DeleteMessageBatchRequestEntry.builder().id(m.messageId()).receiptHandle(m.receiptHandle())
                        .build())
                .toList();
        if (!done.isEmpty()) {
            sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(done));
        }
    }

    /** Pauses, or less when the doorbell rang since {@code rang}: a message was sent meanwhile. */
    private void pause(Duration pause, long rang) {
        if (doorbell.isEmpty()) {
            pause(pause);
            return;
        }
        try {
            doorbell.get().await(rang, pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep() {
        pause(Duration.ofMillis(500));
    }

    private static void pause(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
