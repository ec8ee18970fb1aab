package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.pipeline.ingest.Ingest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
@TestProfile(HandlerProfiles.Ingest.class)
@QuarkusTestResource(TestStack.class)
class IngestHttpHandlerTest {

    @Inject
    Pipeline pipeline;

    @Test
    void handleRequest_whenSampleBatch_expectAcceptedWithDuplicatesAndRejectionsAndStoredManifest() throws Exception {
        JsonNode response = call(Events.load("api-post-batches.json"));

        assertEquals(202, response.get("statusCode").asInt());
        JsonNode body = Events.JSON.readTree(response.get("body").asText());
        assertEquals(3, body.get("accepted").asInt());
        assertEquals(1, body.get("duplicates").asInt());
        assertEquals("ftp://example.net/file", body.get("rejected").get(0).get("url").asText());
        assertEquals("unsupported scheme: ftp", body.get("rejected").get(0).get("reason").asText());
        String batchId = body.get("batchId").asText();
        assertEquals("/batches/" + batchId, body.get("status").asText());

        var status = pipeline.queries().batch(batchId).orElseThrow();
        assertEquals(3, status.header().total());
        assertEquals(3, status.queued());
        assertEquals(BatchOptions.builder().callbackUrl("https://hooks.example.com/spiderling")
                .recrawlAfter(Duration.ofHours(1)).build(), status.header().options());
        var s3 = TestStack.aws().s3();
        String manifest = s3.getObjectAsBytes(b -> b.bucket(TestStack.resources().bucket())
                .key(BucketKeys.manifest(batchId))).asString(StandardCharsets.UTF_8);
        // The IDN's key and request are punycode (UTS 46); the request keeps the client's query order.
        assertEquals("https://example.com/\nhttps://example.org/b\n"
                + "https://xn--bcher-kva.example/katalog?a=1&b=2\thttps://xn--bcher-kva.example/katalog?b=2&a=1\n",
                manifest);
    }

    @Test
    void handleRequest_whenSitemapsFromRobots_expectAcceptedWithARobotsTxtItemPerSite() throws Exception {
        ObjectNode event = withBody("{\"urls\":[\"https://example.com/a\",\"https://example.com/b\","
                + "\"https://example.org/\"],\"sitemapsFromRobots\":true}");
        ((ObjectNode) event.get("headers")).put("idempotency-key", "robots-test-1");

        JsonNode response = call(event);

        assertEquals(202, response.get("statusCode").asInt(), response.toString());
        String batchId = Events.JSON.readTree(response.get("body").asText()).get("batchId").asText();
        assertEquals(3 + 2, pipeline.queries().batch(batchId).orElseThrow().header().total());
        String manifest = TestStack.aws().s3().getObjectAsBytes(b -> b.bucket(TestStack.resources().bucket())
                .key(BucketKeys.manifest(batchId))).asString(StandardCharsets.UTF_8);
        assertTrue(manifest.endsWith("robots\thttps://example.com/robots.txt\n"
                + "robots\thttps://example.org/robots.txt\n"), manifest);
    }

    @Test
    void handleRequest_whenNotifyChangesWithCallback_expectTheNoticeStoredOnTheBatch() throws Exception {
        JsonNode response = call(withoutKey("{\"urls\":[\"https://example.com/n\"],"
                + "\"callbackUrl\":\"https://hooks.example.com/spiderling\",\"notify\":[\"changes\"]}"));

        assertEquals(202, response.get("statusCode").asInt(), response.toString());
        String batchId = Events.JSON.readTree(response.get("body").asText()).get("batchId").asText();
        assertEquals(java.util.Set.of(BatchOptions.Notice.CHANGES),
                pipeline.queries().batch(batchId).orElseThrow().header().options().notices());
    }

    @Test
    void handleRequest_whenRetriedWithSameIdempotencyKey_expectSameBatch() throws Exception {
        ObjectNode event = Events.load("api-post-batches.json");
        ((ObjectNode) event.get("headers")).put("idempotency-key", "retry-test-1");

        JsonNode first = Events.JSON.readTree(call(event).get("body").asText());
        JsonNode again = Events.JSON.readTree(call(event).get("body").asText());

        assertEquals(first, again);
        assertTrue(first.get("batchId").asText().startsWith("k-"), first.toString());
        assertEquals(3, pipeline.queries().batch(first.get("batchId").asText()).orElseThrow().header().total());
    }

