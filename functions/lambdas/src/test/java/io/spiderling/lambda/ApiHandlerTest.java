package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(HandlerProfiles.Api.class)
@QuarkusTestResource(TestStack.class)
class ApiHandlerTest {

    private final DynamoDbBatchStore batches =
            new DynamoDbBatchStore(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable());
    private final DynamoDbUrlStore urls =
            new DynamoDbUrlStore(TestStack.aws().dynamoDb(), TestStack.resources().urlsTable());

    @Test
    void handleRequest_whenSampleBatchHalfDone_expectCountsByStateAndNotDone() throws Exception {
        ObjectNode event = Events.load("api-get-batch.json");
        String batchId = event.at("/pathParameters/id").asText();
        var one = NormalizedUrl.parse("https://example.com/one");
        var two = NormalizedUrl.parse("https://example.com/two");
        batches.createBatch(new BatchHeader(batchId, 2, 1, List.of(new Rejection("ftp://x/", "unsupported scheme: ftp")),
                1, "http", Instant.parse("2026-11-22T05:30:00Z")));
        batches.addItems(batchId, List.of(one, two), Instant.now());
        batches.finishItem(batchId, one.urlHash(), ItemState.FETCHED, null, Instant.now());

        JsonNode body = ok(event);

        assertEquals(batchId, body.get("batchId").asText());
        assertEquals(2, body.get("total").asInt());
        assertFalse(body.get("done").asBoolean());
        assertEquals(1, body.at("/counts/queued").asInt());
        assertEquals(1, body.at("/counts/fetched").asInt());
        assertEquals(0, body.at("/counts/failed").asInt());
        assertEquals("unsupported scheme: ftp", body.at("/rejected/0/reason").asText());
    }

    @Test
    void handleRequest_whenSampleUrlFetched_expectItsMetadataUnderAnySpelling() throws Exception {
        ObjectNode event = Events.load("api-get-url.json");
        var url = NormalizedUrl.parse(event.at("/queryStringParameters/url").asText());
        urls.recordFetch(new FetchRecord(url.urlHash(), url.value(), ItemState.FETCHED, Optional.of(200),
                Optional.of("text/html"), 1256, false, Optional.of("content/0f/" + url.urlHash()),
                Optional.of("ab"), Optional.of(url.value()), Instant.parse("2026-11-22T05:31:00Z"), 12, 40,
                Optional.empty()));
        ((ObjectNode) event.get("queryStringParameters")).put("url", "HTTPS://EXAMPLE.com:443/#anything");

        JsonNode body = ok(event);

        assertEquals(url.value(), body.get("url").asText());
        assertEquals("fetched", body.get("state").asText());
        assertEquals(200, body.get("httpStatus").asInt());
        assertEquals("content/0f/" + url.urlHash(), body.get("contentKey").asText());
        assertEquals(40, body.at("/timings/totalMs").asInt());
    }

    @Test
    void handleRequest_whenUnknownBatchOrUrlOrNoParameter_expectJsonErrors() throws Exception {
        ObjectNode batch = Events.load("api-get-batch.json");
        batch.put("rawPath", "/batches/does-not-exist");
        assertEquals(404, call(batch).get("statusCode").asInt());

        ObjectNode url = Events.load("api-get-url.json");
        ((ObjectNode) url.get("queryStringParameters")).put("url", "https://example.com/never-fetched");
        JsonNode notFound = call(url);
        assertEquals(404, notFound.get("statusCode").asInt());
        assertEquals("not fetched yet", Events.JSON.readTree(notFound.get("body").asText()).get("error").asText());

        url.remove("queryStringParameters");
        assertEquals(400, call(url).get("statusCode").asInt());
    }

    private static JsonNode ok(ObjectNode event) throws Exception {
        JsonNode response = call(event);
        assertEquals(200, response.get("statusCode").asInt(), response.toString());
        return Events.JSON.readTree(response.get("body").asText());
    }

    private static JsonNode call(ObjectNode event) throws Exception {
        return Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
    }
}
