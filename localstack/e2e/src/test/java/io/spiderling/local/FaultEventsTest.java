package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.FaultInjector.Call;
import io.spiderling.testkit.FaultInjector.Fault;
import io.spiderling.testkit.FaultInjector.Rule;
import io.spiderling.testkit.FaultInjector.When;
import io.spiderling.testkit.StackResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Scenario: the listeners' events queue refuses a publish of each event kind once, and once takes one but loses the
 * reply. Every event must still arrive, at least once, under its stable id: nothing the pipeline recorded is kept
 * from its listeners by one failed send.
 */
@Isolated
@ExtendWith(EmbeddedAwsExtension.class)
class FaultEventsTest {

    @Test
    void batch_whenAPublishOfEachEventKindFails_expectEveryEventToArrive(EmbeddedAws aws, @TempDir Path dir)
            throws Exception {
        StackResources r = FaultChecks.resources(aws, "events", FaultChecks.VISIBILITY);
        FaultInjector faults = FaultInjector.create()
                .add(new Rule("fetched refused", publishing(r, "url.fetched"), When.matches(1, 4),
                        new Fault.Refused(FaultInjector::sqsInternalError)))
                .add(new Rule("fetched reply lost", publishing(r, "url.fetched"), When.matches(6),
                        new Fault.ReplyLost(FaultInjector::sqsInternalError)))
                .add(new Rule("completed refused", publishing(r, "batch.completed"), When.matches(1),
                        new Fault.Refused(FaultInjector::sqsInternalError)));
        HeardEvents heard = new HeardEvents();
        try (FaultChecks.Farm farm = FaultChecks.farm(2, 4, dir);
                LocalSpiderling local = FaultChecks.start(aws, r, farm, faults, UnaryOperator.identity())) {
            local.listen(heard);
            String batchId = FaultChecks.submit(local, faults, farm.urls());
            JsonNode status = FaultChecks.awaitDone(local, batchId, Duration.ofSeconds(90));
            Set<String> fetched = farm.expected().entrySet().stream().filter(e -> e.getValue().equals("fetched"))
                    .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));

            boolean allHeard = HeardEvents.await(() -> heard.urls("url.fetched").equals(fetched)
                    && completed(heard, batchId), Duration.ofSeconds(60));

            faults.disarm();
            faults.requireFired();
            assertTrue(allHeard, "heard " + heard + "; injected " + faults.injected());
            Map<String, String> idByUrl = new TreeMap<>();
            for (JsonNode event : heard.of("url.fetched")) {
                String before = idByUrl.putIfAbsent(event.get("url").asText(), event.get("eventId").asText());
                assertTrue(before == null || before.equals(event.get("eventId").asText()),
                        "one id per fetch, however often it is delivered: " + event);
                assertEquals("fetched", event.get("reason").asText(), event.toString());
            }
            assertEquals(fetched.size(), Set.copyOf(idByUrl.values()).size(), "distinct ids: " + idByUrl);
            System.out.println("[faults] events: " + heard.all().size() + " delivered for " + fetched.size()
                    + " fetches and 1 completion; injected " + faults.injected() + "; status "
                    + status.get("counts"));
        }
    }

    /** A send to the events queue of an event of {@code type}. */
    private static Call publishing(StackResources r, String type) {
        return Call.sqs("SendMessage").onQueue(r.eventsQueueUrl()).and(request -> request
                instanceof SendMessageRequest send && send.messageBody().contains("\"type\":\"" + type + "\""),
                " of " + type);
    }

    private static boolean completed(HeardEvents heard, String batchId) {
        return heard.of("batch.completed").stream().anyMatch(e -> e.get("batchId").asText().equals(batchId));
    }
}
