package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.port.BatchStore;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Tests share one table per class, so each test works on its own batch id (the test's name). */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbBatchStoreTest {

    private static final Instant CREATED = Instant.parse("2025-03-01T10:00:00.123Z");
    private static final Instant LATER = CREATED.plusSeconds(30);
    private static final int THREADS = 8;

    private final DynamoDbClient dynamo;
    private final String table;
    private final DynamoDbBatchStore store;
    private String batchId;

    DynamoDbBatchStoreTest(EmbeddedAws aws, StackResources res) {
        this.dynamo = aws.dynamoDb();
        this.table = res.batchesTable();
        this.store = new DynamoDbBatchStore(dynamo, table);
    }

    @BeforeEach
    void nameBatchAfterTest(TestInfo test) {
        batchId = test.getTestMethod().orElseThrow().getName();
    }

    @Test
    void createBatch_whenCalledTwiceWithSameId_keepsTheFirstHeader() {
        BatchHeader first = header(3, List.of(new Rejection("ftp://x/", "unsupported scheme: ftp")), 1, "http");
        assertTrue(store.createBatch(first));

        assertFalse(store.createBatch(new BatchHeader(batchId, 99, 5, List.of(), 0, "sqs", LATER)));

        assertEquals(first, store.status(batchId).orElseThrow().header());
    }

    @Test
    void finishItem_whenTransactionConflictsTwice_retriesAndCountsOnce() {
        var conflicting = new ConflictingDynamoDb(dynamo, 2);
        var retrying = new DynamoDbBatchStore(conflicting, table);
        NormalizedUrl url = NormalizedUrl.parse("https://example.com/conflict");
        retrying.createBatch(header(1, List.of(), 0, "http"));
        store.addItems(batchId, List.of(url), CREATED);

        assertTrue(retrying.finishItem(batchId, url.urlHash(), ItemState.FETCHED, null, LATER));

        assertEquals(3, conflicting.transactions.get());
        assertEquals(Map.of(ItemState.FETCHED, 1), store.status(batchId).orElseThrow().terminalCounts());
    }

    @Test
    void finishItem_whenTransactionKeepsConflicting_givesUpWithTheConflictAndCountsNothing() {
        var conflicting = new ConflictingDynamoDb(dynamo, Integer.MAX_VALUE);
        var retrying = new DynamoDbBatchStore(conflicting, table);
        NormalizedUrl url = NormalizedUrl.parse("https://example.com/always-conflicts");
        retrying.createBatch(header(1, List.of(), 0, "http"));
        store.addItems(batchId, List.of(url), CREATED);

        assertThrows(software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException.class,
                () -> retrying.finishItem(batchId, url.urlHash(), ItemState.FETCHED, null, LATER));

        assertEquals(Map.of(), store.status(batchId).orElseThrow().terminalCounts());
        assertEquals(1, store.status(batchId).orElseThrow().queued());
    }

    @Test
    void createBatch_whenOptionsAndFingerprintGiven_readsThemBack() {
        BatchHeader header = new BatchHeader(batchId, 1, 0, List.of(), 0, "http", CREATED,
                new BatchOptions(Optional.of("https://hooks.example.com/done"), Optional.of(Duration.ofMinutes(90))),
                "f".repeat(64));
        store.createBatch(header);

        assertEquals(header, store.status(batchId).orElseThrow().header());
    }

    @Test
    void markCancelled_whenCalledTwice_recordsTheFirstTimeOnly() {
        store.createBatch(header(1));

        assertTrue(store.markCancelled(batchId, LATER));
        assertFalse(store.markCancelled(batchId, LATER.plusSeconds(5)));
        assertFalse(store.markCancelled("no-such-batch", LATER));

        BatchStatus status = store.status(batchId).orElseThrow();
        assertEquals(Optional.of(LATER), status.cancelledAt());
        assertEquals(Optional.empty(), status.completedAt());
    }

    @Test
    void items_whenPagedWithSmallLimit_returnsEveryItemOnceAcrossShardsAndFiltersByState() {
        List<NormalizedUrl> urls = IntStream.range(0, 40)
                .mapToObj(i -> NormalizedUrl.parse("https://example.com/page/" + i)).toList();
        store.createBatch(header(urls.size()));
        store.addItems(batchId, urls, CREATED);
        for (int i = 0; i < 10; i++) {
            store.finishItem(batchId, urls.get(i).urlHash(), ItemState.FAILED, "http 500", LATER);
        }

        List<BatchItem> all = drain(Optional.empty(), 7);
        List<BatchItem> failed = drain(Optional.of(ItemState.FAILED), 3);

        assertEquals(urls.stream().map(NormalizedUrl::value).collect(Collectors.toSet()),
                all.stream().map(BatchItem::url).collect(Collectors.toSet()));
        assertEquals(40, all.size(), "no item twice");
        assertEquals(10, failed.size());
        assertTrue(failed.stream().allMatch(i -> i.state() == ItemState.FAILED
                && i.detail().equals(Optional.of("http 500")) && i.endedAt().equals(Optional.of(LATER))));
    }

    @Test
    void items_whenCursorIsForged_throwsIllegalArgument() {
        store.createBatch(header(1));

        var e = assertThrows(IllegalArgumentException.class,
                () -> store.items(batchId, Optional.empty(), Optional.of("bm90IGEgY3Vyc29y"), 10));
        assertEquals("invalid cursor: bm90IGEgY3Vyc29y", e.getMessage());
    }

    private List<BatchItem> drain(Optional<ItemState> state, int limit) {
        List<BatchItem> all = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        for (int pages = 0; pages < 100; pages++) {
            ItemPage page = store.items(batchId, state, cursor, limit);
            assertTrue(page.items().size() <= limit);
            all.addAll(page.items());
            cursor = page.cursor();
            if (cursor.isEmpty()) {
                return all;
            }
        }
        throw new AssertionError("paging did not end");
    }

    @Test
    void status_whenBatchUnknown_returnsEmpty() {
        assertEquals(Optional.empty(), store.status(batchId));
    }

    @Test
    void status_whenNothingFinished_returnsHeaderAndEverythingQueued() {
        BatchHeader header = header(2, List.of(new Rejection("mailto:a@b", "unsupported scheme: mailto")), 4, "sqs");
        store.createBatch(header);

        BatchStatus status = store.status(batchId).orElseThrow();

        assertEquals(new BatchStatus(header, Map.of(), Optional.empty()), status);
        assertEquals(2, status.queued());
        assertFalse(status.done());
    }

    /** BatchPlanner produces {@code Rejection(null, "missing URL")} for a JSON null among the URLs. */
    @Test
    void createBatch_whenRejectionHasNoUrl_storesHeaderAndReadsItBack() {
        BatchHeader header = header(1, List.of(new Rejection(null, "missing url")), 1, "http");

        store.createBatch(header);

        assertEquals(header, store.status(batchId).orElseThrow().header());
    }

    @Test
    void addItems_whenFirstCall_returnsEveryUrl() {
        List<NormalizedUrl> urls = urls(5);

        assertEquals(urls, store.addItems(batchId, urls, CREATED));
    }

    @Test
    void addItems_whenCalledAgainAfterOneFinished_returnsOnlyTheStillQueued() {
        List<NormalizedUrl> urls = urls(4);
        store.createBatch(header(4));
        store.addItems(batchId, urls, CREATED);
        assertTrue(store.finishItem(batchId, urls.get(1).urlHash(), ItemState.FETCHED, null, LATER));

        List<NormalizedUrl> pending = store.addItems(batchId, urls, LATER);

        assertEquals(List.of(urls.get(0), urls.get(2), urls.get(3)), pending);
        assertEquals(ItemState.FETCHED.wireName(), item(urls.get(1)).get("state").s());
        // The redelivery did not reset the queued items either.
        assertEquals(Long.toString(CREATED.toEpochMilli()), item(urls.get(0)).get("createdAt").n());
    }

    @Test
    void addItems_whenItemsWritten_spreadsOneBatchOverPartitionsByFirstHashDigit() {
        List<NormalizedUrl> urls = urls(40);
        store.createBatch(header(40));

        store.addItems(batchId, urls, CREATED);

        Set<String> partitions = urls.stream().map(u -> "B#" + batchId + "#" + u.urlHash().charAt(0))
                .collect(Collectors.toSet());
        assertTrue(partitions.size() > 1, "the fixture should cover several hash digits: " + partitions);
        for (NormalizedUrl url : urls) {
            Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).consistentRead(true).key(Map.of(
                    "pk", AttributeValue.fromS("B#" + batchId + "#" + url.urlHash().charAt(0)),
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
    }

    @Test
    void finishItem_whenFirstCall_returnsTrueAndCountsIt() {
        NormalizedUrl url = urls(1).getFirst();
        store.createBatch(header(1));
        store.addItems(batchId, List.of(url), CREATED);

        assertTrue(store.finishItem(batchId, url.urlHash(), ItemState.FAILED, "HTTP 503", LATER));

        assertEquals(Map.of(ItemState.FAILED, 1), store.status(batchId).orElseThrow().terminalCounts());
        Map<String, AttributeValue> item = item(url);
        assertEquals("failed", item.get("state").s());
        assertEquals("HTTP 503", item.get("detail").s());
        assertEquals(Long.toString(LATER.toEpochMilli()), item.get("endedAt").n());
    }

    @Test
    void finishItem_whenDuplicateWithSameOrOtherState_returnsFalseAndCountsNothing() {
        assertEquals("#state = :queued", DynamoDbBatchStore.ITEM_TRANSITION_CONDITION);
        NormalizedUrl url = urls(1).getFirst();
        store.createBatch(header(1));
        store.addItems(batchId, List.of(url), CREATED);
        assertTrue(store.finishItem(batchId, url.urlHash(), ItemState.FETCHED, null, LATER));

        boolean same = store.finishItem(batchId, url.urlHash(), ItemState.FETCHED, null, LATER.plusSeconds(1));
        boolean other = store.finishItem(batchId, url.urlHash(), ItemState.FAILED, "late", LATER.plusSeconds(2));

        assertFalse(same);
        assertFalse(other);
        assertEquals(Map.of(ItemState.FETCHED, 1), store.status(batchId).orElseThrow().terminalCounts());
        Map<String, AttributeValue> item = item(url);
        assertEquals("fetched", item.get("state").s());
        assertFalse(item.containsKey("detail"));
        assertEquals(Long.toString(LATER.toEpochMilli()), item.get("endedAt").n());
    }

    @Test
    void finishItem_whenBatchHasNoHeader_throwsIllegalStateAndLeavesItemQueued() {
        NormalizedUrl url = urls(1).getFirst();
        store.addItems(batchId, List.of(url), CREATED);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> store.finishItem(batchId, url.urlHash(), ItemState.FETCHED, null, LATER));

        assertTrue(e.getMessage().contains(batchId), e.getMessage());
        assertEquals("queued", item(url).get("state").s());
        assertEquals(Optional.empty(), store.status(batchId));
    }

    @Test
    void status_whenItemsFinished_countsByStateAndDerivesQueuedAndDone() {
        List<NormalizedUrl> urls = urls(4);
        store.createBatch(header(4));
        store.addItems(batchId, urls, CREATED);
        store.finishItem(batchId, urls.get(0).urlHash(), ItemState.FETCHED, null, LATER);
        store.finishItem(batchId, urls.get(1).urlHash(), ItemState.FETCHED, null, LATER);
        store.finishItem(batchId, urls.get(2).urlHash(), ItemState.DISALLOWED, "robots.txt", LATER);

        BatchStatus partial = store.status(batchId).orElseThrow();

        assertEquals(Map.of(ItemState.FETCHED, 2, ItemState.DISALLOWED, 1), partial.terminalCounts());
        assertEquals(1, partial.queued());
        assertFalse(partial.done());

        store.finishItem(batchId, urls.get(3).urlHash(), ItemState.NOT_MODIFIED, null, LATER);
        BatchStatus finished = store.status(batchId).orElseThrow();

        assertEquals(Map.of(ItemState.FETCHED, 2, ItemState.DISALLOWED, 1, ItemState.NOT_MODIFIED, 1),
                finished.terminalCounts());
        assertEquals(0, finished.queued());
        assertTrue(finished.done());
        assertEquals(Optional.empty(), finished.completedAt());
    }

    @Test
    void markCompleted_whenCalledTwice_returnsTrueOnceAndKeepsTheFirstTime() {
        assertEquals("attribute_exists(pk) AND attribute_not_exists(#at)", DynamoDbBatchStore.SET_ONCE_CONDITION);
        store.createBatch(header(0));

        boolean first = store.markCompleted(batchId, LATER);
        boolean second = store.markCompleted(batchId, LATER.plusSeconds(60));

        assertTrue(first);
        assertFalse(second);
        assertEquals(Optional.of(LATER), store.status(batchId).orElseThrow().completedAt());
    }

    @Test
    void markCompleted_whenBatchUnknown_returnsFalseAndCreatesNoHeader() {
        assertFalse(store.markCompleted(batchId, LATER));

        assertEquals(Optional.empty(), store.status(batchId));
    }

    @Test
    void finishItem_whenThreadsRaceOnOneItem_exactlyOneWinsAndCountsOnce() throws Exception {
        NormalizedUrl url = urls(1).getFirst();
        store.createBatch(header(1));
        store.addItems(batchId, List.of(url), CREATED);
        ItemState[] states = {ItemState.FETCHED, ItemState.FAILED};

        List<Boolean> results = race(IntStream.range(0, THREADS)
                .mapToObj(i -> (Callable<Boolean>) () -> store.finishItem(
                        batchId, url.urlHash(), states[i % 2], "thread " + i, LATER))
                .toList());

        assertEquals(1, results.stream().filter(won -> won).count(), "winners among " + results);
        BatchStatus status = store.status(batchId).orElseThrow();
        assertEquals(1, status.terminal(), () -> "counts " + status.terminalCounts());
        ItemState winner = ItemState.fromWireName(item(url).get("state").s());
        assertEquals(Map.of(winner, 1), status.terminalCounts());
    }

    @Test
    void finishItem_whenThreadsRaceOnDifferentItems_countsEveryItemWithoutLostUpdates() throws Exception {
        int itemsPerThread = 4;
        List<NormalizedUrl> urls = urls(THREADS * itemsPerThread);
        store.createBatch(header(urls.size()));
        store.addItems(batchId, urls, CREATED);

        List<Boolean> results = race(IntStream.range(0, THREADS)
                .mapToObj(t -> (Callable<Boolean>) () -> {
                    boolean all = true;
                    for (NormalizedUrl url : urls.subList(t * itemsPerThread, (t + 1) * itemsPerThread)) {
                        all &= store.finishItem(batchId, url.urlHash(), ItemState.FETCHED, null, LATER);
                    }
                    return all;
                })
                .toList());

        assertEquals(List.of(true, true, true, true, true, true, true, true), results);
        BatchStatus status = store.status(batchId).orElseThrow();
        assertEquals(Map.of(ItemState.FETCHED, urls.size()), status.terminalCounts());
        assertTrue(status.done());
    }

    /** Runs the tasks on their own threads, released together, and returns their results in order. */
    private static <T> List<T> race(List<Callable<T>> tasks) throws Exception {
        CyclicBarrier start = new CyclicBarrier(tasks.size());
        try (ExecutorService pool = Executors.newFixedThreadPool(tasks.size())) {
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> task : tasks) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        }
    }

    @Test
    void addEntries_whenSameUrlAtAnotherPositionOrSameLineAgain_tellsDuplicateFromRetry() {
        store.createBatch(header(0));
        List<NormalizedUrl> urls = urls(150); // more than one transaction
        List<ManifestEntry> entries = IntStream.range(0, urls.size())
                .mapToObj(i -> new ManifestEntry(1000L + i, urls.get(i))).toList();

        assertEquals(java.util.Collections.nCopies(150, BatchStore.Added.CREATED), store.addEntries(batchId, entries, CREATED));
        store.finishItem(batchId, urls.get(1).urlHash(), ItemState.FETCHED, null, LATER);

        List<BatchStore.Added> again = store.addEntries(batchId, List.of(
                entries.get(0), entries.get(1), new ManifestEntry(5, urls.get(2)),
                new ManifestEntry(9, NormalizedUrl.parse("https://new.example/"))), LATER);

        assertEquals(List.of(BatchStore.Added.PENDING, BatchStore.Added.ENDED, BatchStore.Added.DUPLICATE,
                BatchStore.Added.CREATED), again);
    }

    @Test
    void addInvalid_whenRecordedTwice_makesOneInvalidItemCountedOnce() {
        store.createBatch(uploadHeader());

        assertTrue(store.addInvalid(batchId, 42, "ftp://x/", "unsupported scheme: ftp", CREATED));
        assertFalse(store.addInvalid(batchId, 42, "ftp://x/", "unsupported scheme: ftp", LATER));

        assertEquals(Map.of(ItemState.INVALID, 1), store.status(batchId).orElseThrow().terminalCounts());
        var items = store.items(batchId, Optional.of(ItemState.INVALID), Optional.empty(), 10).items();
        assertEquals(1, items.size());
        assertEquals("ftp://x/", items.get(0).url());
        assertEquals(Optional.of("unsupported scheme: ftp"), items.get(0).detail());
    }

    @Test
    void chunkPlanned_whenEveryChunkRecordedOnceOrTwice_addsEachChunksCountsOnceAndThenIsPlanned() {
        store.createBatch(uploadHeader());
        assertEquals(Optional.of(PlanProgress.AWAITING_UPLOAD), store.status(batchId).orElseThrow().planning());
        assertFalse(store.chunkPlanned(batchId, 0, new ChunkCounts(5, 1), CREATED), "no cut recorded yet");

        assertTrue(store.beginPlanning(batchId, 2, 3_000_000, CREATED));
        assertFalse(store.beginPlanning(batchId, 7, 9, LATER), "the first cut stands");
        assertTrue(store.chunkPlanned(batchId, 0, new ChunkCounts(5, 1), CREATED));
        assertFalse(store.chunkPlanned(batchId, 0, new ChunkCounts(5, 1), LATER), "a chunk planned again");
        assertFalse(store.status(batchId).orElseThrow().planned());
        assertTrue(store.chunkPlanned(batchId, 1, new ChunkCounts(7, 0), LATER));

        var status = store.status(batchId).orElseThrow();
        assertEquals(Optional.of(new PlanProgress(2, 2, 3_000_000)), status.planning());
        assertEquals(12, status.header().total());
        assertEquals(1, status.header().duplicates());
        assertEquals(Optional.of(UploadFormat.JSONL), status.header().upload());
        assertTrue(status.planned());
        assertTrue(store.isChunkPlanned(batchId, 1));
        assertFalse(store.isChunkPlanned(batchId, 2));
    }

    private BatchHeader uploadHeader() {
        return new BatchHeader(batchId, 0, 0, List.of(), 0, "upload", CREATED, BatchOptions.NONE, "fp",
                Optional.of(UploadFormat.JSONL));
    }

    private BatchHeader header(int total) {
        return header(total, List.of(), 0, "http");
    }

    private BatchHeader header(int total, List<Rejection> rejected, int rejectedCount, String source) {
        return new BatchHeader(batchId, total, 2, rejected, rejectedCount, source, CREATED);
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
