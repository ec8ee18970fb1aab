package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.aws.S3BlobStore;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.content.ObjectMetadata;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(HandlerProfiles.Extract.class)
@QuarkusTestResource(TestStack.class)
class ExtractHandlerTest {

    private final S3BlobStore blobs = new S3BlobStore(TestStack.aws().s3(), TestStack.aws().s3Presigner(),
            TestStack.resources().bucket());
    private final DynamoDbUrlStore urls =
            new DynamoDbUrlStore(TestStack.aws().dynamoDb(), TestStack.resources().urlsTable());

    @Test
    void handleRequest_whenEventArrivesBeforeMetadataRowAndTwice_expectTitleStoredOnce() {
        String url = "https://example.com/";
        ObjectNode event = eventFor(store(url, "<html><head><title>Example Domain</title>"
                + "<meta name=description content=\"An example.\"></head></html>", Instant.parse("2026-11-22T05:00:00Z")));

        assertEquals("1", Events.invoke(event).statusCode(200).extract().asString());
        assertEquals("1", Events.invoke(event).statusCode(200).extract().asString(), "a duplicate event rewrites the same");

        var extraction = urls.find(NormalizedUrl.parse(url).urlHash()).orElseThrow().extraction().orElseThrow();
        assertEquals("Example Domain", extraction.page().title());
        assertEquals("An example.", extraction.page().description());
        assertEquals(url, extraction.url());
    }

    @Test
    void handleRequest_whenEventsArriveReversed_expectTheNewestMetadataKept() {
        String url = "https://example.com/reversed";
        String older = store(url, "<title>Older</title>", Instant.parse("2026-11-22T05:00:00Z"));
        String newer = store(url, "<title>Newer</title>", Instant.parse("2026-11-22T06:00:00Z"));

        assertEquals("1", Events.invoke(eventFor(newer)).statusCode(200).extract().asString());
        assertEquals("0", Events.invoke(eventFor(older)).statusCode(200).extract().asString());

        assertEquals("Newer", urls.find(NormalizedUrl.parse(url).urlHash()).orElseThrow().extraction().orElseThrow()
                .page().title());
    }

    @Test
    void handleRequest_whenKeyIsNotContent_expectNothingWritten() {
        ObjectNode event = Events.load("s3-content-created.json");
        ((ObjectNode) event.at("/Records/0/s3/object")).put("key", "elsewhere/file.html");

        assertEquals("0", Events.invoke(event).statusCode(200).extract().asString());
    }

    /** The sample event, for the object at {@code key}. */
    private static ObjectNode eventFor(String key) {
        ObjectNode event = Events.load("s3-content-created.json");
        ((ObjectNode) event.at("/Records/0/s3/object")).put("key", key);
        return event;
    }

    /** Stores a body as the fetch stage does, under its content key, and returns the key. */
    private String store(String url, String html, Instant fetchedAt) {
        byte[] body = html.getBytes(StandardCharsets.UTF_8);
        String sha = Hashing.sha256Hex(body);
        String key = BucketKeys.content(sha);
        blobs.put(key, body, "text/html; charset=utf-8", Map.of(
                ObjectMetadata.URL, url,
                ObjectMetadata.URL_HASH, NormalizedUrl.parse(url).urlHash(),
                ObjectMetadata.FETCHED_AT, fetchedAt.toString(),
                ObjectMetadata.CONTENT_SHA256, sha));
        return key;
    }
}
