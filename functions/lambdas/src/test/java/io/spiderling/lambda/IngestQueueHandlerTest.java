package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.lambda.ingest.IngestQueueHandler;
import jakarta.inject.Inject;
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
        assertEquals("sqs", good.header().source());
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

    private BatchStatus status(JsonNode record) {
        String batchId = IngestQueueHandler.batchIdFor(record.get("messageId").asText());
        return pipeline.queries().batch(batchId).orElseThrow(() -> new AssertionError("no batch " + batchId));
    }
}
