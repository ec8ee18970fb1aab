package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.port.BatchItemStore.Added;
import io.spiderling.core.port.BatchStoreContracts;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.StackResources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The contracts of the three ports the adapter implements (nested, on this class's table), and what is its own: the
 * conditions it sends, the item layout, and its retries on transaction conflicts. Tests share one table per class,
 * so each test works on its own batch id (the test's name).
 */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbBatchStoreTest extends BatchStoreContracts {

    private static final Instant CREATED = Instant.parse("2025-03-01T10:00:00.123Z");
    private static final Instant LATER = CREATED.plusSeconds(30);

    private final EmbeddedAws aws;
    private final DynamoDbClient dynamo;
    private final String table;
    private final DynamoDbBatchStore store;
    private String batchId;

    DynamoDbBatchStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.dynamo = aws.dynamoDb();
        this.table = res.batchesTable();
        this.store = new DynamoDbBatchStore(dynamo, table);
    }

    @BeforeEach
    void nameBatchAfterTest(TestInfo test) {
        batchId = test.getTestMethod().orElseThrow().getName();
    }

    @Override
    protected BatchStores createStores() {
        return BatchStores.of(new DynamoDbBatchStore(dynamo, table), new DynamoDbBatchOriginStore(dynamo, table));
    }

    @Test
    void conditions_whenStoreWrites_areTheOnesItSends() {
        assertEquals("#state = :queued", DynamoDbBatchStore.ITEM_TRANSITION_CONDITION);
        assertEquals("attribute_exists(pk) AND attribute_not_exists(#at)", DynamoDbBatchStore.SET_ONCE_CONDITION);
        assertEquals("attribute_exists(pk) AND attribute_not_exists(chunks)",
                DynamoDbBatchStore.BEGIN_PLANNING_CONDITION);
        assertEquals("attribute_exists(pk) AND (attribute_not_exists(writer) OR writer <> :writer)",
                DynamoDbBatchStore.NOTICE_FAILED_CONDITION);
    }

    /**
     * A mark recorded once, whose update landed and whose answer was lost: the SDK's retry must find it recorded by this
     * very call. Read as recorded by another caller, a completion would never be emitted, the progress reports would
     * stop, and a new batch would be taken for a replay.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // mark,            operation
            "create-batch,       PutItem",
            "mark-completed,     UpdateItem",
            "mark-emitted,       UpdateItem",
            "mark-cancelled,     UpdateItem",
            "mark-progress-sent, UpdateItem",
    })
    void mark_whenItLandedButItsAnswerWasA500_theSdksRetryFindsItRecordedByThisCall(String mark, String operation) {
        batchId = batchId + "-" + mark;
        if (!mark.equals("create-batch")) {
            store.createBatch(header(1));
        }
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("answered 500",
                FaultInjector.Call.dynamoDb(operation), FaultInjector.When.matches(1),
                FaultInjector.dynamoDbReply(500, "InternalServerError")));
        Function<DynamoDbBatchStore, Boolean> call = switch (mark) {
            case "create-batch" -> s -> s.createBatch(header(1));
            case "mark-completed" -> s -> s.markCompleted(batchId, LATER);
            case "mark-emitted" -> s -> s.markCompletionEmitted(batchId, LATER);
            case "mark-cancelled" -> s -> s.markCancelled(batchId, LATER);
            case "mark-progress-sent" -> s -> s.markProgressSent(batchId, 1);
            default -> throw new IllegalArgumentException(mark);
        };

        boolean recorded;
        try (DynamoDbClient flaky = aws.dynamoDb(faults)) {
            recorded = call.apply(new DynamoDbBatchStore(flaky, table));
        }

        assertEquals(2, faults.matched("answered 500"), "the write landed, the SDK sent it again");
        assertTrue(recorded, "recorded by this call");
        assertFalse(call.apply(store), "and by no other");
    }

    @Test
    void addItems_whenCalledAgain_leavesTheQueuedItemsAsFirstWritten() {
        List<NormalizedUrl> urls = urls(2);
        store.createBatch(header(2));
        store.addItems(batchId, urls, CREATED);

        store.addItems(batchId, urls, LATER);

        assertEquals(Long.toString(CREATED.toEpochMilli()), item(urls.get(0)).get("createdAt").n());
    }

    @Test
    void finishItem_whenEnded_setsStateDetailAndEndTimeOnTheItem() {
        NormalizedUrl url = urls(1).getFirst();
        store.createBatch(header(1));
        store.addItems(batchId, List.of(url), CREATED);

        store.finishItem(batchId, url.urlHash(), Reason.HTTP_ERROR, "HTTP 503", LATER);

        Map<String, AttributeValue> item = item(url);
        assertEquals("failed", item.get("state").s());
        assertEquals("http-error", item.get("reason").s());
        assertEquals("HTTP 503", item.get("detail").s());
        assertEquals(Long.toString(LATER.toEpochMilli()), item.get("endedAt").n());
    }

    @Test
    void finishItem_whenTransactionConflictsTwice_retriesAndCountsOnce() {
        var conflicting = new ConflictingDynamoDb(dynamo, 2);
        var retrying = new DynamoDbBatchStore(conflicting, table);
        NormalizedUrl url = NormalizedUrl.parse("https://example.com/conflict");
        retrying.createBatch(header(1));
        store.addItems(batchId, List.of(url), CREATED);

        assertTrue(retrying.finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER).ended());

        // Two conflicts, the refusal of its shard's last queued item by the counter's condition, and the write.
        assertEquals(4, conflicting.transactions.get());
        assertEquals(Map.of(ItemState.FETCHED, 1), store.status(batchId).orElseThrow().terminalCounts());
    }

    @ParameterizedTest
    @CsvSource({"ProvisionedThroughputExceeded", "ThrottlingError"})
    void finishItem_whenTransactionThrottledTwice_retriesAndCountsOnce(String reason) {
        String batch = batchId + "-" + reason;
        var throttled = new ConflictingDynamoDb(dynamo, 2, reason);
        var retrying = new DynamoDbBatchStore(throttled, table);
        NormalizedUrl url = NormalizedUrl.parse("https://example.com/throttled");
        retrying.createBatch(header(batch, 1));
        store.addItems(batch, List.of(url), CREATED);

        assertTrue(retrying.finishItem(batch, url.urlHash(), Reason.FETCHED, null, LATER).ended());

        // Two throttles, the refusal of its shard's last queued item by the counter's condition, and the write.
        assertEquals(4, throttled.transactions.get());
        assertEquals(Map.of(ItemState.FETCHED, 1), store.status(batch).orElseThrow().terminalCounts());
    }

    @Test
    void finishItem_whenTransactionKeepsConflicting_givesUpWithTheConflictAndCountsNothing() {
        var conflicting = new ConflictingDynamoDb(dynamo, Integer.MAX_VALUE);
        var retrying = new DynamoDbBatchStore(conflicting, table);
        NormalizedUrl url = NormalizedUrl.parse("https://example.com/always-conflicts");
        retrying.createBatch(header(1));
        store.addItems(batchId, List.of(url), CREATED);

        assertThrows(TransactionCanceledException.class,
                () -> retrying.finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER));

        assertEquals(Map.of(), store.status(batchId).orElseThrow().terminalCounts());
        assertEquals(1, store.status(batchId).orElseThrow().queued());
    }

    @Test
    void addEntries_whenAManifestIsPlannedAgain_readsTheRestOnceAWriteFindsItsItems() {
        List<NormalizedUrl> urls = urls(300);
        store.createBatch(header(0));
        List<ManifestEntry> entries = IntStream.range(0, urls.size())
                .mapToObj(i -> new ManifestEntry(i, urls.get(i))).toList();
        store.addEntries(batchId, entries, CREATED);
        store.finishItem(batchId, urls.get(150).urlHash(), Reason.FETCHED, null, LATER);
        var counting = new ConflictingDynamoDb(dynamo, 0);
        List<ManifestEntry> again = new ArrayList<>(entries);
        again.add(new ManifestEntry(300, urls.get(250))); // a duplicate line
        again.add(new ManifestEntry(301, NormalizedUrl.parse("https://site-9.example/new")));

        List<Added> added = new DynamoDbBatchStore(counting, table).addEntries(batchId, again, LATER);

        for (int i = 0; i < urls.size(); i++) {
            assertEquals(i == 150 ? Added.ENDED : Added.PENDING, added.get(i), "entry " + i);
        }
        assertEquals(List.of(Added.DUPLICATE, Added.CREATED), added.subList(300, 302));
        // The first transaction refused (all of its items exist); the rest read first and write only the new item.
        assertEquals(2, counting.transactions.get());
        assertTrue(counting.batchGets.get() >= 2, "reads of the other entries: " + counting.batchGets.get());
        Map<String, AttributeValue> created = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(DynamoDbBatchStore.itemKey(batchId, again.getLast().url().urlHash()))).item();
        assertEquals("queued", created.get("state").s());
    }

    @Test
    void addItems_whenItemsWritten_spreadsOneBatchOverPartitionsByFirstHashByte() {
        List<NormalizedUrl> urls = urls(40);
        store.createBatch(header(40));

        store.addItems(batchId, urls, CREATED);

        Set<String> partitions = urls.stream().map(u -> "B#" + batchId + "#" + partition(u))
                .collect(Collectors.toSet());
        assertTrue(partitions.size() > 1, "the fixture should cover several hash digits: " + partitions);
        for (NormalizedUrl url : urls) {
            Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).consistentRead(true).key(Map.of(
                    "pk", AttributeValue.fromS("B#" + batchId + "#" + partition(url)),
                    "sk", AttributeValue.fromS("U#" + url.urlHash())))).item();
            assertEquals(url.value(), item.get("url").s(), "item of " + url + " not under its shard key");
            assertEquals("queued", item.get("state").s());
        }
        int itemsOverShards = partitions.stream().mapToInt(pk -> dynamo.query(b -> b.tableName(table)
                .consistentRead(true)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk)))).count()).sum();
        assertEquals(urls.size(), itemsOverShards);
        // The header's partition holds the header alone.
        List<Map<String, AttributeValue>> headerPartition = dynamo.query(b -> b.tableName(table)
                .consistentRead(true)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("B#" + batchId)))).items();
        assertEquals(List.of("H"), headerPartition.stream().map(i -> i.get("sk").s()).toList());
        // Each counter shard, under a key of its own, holds the queued items of its two partitions.
        Set<String> counters = urls.stream().map(u -> "B#" + batchId + "#n" + shard(u)).collect(Collectors.toSet());
        assertTrue(counters.size() < partitions.size(), "the fixture should put two partitions on one counter: "
                + partitions);
        int queued = counters.stream()
                .mapToInt(pk -> Integer.parseInt(dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                        .key(Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS("N")))).item()
                        .get("queued").n())).sum();
        assertEquals(urls.size(), queued);
    }

    /** The counter shard named as the store names it: the first byte of the hash modulo 32, in two hex digits. */
    private static String shard(NormalizedUrl url) {
        return String.format("%02x", Integer.parseInt(url.urlHash().substring(0, 2), 16) % 32);
    }

    /** The item partition named as the store names it: the first byte of the hash modulo 64, in two hex digits. */
    private static String partition(NormalizedUrl url) {
        return String.format("%02x", Integer.parseInt(url.urlHash().substring(0, 2), 16) % 64);
    }

    private BatchHeader header(int total) {
        return header(batchId, total);
    }

    private static BatchHeader header(String batchId, int total) {
        return BatchHeader.builder().batchId(batchId).total(total).duplicates(2)
                .source(BatchSource.HTTP).createdAt(CREATED).build();
    }

    /** URLs over a few hosts; their hashes start with several different hex digits. */
    private static List<NormalizedUrl> urls(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> NormalizedUrl.parse("https://site-" + (i % 3) + ".example/page/" + i))
                .toList();
    }

    private Map<String, AttributeValue> item(NormalizedUrl url) {
        return dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(DynamoDbBatchStore.itemKey(batchId, url.urlHash()))).item();
    }
}
