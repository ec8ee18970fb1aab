package io.spiderling.aws;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.politeness.Lanes;
import io.spiderling.core.port.FetchQueue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * {@link FetchQueue} on an SQS FIFO queue: the message group is the site key (split into the site's {@link Lanes}), so
 * one site's jobs are handed out one lane at a time while other sites proceed. SendMessageBatch can fail per entry, so
 * failed entries are re-sent (with the same deduplication ids, which makes a re-send of an entry that did get through
 * harmless) before giving up.
 */
public final class SqsFetchQueue implements FetchQueue {

    private static final int MAX_BATCH = 10;
    private static final int ATTEMPTS = 3;

    private final SqsClient sqs;
    private final String queueUrl;
    private final Lanes lanes;

    public SqsFetchQueue(SqsClient sqs, String queueUrl) {
        this(sqs, queueUrl, Lanes.fixed(1));
    }

    /** @param lanes each site's message groups (see {@link Lanes#messageGroupId}) */
    public SqsFetchQueue(SqsClient sqs, String queueUrl, Lanes lanes) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.lanes = Objects.requireNonNull(lanes, "lanes");
    }

    @Override
    public void enqueue(List<FetchJob> jobs) {
        List<String> failures = new ArrayList<>();
        for (int from = 0; from < jobs.size(); from += MAX_BATCH) {
            failures.addAll(sendChunk(jobs.subList(from, Math.min(jobs.size(), from + MAX_BATCH))));
        }
        if (!failures.isEmpty()) {
            throw new QueueException(failures.size() + " of " + jobs.size() + " fetch jobs were not queued: "
                    + String.join("; ", failures.subList(0, Math.min(5, failures.size()))));
        }
    }

    private List<String> sendChunk(List<FetchJob> chunk) {
        Map<String, FetchJob> pending = new LinkedHashMap<>();
        for (int i = 0; i < chunk.size(); i++) {
            pending.put(Integer.toString(i), chunk.get(i));
        }
        List<BatchResultErrorEntry> errors = List.of();
        for (int attempt = 0; attempt < ATTEMPTS && !pending.isEmpty(); attempt++) {
            List<SendMessageBatchRequestEntry> entries = pending.entrySet().stream()
                    .map(e -> SendMessageBatchRequestEntry.builder()
                            .id(e.getKey())
                            .messageBody(FetchJobCodec.encode(e.getValue()))
                            .messageGroupId(lanes.messageGroupId(e.getValue()))
                            .messageDeduplicationId(e.getValue().deduplicationId())
                            .build())
                    .toList();
            SendMessageBatchResponse response = sqs.sendMessageBatch(b -> b.queueUrl(queueUrl).entries(entries));
            response.successful().forEach(ok -> pending.remove(ok.id()));
            errors = response.failed();
        }
        return errors.stream()
                .filter(e -> pending.containsKey(e.id()))
                .map(e -> pending.get(e.id()).url().value() + " (" + e.code() + ": " + e.message() + ")")
                .toList();
    }
}
