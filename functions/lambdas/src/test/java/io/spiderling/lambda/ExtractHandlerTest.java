package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
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

    /**
     * Records with bad keys, and records missing their s3 or object part, around one good record: the bad ones are
     * skipped (S3 would redeliver the whole event, and no retry can mend a key), the good one is extracted.
     */
    @Test
    void handleRequest_whenBadRecordsSurroundAGoodOne_expectOnlyTheGoodOneExtracted() throws Exception {
        String url = "https://example.com/among-bad-keys";
        ObjectNode good = (ObjectNode) eventFor(store(url, "<title>Among bad keys</title>", Instant.now()))
                .get("Records").get(0);
        ArrayNode records = Events.JSON.createArrayNode();
        for (String key : badKeys()) {
            ObjectNode record = good.deepCopy();
            ((ObjectNode) record.at("/s3/object")).put("key", key);
            records.add(record);
        }
        records.add(good.deepCopy().putNull("s3"));
        records.add(good.deepCopy().set("s3", ((ObjectNode) good.get("s3").deepCopy()).putNull("object")));
        records.add(good.deepCopy().set("s3", ((ObjectNode) good.get("s3").deepCopy()).set("object",
                ((ObjectNode) good.at("/s3/object").deepCopy()).putNull("key"))));
        records.insert(records.size() / 2, good);
        ObjectNode event = Events.load("s3-content-created.json");
        event.set("Records", records);

        assertEquals("1", Events.invoke(event).statusCode(200).extract().asString());
        assertEquals("Among bad keys", urls.find(NormalizedUrl.parse(url).urlHash()).orElseThrow().extraction()
                .orElseThrow().page().title());
    }

    private static List<String> badKeys() throws IOException {
        try (var in = ExtractHandlerTest.class.getResourceAsStream("/hostile/s3-keys.csv")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(1)
                    .filter(line -> !line.startsWith("#")).toList();
        }
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
