package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.List;
import java.util.Set;
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
 */
final class SqsPoller implements Runnable {

    private static final System.Logger LOG = System.getLogger(SqsPoller.class.getName());

    private final SqsClient sqs;
    private final String queueUrl;
    private final String queueArn;
    private final Function<SQSEvent, SQSBatchResponse> handler;
    private final AtomicBoolean running;
    private final int batchSize;

    SqsPoller(SqsClient sqs, String queueUrl, Function<SQSEvent, SQSBatchResponse> handler, AtomicBoolean running) {
        this(sqs, queueUrl, handler, running, 10);
    }

    /** @param batchSize the event source mapping's batch size, 1 to 10 */
    SqsPoller(SqsClient sqs, String queueUrl, Function<SQSEvent, SQSBatchResponse> handler, AtomicBoolean running,
            int batchSize) {
        this.batchSize = batchSize;
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.queueArn = "arn:aws:sqs:" + LocalEvents.REGION + ":000000000000:"
                + queueUrl.substring(queueUrl.lastIndexOf('/') + 1);
        this.handler = handler;
        this.running = running;
    }

    @Override
    public void run() {
        while (running.get()) {
            try {
                pollOnce();
            } catch (RuntimeException e) {
                if (running.get()) {
                    LOG.log(System.Logger.Level.WARNING, "polling " + queueUrl + " failed; retrying", e);
                    sleep();
                }
            }
        }
    }

    private void pollOnce() {
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queueUrl)
                .maxNumberOfMessages(batchSize)
                .waitTimeSeconds(1)
                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
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

    private static void sleep() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
