package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void handleRequest_whenListingSampleBatchUrls_expectPagesFilteredByStateWithCursor() throws Exception {
        String batchId = "api-list";
        List<NormalizedUrl> items = java.util.stream.IntStream.range(0, 5)
                .mapToObj(i -> NormalizedUrl.parse("https://example.com/list/" + i)).toList();
        batches.createBatch(new BatchHeader(batchId, items.size(), 0, List.of(), 0, "http", Instant.now()));
        batches.addItems(batchId, items, Instant.now());
        batches.finishItem(batchId, items.get(0).urlHash(), ItemState.FAILED, "http 500", Instant.now());
        batches.finishItem(batchId, items.get(1).urlHash(), ItemState.FAILED, "http 404", Instant.now());
        ObjectNode event = Events.load("api-get-batch-urls.json");
        event.put("rawPath", "/batches/" + batchId + "/urls");

        JsonNode failed = ok(event);
        ((ObjectNode) event.get("queryStringParameters")).remove("state");
        ((ObjectNode) event.get("queryStringParameters")).put("limit", "3");
        JsonNode firstPage = ok(event);
        java.util.Set<String> seen = new java.util.HashSet<>();
        JsonNode page = firstPage;
        while (true) {
            page.get("items").forEach(i -> assertTrue(seen.add(i.get("url").asText()), "listed twice: " + i));
            if (page.get("cursor").isNull()) {
                break;
            }
            ((ObjectNode) event.get("queryStringParameters")).put("cursor", page.get("cursor").asText());
            page = ok(event);
        }

        assertEquals(2, failed.get("items").size());
        assertTrue(failed.findValuesAsText("state").stream().allMatch("failed"::equals));
        assertEquals(java.util.Set.of("http 500", "http 404"), java.util.Set.copyOf(failed.findValuesAsText("detail")));
        assertTrue(firstPage.get("items").size() <= 3);
        assertEquals(items.stream().map(NormalizedUrl::value).collect(java.util.stream.Collectors.toSet()), seen);
    }

    @Test
    void handleRequest_whenListingWithBadParameters_expect400Or404() throws Exception {
        ObjectNode event = Events.load("api-get-batch-urls.json");
        String batchId = "api-list-bad";
        event.put("rawPath", "/batches/" + batchId + "/urls");
        batches.createBatch(new BatchHeader(batchId, 0, 0, List.of(), 0, "http", Instant.now()));
        ObjectNode query = (ObjectNode) event.get("queryStringParameters");

        query.put("state", "sleeping");
        assertEquals("unknown item state: sleeping", error(event, 400));
        query.put("state", "failed").put("cursor", "garbage");
        assertEquals("invalid cursor: garbage", error(event, 400));
        query.remove("cursor");
        query.put("limit", "0");
        assertEquals("limit must be between 1 and 1000, was 0", error(event, 400));
        event.put("rawPath", "/batches/nope/urls");
        query.put("limit", "10");
        assertEquals("no batch nope", error(event, 404));
    }

    @Test
    void handleRequest_whenDeletingSampleBatch_expectCancelledOnceAnd409WhenComplete() throws Exception {
        ObjectNode event = Events.load("api-delete-batch.json");
        String open = "api-cancel-open";
        String complete = "api-cancel-complete";
        var url = NormalizedUrl.parse("https://example.com/cancel");
        batches.createBatch(new BatchHeader(open, 1, 0, List.of(), 0, "http", Instant.now()));
        batches.addItems(open, List.of(url), Instant.now());
        batches.createBatch(new BatchHeader(complete, 1, 0, List.of(), 0, "http", Instant.now()));
        batches.addItems(complete, List.of(url), Instant.now());
        batches.finishItem(complete, url.urlHash(), ItemState.FETCHED, null, Instant.now());

        event.put("rawPath", "/batches/" + open);
        JsonNode first = call(event);
        JsonNode second = call(event);
        event.put("rawPath", "/batches/" + complete);
        JsonNode done = call(event);
        event.put("rawPath", "/batches/unknown-batch");
        JsonNode unknown = call(event);

        assertEquals(202, first.get("statusCode").asInt());
        String cancelledAt = Events.JSON.readTree(first.get("body").asText()).get("cancelledAt").asText();
        assertEquals(cancelledAt, Events.JSON.readTree(second.get("body").asText()).get("cancelledAt").asText());
        assertEquals(409, done.get("statusCode").asInt());
        assertEquals(404, unknown.get("statusCode").asInt());
    }

    private static String error(ObjectNode event, int status) throws Exception {
        JsonNode response = call(event);
        assertEquals(status, response.get("statusCode").asInt(), response.toString());
        return Events.JSON.readTree(response.get("body").asText()).get("error").asText();
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
