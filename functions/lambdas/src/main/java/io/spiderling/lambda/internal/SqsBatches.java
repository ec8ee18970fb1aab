package io.spiderling.lambda.internal;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.core.pipeline.MessageGroups;
import java.util.List;
import java.util.function.Consumer;

/** Runs an SQS batch with Lambda's partial-failure semantics and reports the failed message ids. */
public final class SqsBatches {

    private SqsBatches() {}

    /**
     * FIFO messages carry their group in the MessageGroupId attribute; a standard queue has no groups, so each
     * message is its own.
     */
    public static SQSBatchResponse process(SQSEvent event, Consumer<SQSEvent.SQSMessage> handler) {
        List<SQSEvent.SQSMessage> records = event.getRecords() == null ? List.of() : event.getRecords();
        List<SQSEvent.SQSMessage> failed = MessageGroups.process(records, SqsBatches::groupOf, handler);
        return failures(failed.stream().map(SQSEvent.SQSMessage::getMessageId).toList());
    }

    /** The response that reports these message ids as failed (none: the whole batch succeeded). */
    public static SQSBatchResponse failures(List<String> messageIds) {
        return SQSBatchResponse.builder()
                .withBatchItemFailures(messageIds.stream()
                        .map(id -> SQSBatchResponse.BatchItemFailure.builder().withItemIdentifier(id).build())
                        .toList())
                .build();
    }

    /** The message's group: its MessageGroupId, or the message itself on a standard queue. */
    public static String groupOf(SQSEvent.SQSMessage message) {
        String group = message.getAttributes() == null ? null : message.getAttributes().get("MessageGroupId");
        return group != null ? group : "message:" + message.getMessageId();
    }
}