    @Test
    void handleRequest_whenIdempotencyKeyReusedForAnotherBody_expect422AndFirstBatchUntouched() throws Exception {
        ObjectNode event = Events.load("api-post-batches.json");
        ((ObjectNode) event.get("headers")).put("idempotency-key", "reuse-test-1");
        String batchId = Events.JSON.readTree(call(event).get("body").asText()).get("batchId").asText();
        event.put("body", "{\"urls\":[\"https://example.com/something-else\"]}");

        JsonNode response = call(event);

        assertEquals(422, response.get("statusCode").asInt());
        assertEquals("Idempotency-Key was already used for a different request",
                Events.JSON.readTree(response.get("body").asText()).get("error").asText());
        assertEquals(3, pipeline.queries().batch(batchId).orElseThrow().header().total());
    }

    @Test
    void handleRequest_whenIdempotencyKeyTooLong_expect400() throws Exception {
        ObjectNode event = Events.load("api-post-batches.json");
        ((ObjectNode) event.get("headers")).put("idempotency-key", "k".repeat(256));

        assertEquals("Idempotency-Key must be 1 to 255 printable ASCII characters", error(event).get("error").asText());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `{"urls":["https://example.com/"],"recrawlAfter":"1h"}`       | "recrawlAfter" must be an ISO-8601 duration such as PT1H, was "1h"
            `{"urls":["https://example.com/"],"recrawlAfter":"-PT1H"}`    | recrawlAfter must be between PT0S and PT8760H, was PT-1H
            `{"urls":["https://example.com/"],"callbackUrl":5}`           | "callbackUrl" must be a string
            `{"urls":["https://example.com/"],"callbackUrl":"ftp://x/y"}` | callbackUrl: unsupported scheme: ftp
            `{"urls":["https://example.com/"],"callbackURL":"https://x/"}` | unknown field "callbackURL"; expected urls, sitemaps, sitemapsFromRobots, callbackUrl, recrawlAfter, progressEvery, capture, markdown, notify
            `{"urls":["https://example.com/"],"notify":["changes"]}`      | notify needs a callbackUrl to post to
            `{"urls":["https://example.com/"],"callbackUrl":"https://hooks.example.com/h","notify":["all"]}` | "notify"[0]: unknown notice "all"; expected one of: changes
            `{"urls":["https://example.com/"],"callbackUrl":"https://hooks.example.com/h","notify":"changes"}` | "notify" must be an array of: changes
            `{"urls":["https://example.com/"],"callbackUrl":"https://hooks.example.com/h","notify":[1]}` | "notify" must be an array of: changes; [0] is not a string
            `{"urls":["https://example.com/"],"callbackUrl":"https://hooks.example.com/h","notify":["changes","changes"]}` | "notify"[1]: "changes" is given twice
            `{"urls":"https://example.com/"}`                             | "urls" must be an array of strings
            `{"urls":["https://example.com/"],"capture":"yes"}`           | "capture" must be true or false
            `{"url":"https://example.com/","urls":[]}`                    | give "urls" or "url", not both
            `{"sitemaps":"https://example.com/sitemap.xml"}`              | "sitemaps" must be a non-empty array of strings
            `{"sitemaps":[]}`                                             | "sitemaps" must be a non-empty array of strings
            `{"sitemaps":[7]}`                                            | "sitemaps"[0] must be a string
            `{"sitemaps":["ftp://example.com/s.xml"]}`                   | no acceptable URL in the batch
            `{"urls":["https://example.com/"],"sitemapsFromRobots":"yes"}` | "sitemapsFromRobots" must be true or false
            `{"urls":["https://example.com/"],"sitemapsFromRobots":1}`   | "sitemapsFromRobots" must be true or false
            `{"urls":["https://example.com/"],"sitemapsFromRobots":[true]}` | "sitemapsFromRobots" must be true or false
            `{"sitemapsFromRobots":true}`                                 | missing "urls": expected {"urls":[...]}
            `[]`                                                          | expected a JSON object like {"urls":[...]}
            """)
    void handleRequest_whenFieldInvalid_expect400NamingIt(String body, String message) throws Exception {
        ObjectNode event = withBody(body);
        ((ObjectNode) event.get("headers")).remove("idempotency-key");

        assertEquals(message, error(event).get("error").asText());
    }

    @Test
    void handleRequest_whenMoreThanTenThousandUrls_expect400NamingTheLimit() throws Exception {
        String urls = java.util.stream.IntStream.range(0, 10_001)
                .mapToObj(i -> "\"https://example.com/" + i + "\"").collect(java.util.stream.Collectors.joining(","));

        assertEquals("too many urls: 10001 (at most 10000 per batch)",
                error(withBody("{\"urls\":[" + urls + "]}")).get("error").asText());
    }

    @Test
    void handleRequest_whenBodyOverFiveMebibytes_expectJson413AndNothingStored() throws Exception {
        String body = "{\"urls\":[\"https://example.com/" + "a".repeat(5 * 1024 * 1024) + "\"]}";
        ObjectNode event = withBody(body);
        long before = storedItems();

        JsonNode response = call(event);

        assertEquals(413, response.get("statusCode").asInt());
        assertTrue(Events.JSON.readTree(response.get("body").asText()).get("error").asText()
                .startsWith("body is " + body.length() + " bytes; at most 5242880 are accepted here"));
        assertEquals(before, storedItems());
    }

    @Test
    void handleRequest_whenMalformedJson_expect400NamingTheProblem() throws Exception {
        JsonNode body = error(withBody("{\"urls\": ["));
        assertTrue(body.get("error").asText().startsWith("malformed JSON"), body.toString());
    }

    @Test
    void handleRequest_whenUrlIsNotAString_expect400NamingTheIndex() throws Exception {
        JsonNode body = error(withBody("{\"urls\": [\"https://example.com/\", 7]}"));
        assertEquals("\"urls\"[1] must be a string, was number", body.get("error").asText());
    }

    @Test
    void handleRequest_whenEmptyList_expect400() throws Exception {
        assertEquals("urls must not be empty", error(withBody("{\"urls\": []}")).get("error").asText());
    }

    @Test
    void handleRequest_whenNoUrlIsValid_expect400WithEveryRejection() throws Exception {
        JsonNode body = error(withBody("{\"urls\": [\"mailto:a@example.com\", \"http://\"]}"));
        assertEquals("no acceptable URL in the batch", body.get("error").asText());
        assertEquals(2, body.get("rejected").size());
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/hostile/ingest-http-bodies.csv", numLinesToSkip = 1, delimiter = '|',
            quoteCharacter = '`')
    void handleRequest_whenBodyIsHostile_expect400NamingTheProblem(String body, String error) throws Exception {
        ObjectNode event = withoutKey(body == null ? "" : body);

        String message = error(event).get("error").asText();

        assertTrue(message.startsWith(error), message);
    }

    @Test
    void handleRequest_whenBodyIsNotUtf8_expect400MalformedJson() throws Exception {
        byte[] latin1 = "{\"urls\":[\"https://example.com/caf\u00e9\"]}".getBytes(StandardCharsets.ISO_8859_1);

        String message = error(withBase64Body(Base64.getEncoder().encodeToString(latin1))).get("error").asText();

        assertTrue(message.startsWith("malformed JSON: Invalid UTF-8"), message);
    }

    @Test
    void handleRequest_whenBodyIsNestedTenThousandDeep_expect400MalformedJson() throws Exception {
        ObjectNode event = withoutKey("{\"urls\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}");

        String message = error(event).get("error").asText();

        assertTrue(message.startsWith("malformed JSON: Document nesting depth"), message);
    }

    @Test
    void handleRequest_whenBase64FlagIsSetOnABodyThatIsNotBase64_expect400() throws Exception {
        assertEquals("body is flagged base64 but is not valid base64",
                error(withBase64Body("{\"urls\":[\"https://example.com/\"]}")).get("error").asText());
    }

    @Test
    void handleRequest_whenEventLacksBodyAndBase64Flag_expect400EmptyBody() throws Exception {
        ObjectNode event = withoutKey("");
        event.remove("body");
        event.remove("isBase64Encoded");

        assertEquals("empty body: expected {\"urls\":[...]}", error(event).get("error").asText());
    }

    @Test
    void handleRequest_whenEventLacksRequestContext_expect404NotAServerError() throws Exception {
        ObjectNode event = withoutKey("{\"urls\":[\"https://example.com/\"]}");
        event.remove("requestContext");
        event.remove("rawPath");

        JsonNode response = call(event);

        assertEquals(404, response.get("statusCode").asInt(), response.toString());
    }

    /** Seeded random documents close to a submission: each is answered with a JSON client error, never a 5xx. */
    @Test
    void handleRequest_whenBodyIsRandomHostileJson_expectAClientErrorOrAcceptedNeverAServerError() throws Exception {
        HostileJson documents = new HostileJson(13);
        for (int i = 0; i < 150; i++) {
            byte[] body = documents.next();
            ObjectNode event = withBase64Body(Base64.getEncoder().encodeToString(body));

            JsonNode response = call(event);

            int status = response.get("statusCode").asInt();
            String shown = new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
            assertTrue(status == 202 || status == 400 || status == 413, status + " for " + shown);
            assertTrue(Events.JSON.readTree(response.get("body").asText()).isObject(), shown);
        }
    }

    private static ObjectNode withBase64Body(String body) {
        ObjectNode event = withoutKey(body);
        event.put("isBase64Encoded", true);
        return event;
    }

    /** A request without an Idempotency-Key, so that no two cases (nor the sample) share a batch. */
    private static ObjectNode withoutKey(String body) {
        ObjectNode event = withBody(body);
        ((ObjectNode) event.get("headers")).remove("idempotency-key");
        return event;
    }

    private static ObjectNode withBody(String body) {
        ObjectNode event = Events.load("api-post-batches.json");
        event.put("body", body);
        return event;
    }

    /** Calls with a request that must be refused, and checks that nothing was stored for it. */
    private static JsonNode error(ObjectNode event) throws Exception {
        long before = storedItems();
        JsonNode response = call(event);
        assertEquals(400, response.get("statusCode").asInt(), response.toString());
        assertEquals("application/json", response.get("headers").get("content-type").asText());
        assertEquals(before, storedItems(), "a refused request stores no manifest and no batch");
        return Events.JSON.readTree(response.get("body").asText());
    }

    /** Manifests in the bucket plus items in the batch table. */
    private static long storedItems() {
        var aws = TestStack.aws();
        var resources = TestStack.resources();
        long manifests = aws.s3().listObjectsV2Paginator(b -> b.bucket(resources.bucket()).prefix("manifests/"))
                .contents().stream().count();
        long batchItems = aws.dynamoDb().scanPaginator(b -> b.tableName(resources.batchesTable())
                .select(software.amazon.awssdk.services.dynamodb.model.Select.COUNT))
                .stream().mapToLong(page -> page.count()).sum();
        return manifests + batchItems;
    }

    @Test
    void handleRequest_whenUploadRequested_expect201WithAPresignedPutThatStoresTheManifest() throws Exception {
        JsonNode response = call(Events.load("api-post-batches-uploads.json"));

        assertEquals(201, response.get("statusCode").asInt(), response.toString());
        JsonNode body = Events.JSON.readTree(response.get("body").asText());
        String batchId = body.get("batchId").asText();
        assertEquals("k-8a185fb71966494a15832f1071653d3b", batchId, "the id the sample events use");
        assertEquals("PUT", body.get("method").asText());
        assertEquals("jsonl", body.get("format").asText());
        assertEquals("application/x-ndjson", body.get("headers").get("Content-Type").asText());

        byte[] manifest = "\"https://example.com/\"\n".getBytes(StandardCharsets.UTF_8);
        var put = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(body.get("uploadUrl").asText()))
                        .header("Content-Type", "application/x-ndjson")
                        .PUT(java.net.http.HttpRequest.BodyPublishers.ofByteArray(manifest)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, put.statusCode(), put.body());
        assertEquals("\"https://example.com/\"\n", TestStack.aws().s3().getObjectAsBytes(b -> b
                .bucket(TestStack.resources().bucket()).key("uploads/" + batchId + ".jsonl"))
                .asString(StandardCharsets.UTF_8));

        var status = pipeline.queries().batch(batchId).orElseThrow();
        assertEquals(Optional.of(io.spiderling.core.batch.UploadFormat.JSONL), status.header().upload());
        assertEquals(Optional.of(Duration.ofHours(6)), status.header().options().recrawlAfter());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"format\":\"csv\"}|\"format\" must be \"text\" or \"jsonl\", was \"csv\"",
        "{\"urls\":[]}|unknown field \"urls\"; expected format, callbackUrl, recrawlAfter, progressEvery, capture, markdown, notify",
        "{\"notify\":[\"changes\"]}|notify needs a callbackUrl to post to",
        "{\"callbackUrl\":\"https://hooks.example.com/h\",\"notify\":[\"pages\"]}|\"notify\"[0]: unknown notice \"pages\"; expected one of: changes",
        "[1]|expected a JSON object like {\"format\":\"jsonl\"}",
        "{\"recrawlAfter\":\"soon\"}|\"recrawlAfter\" must be an ISO-8601 duration such as PT1H, was \"soon\"",
        "{\"callbackUrl\":\"ftp://hooks.example/\"}|callbackUrl: unsupported scheme: ftp",
        "{\"sitemapsFromRobots\":true}|\"sitemapsFromRobots\" is for POST /batches: an uploaded manifest's batch"
                + " reads no sitemaps",
    })
    void handleRequest_whenUploadRequestInvalid_expect400NamingTheProblemAndNoBatch(String body, String problem)
            throws Exception {
        ObjectNode event = Events.load("api-post-batches-uploads.json");
        event.put("body", body);
        ((ObjectNode) event.get("headers")).put("idempotency-key", "bad-upload-" + body.hashCode());

        JsonNode response = call(event);

        assertEquals(400, response.get("statusCode").asInt());
        assertEquals(problem, Events.JSON.readTree(response.get("body").asText()).get("error").asText());
        assertTrue(pipeline.queries().batch("k-" + io.spiderling.core.content.Hashing.sha256Hex("bad-upload-" + body.hashCode()).substring(0, 32))
                .isEmpty(), "nothing stored");
    }

    private static JsonNode call(ObjectNode event) throws Exception {
        return Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
    }
}
