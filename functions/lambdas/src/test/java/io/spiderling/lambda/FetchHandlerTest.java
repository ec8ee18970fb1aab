package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.aws.DynamoDbUrlStore;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.lambda.fetch.FetchDeadLetterHandler;
import io.spiderling.lambda.fetch.FetchHandler;
import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.testkit.LocalSite;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(HandlerProfiles.Fetch.class)
@QuarkusTestResource(TestStack.class)
class FetchHandlerTest {

    @Inject
    Pipeline pipeline;

    private final LocalSite site = TestStack.sites().site(0);
    private final DynamoDbBatchStore batches =
            new DynamoDbBatchStore(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable());
    private final DynamoDbUrlStore urls =
            new DynamoDbUrlStore(TestStack.aws().dynamoDb(), TestStack.resources().urlsTable());

    @Test
    void handleRequest_whenSampleJobForLocalPage_expectBodyStoredMetadataWrittenAndBatchDone() throws Exception {
        String html = "<html><head><title>Fetched</title></head><body>hi</body></html>";
        site.page("/fetch/ok", html);
        NormalizedUrl url = NormalizedUrl.parse(site.url("/fetch/ok"));
        batch("fetch-ok", url);

        JsonNode response = invoke(record(0, "fetch-ok", url, url.siteKey().messageGroupId()));

        assertEquals(0, response.get("batchItemFailures").size(), response.toString());
        assertEquals(1, site.requestCount("/fetch/ok"));
        assertTrue(site.requests().getLast().header("user-agent").orElse("").startsWith("spiderling/"));
        byte[] stored = TestStack.aws().s3().getObjectAsBytes(b -> b.bucket(TestStack.resources().bucket())
                .key(BucketKeys.content(Hashing.sha256Hex(html.getBytes(StandardCharsets.UTF_8))))).asByteArray();
        assertArrayEquals(html.getBytes(StandardCharsets.UTF_8), stored);
        var fetch = urls.find(url.urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(ItemState.FETCHED, fetch.state());
        assertEquals(200, fetch.httpStatus().orElseThrow());
        assertEquals(html.length(), fetch.size());
        var status = pipeline.queries().batch("fetch-ok").orElseThrow();
        assertTrue(status.done());
        assertEquals(1, status.terminalCounts().get(ItemState.FETCHED));
    }

    @Test
    void handleRequest_whenSiteAnswers404_expectHandledAsFailedNotRetried() throws Exception {
        NormalizedUrl url = NormalizedUrl.parse(site.url("/fetch/missing"));
        batch("fetch-404", url);

        JsonNode response = invoke(record(0, "fetch-404", url, url.siteKey().messageGroupId()));

        assertEquals(0, response.get("batchItemFailures").size());
        var status = pipeline.queries().batch("fetch-404").orElseThrow();
        assertEquals(1, status.terminalCounts().get(ItemState.FAILED));
    }

    @Test
    void handleRequest_whenAMessageOfOneGroupFails_expectRestOfThatGroupFailedAndOtherGroupsDone() throws Exception {
        site.page("/fetch/g1-second", "<title>never</title>");
        site.page("/fetch/g2", "<title>other group</title>");
        NormalizedUrl blocked = NormalizedUrl.parse(site.url("/fetch/g1-second"));
        NormalizedUrl other = NormalizedUrl.parse(site.url("/fetch/g2"));
        batch("fetch-groups", blocked, other);
        // The handler cannot process the first message of group g1: it throws, as it would on a storage outage.
        ObjectNode poison = record(0, "fetch-groups", blocked, "g1").put("body", "{\"not\":\"a job\"}");
        ArrayNode records = Events.JSON.createArrayNode()
                .add(poison)
                .add(record(1, "fetch-groups", blocked, "g1"))
                .add(record(2, "fetch-groups", other, "g2"));
        JsonNode response = invoke(records);

        List<String> failed = response.get("batchItemFailures").findValuesAsText("itemIdentifier");
        assertEquals(List.of(records.get(0).get("messageId").asText(), records.get(1).get("messageId").asText()),
                failed);
        assertEquals(0, site.requestCount("/fetch/g1-second"), "a failed group stops: later messages are not run");
        assertEquals(1, site.requestCount("/fetch/g2"));
        var status = pipeline.queries().batch("fetch-groups").orElseThrow();
        assertEquals(1, status.queued());
        assertEquals(1, status.terminalCounts().get(ItemState.FETCHED));

        // The whole batch comes again (a crash after the fetch, before the messages were deleted): what already
        // succeeded is not fetched again, because the fetch stage checks freshness before asking the site.
        invoke(Events.JSON.createArrayNode().add(record(3, "fetch-groups", other, "g2")));
        assertEquals(1, site.requestCount("/fetch/g2"), "nothing that succeeded is fetched again");
    }

    /**
     * Unreadable jobs, each in its own group, around a good one: only they are reported, so SQS redelivers them until
     * the dead-letter queue takes them (where the body stays for inspection, and the dead-letter handler drops it
     * with a log); the good job is fetched.
     */
    @Test
    void handleRequest_whenGarbageAmongGoodJobs_expectOnlyTheGarbageReportedAndTheGoodJobFetched() throws Exception {
        site.page("/fetch/among-garbage", "<title>good</title>");
        NormalizedUrl good = NormalizedUrl.parse(site.url("/fetch/among-garbage"));
        batch("fetch-garbage", good);
        ArrayNode records = Events.JSON.createArrayNode();
        List<String> bodies = HostileJson.garbageMessages(20, 17);
        for (int i = 0; i < bodies.size(); i++) {
            ObjectNode record = record(i, "fetch-garbage", good, "garbage-" + i);
            if (bodies.get(i) == null) {
                record.putNull("body");
            } else {
                record.put("body", bodies.get(i));
            }
            records.add(record);
        }
        records.add(record(bodies.size(), "fetch-garbage", good, good.siteKey().messageGroupId()));

        JsonNode response = invoke(records);

        List<String> expected = new java.util.ArrayList<>(records.findValuesAsText("messageId"));
        expected.removeLast();
        assertEquals(expected, response.get("batchItemFailures").findValuesAsText("itemIdentifier"));
        assertEquals(1, site.requestCount("/fetch/among-garbage"));
        assertTrue(pipeline.queries().batch("fetch-garbage").orElseThrow().done());
    }

    @Inject
    FetchHandler fetchHandler;

    @Inject
    FetchDeadLetterHandler deadLetterHandler;

    @Test
    void handleRequest_whenInvocationHasLessTimeLeftThanAFetch_expectJobPostponedAndSiteNotContacted() {
        site.page("/fetch/late", "<title>late</title>");
        NormalizedUrl url = NormalizedUrl.parse(site.url("/fetch/late"));
        batch("fetch-late", url);
        SQSEvent event = sqsEvent("fetch-late", url);
        Context almostOut = (Context) java.lang.reflect.Proxy.newProxyInstance(Context.class.getClassLoader(),
                new Class<?>[] {Context.class}, (proxy, method, args) ->
                        method.getName().equals("getRemainingTimeInMillis") ? 2_000 : null);

        var response = fetchHandler.handleRequest(event, almostOut);

        assertEquals(List.of(), response.getBatchItemFailures(), "postponing is a handled outcome");
        assertEquals(0, site.requestCount("/fetch/late"));
        assertEquals(1, pipeline.queries().batch("fetch-late").orElseThrow().queued());
    }

    @Test
    void deadLetterHandler_whenSampleDeadLetteredJob_expectItemFailedDlq() {
        NormalizedUrl url = NormalizedUrl.parse(site.url("/fetch/poison"));
        batch("fetch-dlq", url);
        ObjectNode sample = (ObjectNode) Events.load("sqs-fetch-dlq.json").get("Records").get(0);
        assertTrue(sample.get("eventSourceARN").asText().endsWith("spiderling-fetch-dlq.fifo"));
        SQSEvent event = sqsEvent("fetch-dlq", url);

        var response = deadLetterHandler.handleRequest(event, null);

        assertEquals(List.of(), response.getBatchItemFailures());
        assertEquals(0, site.requestCount("/fetch/poison"));
        var items = pipeline.queries().items("fetch-dlq", "", java.util.Optional.of(ItemState.FAILED),
                java.util.Optional.empty(), 10).orElseThrow().items();
        assertEquals(java.util.Optional.of(io.spiderling.core.batch.Reason.DEAD_LETTER), items.getFirst().reason());
        assertEquals(java.util.Optional.of("the fetch message failed too many times"), items.getFirst().detail());
        assertTrue(pipeline.queries().batch("fetch-dlq").orElseThrow().done());
    }

    private static SQSEvent sqsEvent(String batchId, NormalizedUrl url) {
        SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
        message.setMessageId("msg-" + batchId);
        message.setBody(FetchJobCodec.encode(new FetchJob(batchId, url, 1)));
        message.setAttributes(java.util.Map.of("MessageGroupId", url.siteKey().messageGroupId()));
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(message));
        return event;
    }

    private void batch(String batchId, NormalizedUrl... urls) {
        batches.createBatch(BatchHeader.builder().batchId(batchId).total(urls.length)
                .source(BatchSource.HTTP).createdAt(Instant.now()).build());
        batches.addItems(batchId, List.of(urls), Instant.now());
    }

    /** The sample record with this test's job, id and group in it. */
    private static ObjectNode record(int n, String batchId, NormalizedUrl url, String group) {
        ObjectNode record = (ObjectNode) Events.load("sqs-fetch.json").get("Records").get(0);
        record.put("messageId", "msg-" + batchId + "-" + n);
        record.put("body", FetchJobCodec.encode(new FetchJob(batchId, url, 1)));
        ((ObjectNode) record.get("attributes")).put("MessageGroupId", group);
        return record;
    }

    private static JsonNode invoke(ObjectNode record) throws Exception {
        return invoke(Events.JSON.createArrayNode().add(record));
    }

    private static JsonNode invoke(ArrayNode records) throws Exception {
        ObjectNode event = Events.load("sqs-fetch.json");
        event.set("Records", records);
        return Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
    }
}
