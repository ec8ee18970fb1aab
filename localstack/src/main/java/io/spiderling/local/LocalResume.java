package io.spiderling.local;

import io.spiderling.core.frontier.Frontier;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Resumes the fetch work of a local stack whose process died, on its data folder, before the pollers start. The
 * folder's lock proves that no other process holds any of its jobs, so there is no need to wait for the frontier's
 * sweep to presume them lost ({@code lostAfter}, 15 minutes):
 *
 * <ol>
 *   <li>the fetch queue is emptied, by receiving and deleting (ElasticMQ's storage does not keep a purge), so that
 *       the frontier is the one source of fetch jobs: a job left in it and sent again would be fetched twice;</li>
 *   <li>every released frontier entry is sent again at once, under a new send ({@link Frontier#resendReleased}).</li>
 * </ol>
 *
 * Messages of the other queues that were in flight are already visible again: the persistent stack makes them so at
 * start. A job whose outcome was recorded before the crash is not fetched again: the fetch stage ends it as recorded.
 */
public final class LocalResume {

    /**
     * @param drained fetch-queue messages deleted, as copies of jobs the frontier sends again
     * @param resent released frontier entries sent again
     */
    public record Resumed(int drained, int resent) {}

    private LocalResume() {}

    public static Resumed resume(SqsClient sqs, String fetchQueueUrl, Frontier frontier) {
        int drained = 0;
        while (true) {
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(fetchQueueUrl).maxNumberOfMessages(10)
                    .waitTimeSeconds(0)).messages();
            if (messages.isEmpty()) {
                break;
            }
            sqs.deleteMessageBatch(b -> b.queueUrl(fetchQueueUrl).entries(messages.stream()
                    .map(m -> DeleteMessageBatchRequestEntry.builder().id(m.messageId())
                            .receiptHandle(m.receiptHandle()).build())
                    .toList()));
            drained += messages.size();
        }
        return new Resumed(drained, frontier.resendReleased());
    }
}
