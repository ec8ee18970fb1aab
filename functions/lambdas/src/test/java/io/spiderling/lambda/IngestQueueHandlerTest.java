package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.lambda.ingest.IngestQueueHandler;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(HandlerProfiles.IngestQueue.class)
@QuarkusTestResource(TestStack.class)
class IngestQueueHandlerTest {

    @Inject
    Pipeline pipeline;

    @Test
    void handleRequest_whenSampleMessages_expectOneBatchPerMessageAndTheBadOneRecordedNotRetried() throws Exception {
        ObjectNode event = Events.load("sqs-ingest.json");

        JsonNode response = Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());

        assertEquals(0, response.get("batchItemFailures").size(), response.toString());
        BatchStatus good = status(event.get("Records").get(0));
        assertEquals(1, good.header().total(), "the two spellings are one page");
        assertEquals(1, good.header().duplicates());
        assertEquals("sqs", good.header().source().wireName());
        BatchStatus bad = status(event.get("Records").get(1));
        assertEquals(0, bad.header().total());
        assertEquals(1, bad.header().rejectedCount());
        assertEquals("not a url", bad.header().rejected().get(0).url());
        assertTrue(bad.done() && bad.completedAt().isPresent(), "a refused message ends at once");
    }

    @Test
    void handleRequest_whenMessageRedelivered_expectSameBatchUnchanged() throws Exception {
        ObjectNode event = Events.load("sqs-ingest.json");
        ((ObjectNode) event.get("Records").get(0)).put("messageId", "redelivered-1");

        Events.invoke(event).statusCode(200);
        Events.invoke(event).statusCode(200);

        BatchStatus status = status(event.get("Records").get(0));
        assertEquals(1, status.header().total());
    }

    /**
     * Garbage among good messages: nothing is retried (retrying cannot make garbage readable), the good message
     * becomes its batch, and every bad one is recorded as a refused batch its sender can look up, not lost.
     */
    @Test
    void handleRequest_whenGarbageAmongGoodMessages_expectNoneRetriedTheGoodOneBatchedAndEachBadOneRecorded()
            throws Exception {
        ObjectNode event = Events.load("sqs-ingest.json");
        ObjectNode template = (ObjectNode) event.get("Records").get(0);
        ArrayNode records = Events.JSON.createArrayNode();
        List<String> bodies = HostileJson.garbageMessages(40, 13);
        for (int i = 0; i < bodies.size(); i++) {
            ObjectNode record = template.deepCopy().put("messageId", "garbage-" + i);
            if (bodies.get(i) == null) {
                record.putNull("body");
            } else {
                record.put("body", bodies.get(i));
            }
            records.add(record);
        }
        records.insert(bodies.size() / 2, template.deepCopy().put("messageId", "garbage-good")
                .put("body", "https://example.com/among-garbage"));
        event.set("Records", records);

        JsonNode response = Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());

        assertEquals(0, response.get("batchItemFailures").size(), response.toString());
        assertEquals(1, status(records.get(bodies.size() / 2)).header().total());
        for (JsonNode record : records) {
            BatchStatus status = status(record);
            assertTrue(status.header().total() + status.header().rejectedCount() > 0, record.toString());
        }
    }

    @Test
    void handleRequest_whenTheSqsClientIsOverItsQuota_expectTheBatchRefusedWithTheReasonAndNotRetried()
            throws Exception {
        var quotas = new io.spiderling.aws.DynamoDbQuotaStore(TestStack.aws().dynamoDb(),
                TestStack.resources().batchesTable());
        var day = io.spiderling.core.quota.Quota.day(java.time.Instant.now());
        quotas.setLimit(IngestQueueHandler.CLIENT, quotas.used(IngestQueueHandler.CLIENT, day) + 1);
        try {
            ObjectNode event = Events.load("sqs-ingest.json");
            ObjectNode record = ((ObjectNode) event.get("Records").get(0)).put("messageId", "over-quota-1")
                    .put("body", "{\"urls\":[\"https://example.com/q1\",\"https://example.com/q2\"]}");
            ArrayNode records = Events.JSON.createArrayNode().add(record);
            event.set("Records", records);

            JsonNode response = Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());

            assertEquals(0, response.get("batchItemFailures").size(), "not retried: " + response);
            BatchStatus refused = status(record);
            assertEquals(0, refused.header().total());
            assertTrue(refused.done(), "refused batches end at once");
            String reason = refused.header().rejected().get(0).reason();
            assertTrue(reason.startsWith("quota exceeded: 2 URLs asked, 1 of ") && reason.contains("resets at "),
                    reason);
        } finally {
            quotas.setLimit(IngestQueueHandler.CLIENT, 0);
        }
    }

    private BatchStatus status(JsonNode record) {
        String batchId = IngestQueueHandler.batchIdFor(record.get("messageId").asText());
        return pipeline.queries().batch(batchId).orElseThrow(() -> new AssertionError("no batch " + batchId));
    }
}
