package io.spiderling.lambda.wake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.SqsWakeQueue;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.FetchQueue;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.url.SiteKey;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A wake-up whose release fails comes back (the site's due jobs would otherwise sit until the sweep's next look at
 * it, up to 10 minutes), until its last delivery; one that names no site never does.
 */
class WakeHandlerTest {

    /** Every call to the frontier's table fails, as when DynamoDB is unreachable. */
    private final AtomicInteger storeCalls = new AtomicInteger();
    private final FrontierStore down = (FrontierStore) Proxy.newProxyInstance(FrontierStore.class.getClassLoader(),
            new Class<?>[] {FrontierStore.class}, (proxy, method, args) -> {
                storeCalls.incrementAndGet();
                throw new IllegalStateException("DynamoDB is unreachable");
            });
    private final FetchQueue queue = jobs -> {};
    private final WakeHandler handler = new WakeHandler(
            new Frontier(down, queue, Clock.systemUTC(), Frontier.Settings.DEFAULTS));

    @Test
    void handleRequest_whenTheReleaseFails_expectTheWakeUpBackUntilItsLastDelivery() {
        SQSEvent event = event(List.of(
                message("first", SqsWakeQueue.body(new SiteKey("a.example")), 1),
                message("second", SqsWakeQueue.body(new SiteKey("b.example")), WakeHandler.ATTEMPTS - 1),
                message("last", SqsWakeQueue.body(new SiteKey("c.example")), WakeHandler.ATTEMPTS),
                message("again", SqsWakeQueue.body(new SiteKey("a.example")), 1),
                message("garbage", "{\"site\":", 1)));

        SQSBatchResponse response = handler.handleRequest(event, null);

        assertEquals(List.of("first", "second"), response.getBatchItemFailures().stream()
                .map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList(),
                "a failed release comes back before its last delivery; a site named again in the batch waits for"
                        + " its first message's return; garbage never comes back");
        assertEquals(3, storeCalls.get(), "one release tried per site");
    }

    private static SQSEvent.SQSMessage message(String id, String body, int delivery) {
        SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
        message.setMessageId(id);
        message.setBody(body);
        message.setAttributes(Map.of("ApproximateReceiveCount", Integer.toString(delivery)));
        return message;
    }

    private static SQSEvent event(List<SQSEvent.SQSMessage> messages) {
        SQSEvent event = new SQSEvent();
        event.setRecords(new ArrayList<>(messages));
        return event;
    }
}
