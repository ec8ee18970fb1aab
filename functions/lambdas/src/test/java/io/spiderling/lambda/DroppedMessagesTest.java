package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.lambda.notify.NotifyDeadLetterHandler;
import io.spiderling.lambda.notify.NotifyHandler;
import io.spiderling.lambda.plan.PlanHandler;
import io.spiderling.lambda.fetch.FetchDeadLetterHandler;
import io.spiderling.lambda.wake.WakeHandler;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The queue consumers for which retrying a message can never help drop what they cannot read, with a log, and
 * go on with the rest of the batch: notify and its dead-letter handler (a lost notice is re-sent by the batch's
 * next progress or completion check), plan (the upload's chunks are planned again by the sweep), wake (the sweep's
 * next look releases the site anyway) and the fetch dead-letter handler (the job already failed every retry). Runs in
 * the notify function's boot and calls the other handlers directly.
 */
@QuarkusTest
@TestProfile(HandlerProfiles.Notify.class)
@QuarkusTestResource(TestStack.class)
class DroppedMessagesTest {

    @Inject
    NotifyHandler notify;

    @Inject
    NotifyDeadLetterHandler notifyDeadLetters;

    @Inject
    PlanHandler plan;

    @Inject
    WakeHandler wake;

    @Inject
    FetchDeadLetterHandler fetchDeadLetters;

    @Test
    void handleRequest_whenEveryMessageIsGarbage_expectAllDroppedNoneRetried() {
        SQSEvent garbage = event(HostileJson.garbageMessages(30, 19));

        List<RequestHandler<SQSEvent, SQSBatchResponse>> handlers =
                List.of(notify, notifyDeadLetters, plan, wake, fetchDeadLetters);
        for (RequestHandler<SQSEvent, SQSBatchResponse> handler : handlers) {
            SQSBatchResponse response = handler.handleRequest(garbage, null);

            assertEquals(List.of(), response.getBatchItemFailures(), handler.getClass().getSimpleName());
        }
    }

    @Test
    void handleRequest_whenEventHasNoRecordsOrNullRecords_expectNothingToReport() {
        SQSEvent empty = new SQSEvent();
        SQSEvent none = new SQSEvent();
        none.setRecords(List.of());

        for (SQSEvent event : List.of(empty, none)) {
            assertEquals(List.of(), notify.handleRequest(event, null).getBatchItemFailures());
            assertEquals(List.of(), wake.handleRequest(event, null).getBatchItemFailures());
        }
    }

    /** FIFO-like records, two to a message group, as the notify queue sends them. */
    private static SQSEvent event(List<String> bodies) {
        List<SQSEvent.SQSMessage> messages = new ArrayList<>();
        for (int i = 0; i < bodies.size(); i++) {
            SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
            message.setMessageId("garbage-" + i);
            message.setBody(bodies.get(i));
            message.setAttributes(Map.of("MessageGroupId", "group-" + i / 2));
            messages.add(message);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(messages);
        return event;
    }
}
