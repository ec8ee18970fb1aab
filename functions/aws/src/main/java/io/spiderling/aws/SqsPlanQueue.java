package io.spiderling.aws;

import io.spiderling.core.port.PlanQueue;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * {@link PlanQueue} on a standard SQS queue: one message per chunk, {@code {"batchId":"…","chunk":n}}, with
 * {@code "sitemap":"<its item key>"} for a chunk of a sitemap's list. Planning a
 * chunk twice is harmless, so the at-least-once delivery of a standard queue is enough, and its throughput is not
 * capped the way a FIFO queue's is. Entries SendMessageBatch refuses are sent again before giving up.
 */
public final class SqsPlanQueue implements PlanQueue {

    private static final int MAX_BATCH = 10;
    private static final int ATTEMPTS = 3;

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsPlanQueue(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    /** The body of one chunk message. Batch ids are letters, digits and {@code ._-}, so nothing needs escaping. */
    public static String encode(String batchId, int chunk) {
        return "{\"batchId\":\"" + batchId + "\",\"chunk\":" + chunk + "}";
    }

    /** The body of one chunk message of a sitemap's list; its key is hex, so nothing needs escaping either. */
    public static String encodeSitemap(String batchId, String sitemapKey, int chunk) {
        return "{\"batchId\":\"" + batchId + "\",\"sitemap\":\"" + sitemapKey + "\",\"chunk\":" + chunk + "}";
    }

    @Override
    public void enqueue(String batchId, List<Integer> chunks) {
        send(batchId, chunks, c -> encode(batchId, c));
    }

    @Override
    public void enqueueSitemap(String batchId, String sitemapKey, List<Integer> chunks) {
        send(batchId, chunks, c -> encodeSitemap(batchId, sitemapKey, c));
    }

    private void send(String batchId, List<Integer> chunks, java.util.function.IntFunction<String> body) {
        for (int from = 0; from < chunks.size(); from += MAX_BATCH) {
            List<Integer> pending = new ArrayList<>(chunks.subList(from, Math.min(chunks.size(), from + MAX_BATCH)));
            for (int attempt = 0; attempt < ATTEMPTS && !pending.isEmpty(); attempt++) {
                List<SendMessageBatchRequestEntry> entries = pending.stream()
                        .map(c -> SendMessageBatchRequestEntry.builder().id("c" + c)
                                .messageBody(body.apply(c)).build())
                        .toList();
                SendMessageBatchResponse response = sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
                response.successful().forEach(ok -> pending.remove(Integer.valueOf(ok.id().substring(1))));
            }
            if (!pending.isEmpty()) {
                throw new IllegalStateException(pending.size() + " chunk messages of batch " + batchId
                        + " were not sent: chunks " + pending);
            }
        }
    }
}
