package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/** Tests share one table per class, so each test works on sites named after the test. */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbFrontierStoreTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00.123Z");
    private static final int THREADS = 8;

    private final DynamoDbClient dynamo;
    private final String table;
    private final DynamoDbFrontierStore store;
    private String base;

    DynamoDbFrontierStoreTest(EmbeddedAws aws, StackResources res) {
        this.dynamo = aws.dynamoDb();
        this.table = res.sitesTable();
        this.store = new DynamoDbFrontierStore(dynamo, table);
    }

    @BeforeEach
    void nameSites(TestInfo test) {
        String name = test.getTestMethod().orElseThrow().getName().toLowerCase(Locale.ROOT).replace('_', '-');
        base = name.substring(0, Math.min(name.length(), 50));
    }

    @Test
    void provision_whenSitesTableCreated_hasKeysAndSparseOrderIndex() {
        TableDescription sites = dynamo.describeTable(b -> b.tableName(table)).table();

        assertEquals(List.of(key("pk", KeyType.HASH), key("sk", KeyType.RANGE)), sites.keySchema());
        assertEquals(BillingMode.PAY_PER_REQUEST, sites.billingModeSummary().billingMode());
        LocalSecondaryIndexDescription index = sites.localSecondaryIndexes().getFirst();
        assertEquals(DynamoDbFrontierStore.ORDER_INDEX, index.indexName());
        assertEquals(List.of(key("pk", KeyType.HASH), key("ord", KeyType.RANGE)), index.keySchema());
        assertEquals(ProjectionType.ALL, index.projection().projectionType());
    }

    @Test
    void due_whenEntriesParked_returnsDueEntriesByNumericOrderUpToLimit() {
        assertEquals("notBefore <= :now", DynamoDbFrontierStore.DUE_FILTER);
        FrontierEntry o100 = entry("a", 100, NOW);
        FrontierEntry o9 = entry("b", 9, NOW.minusSeconds(60));
        FrontierEntry o10 = entry("c", 10, NOW);
        FrontierEntry notYet = entry("d", 1, NOW.plusMillis(1));
        FrontierEntry o50 = entry("e", 50, NOW);
        for (FrontierEntry e : List.of(o100, o9, o10, notYet, o50)) {
            assertTrue(store.park(e), e::toString);
        }

        assertEquals(List.of(o9, o10, o50), store.due(site(), NOW, 3));
        assertEquals(List.of(o9, o10, o50, o100), store.due(site(), NOW, 10));
        assertEquals(List.of(notYet, o9, o10, o50, o100), store.due(site(), NOW.plusSeconds(1), 10));
        assertEquals(List.of(), store.due(site("other"), NOW, 10));
    }

    @Test
    void park_whenSameBatchAndUrlAlreadyPending_returnsFalseAndDueListsItOnce() {
        assertEquals("attribute_not_exists(pk)", DynamoDbFrontierStore.ABSENT);
        FrontierEntry first = entry("a", 1, NOW);

        assertTrue(store.park(first));
        assertFalse(store.park(new FrontierEntry(first.batchId(), first.url(), 2, 7, NOW)));

        assertEquals(List.of(first), store.due(site(), NOW, 10));
        assertEquals(1, counter(site(), "pending"));
    }

    @Test
    void park_whenSameUrlInAnotherBatch_parksBoth() {
        FrontierEntry first = entry("a", 1, NOW);
        FrontierEntry other = new FrontierEntry("other-batch", first.url(), 0, 2, NOW);

        assertTrue(store.park(first));
        assertTrue(store.park(other));

        assertEquals(List.of(first, other), store.due(site(), NOW, 10));
    }

    @Test
    void park_whenSameBatchAndUrlReleased_returnsFalse() {
        FrontierEntry e = entry("a", 1, NOW);
        store.park(e);
        assertTrue(store.release(e, NOW, 5));

        assertFalse(store.park(e));

        assertEquals(List.of(), store.due(site(), NOW, 10));
        assertEquals(0, counter(site(), "pending"));
        assertEquals(1, store.released(site()));
    }

    @Test
    void release_whenPending_movesItOutOfTheIndexAndCountsIt() {
        FrontierEntry e = entry("a", 4, NOW);
        store.park(e);

        assertTrue(store.release(e, NOW, 5));

        assertEquals(List.of(), store.due(site(), NOW, 10));
        assertEquals(1, store.released(site()));
        assertEquals(0, counter(site(), "pending"));
        Map<String, AttributeValue> released = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(DynamoDbFrontierStore.releasedKey(site(), e.batchId(), e.urlHash()))).item();
        assertEquals("4", released.get("order").n());
        assertFalse(released.containsKey("ord"), "a released entry must stay out of the byOrder index");
        assertEquals(Long.toString(NOW.toEpochMilli()), released.get("releasedAt").n());
    }

    @Test
    void release_whenNoLongerPending_returnsFalseAndCountsNothing() {
        assertEquals("attribute_exists(pk)", DynamoDbFrontierStore.PRESENT);
        FrontierEntry e = entry("a", 1, NOW);
        store.park(e);
        store.release(e, NOW, 5);

        assertFalse(store.release(e, NOW, 5));
        assertFalse(store.release(entry("never-parked", 2, NOW), NOW, 5));

        assertEquals(1, store.released(site()));
    }

    @Test
    void release_whenTheCopyReadWasSentAndCameBackSince_returnsFalseAndCountsNothing() {
        assertEquals("attribute_exists(pk) AND send = :send", DynamoDbFrontierStore.PENDING_AS_READ);
        store.park(entry("stale", 1, NOW));
        FrontierEntry readByTheSweep = store.due(site(), NOW, 1).getFirst();
        // Meanwhile another releaser sends it, and its job is refused and comes back to wait.
        assertTrue(store.release(store.due(site(), NOW, 1).getFirst(), NOW, 5));
        assertTrue(store.requeue(site(), readByTheSweep.batchId(), readByTheSweep.urlHash(), 1, NOW));

        assertFalse(store.release(readByTheSweep, NOW, 5), "a stale copy would re-send a deduplication id just seen");
        assertFalse(store.releaseAll(site(), List.of(readByTheSweep, entry("stale-other", 2, NOW)), NOW, 5)
                .contains(readByTheSweep));

        assertEquals(0, store.released(site()));
        FrontierEntry current = store.due(site(), NOW, 1).getFirst();
        assertEquals(readByTheSweep.send() + 1, current.send());
        assertEquals(List.of(current), store.releaseAll(site(), List.of(current), NOW, 5));
    }

    @Test
    void releaseAll_whenRoomForAll_releasesThemInOneWriteAndCountsThem() {
        List<FrontierEntry> entries = IntStream.range(0, 4).mapToObj(i -> entry("all" + i, i, NOW)).toList();
        entries.forEach(store::park);

        assertEquals(entries, store.releaseAll(site(), entries, NOW, 10));

        assertEquals(4, store.released(site()));
        assertEquals(0, counter(site(), "pending"));
        assertEquals(List.of(), store.due(site(), NOW, 10));
    }

    @Test
    void releaseAll_whenTheCapLeavesRoomForSome_releasesUpToItOneAtATime() {
        assertEquals("attribute_not_exists(released) OR released <= :room", DynamoDbFrontierStore.ROOM_FOR);
        List<FrontierEntry> entries = IntStream.range(0, 5).mapToObj(i -> entry("some" + i, i, NOW)).toList();
        entries.forEach(store::park);

        assertEquals(entries.subList(0, 3), store.releaseAll(site(), entries, NOW, 3));

        assertEquals(3, store.released(site()));
        assertEquals(entries.subList(3, 5), store.due(site(), NOW, 10), "what found no room stays pending");
    }

    @Test
    void doneAll_whenOneIsNotReleased_removesTheOthersAndCountsEachOnce() {
        List<FrontierEntry> entries = IntStream.range(0, 3).mapToObj(i -> entry("done" + i, i, NOW)).toList();
        entries.forEach(store::park);
        store.releaseAll(site(), entries, NOW, 10);
        store.done(site(), entries.get(1).batchId(), entries.get(1).urlHash()); // a duplicate delivery got there first

        store.doneAll(site(), entries.stream().map(e -> new FrontierStore.EntryKey(e.batchId(), e.urlHash()))
                .toList());

        assertEquals(0, store.released(site()));
        assertEquals(List.of(), store.releasedBefore(site(), NOW.plusSeconds(1)));
    }

    @Test
    void release_whenSiteAtCap_refusesUntilOneIsDone() {
        assertEquals("attribute_not_exists(released) OR released < :cap", DynamoDbFrontierStore.BELOW_CAP);
        List<FrontierEntry> entries = IntStream.range(0, 5).mapToObj(i -> entry("p" + i, i, NOW)).toList();
        entries.forEach(store::park);

        List<Boolean> results = entries.stream().map(e -> store.release(e, NOW, 3)).toList();

        assertEquals(List.of(true, true, true, false, false), results);
        assertEquals(3, store.released(site()));
        assertEquals(entries.subList(3, 5), store.due(site(), NOW, 10), "refused entries stay pending");

        FrontierEntry first = entries.getFirst();
        store.done(site(), first.batchId(), first.urlHash());
        assertEquals(2, store.released(site()));
        assertTrue(store.release(entries.get(3), NOW, 3));
        assertFalse(store.release(entries.get(4), NOW, 3));

        store.done(site(), first.batchId(), first.urlHash());
        store.done(site(), "no-such-batch", first.urlHash());
        assertEquals(3, store.released(site()), "a repeated done must not count twice");
        assertEquals(1, counter(site(), "pending"));
    }

    @Test
    void release_whenThreadsRaceAtCap_exactlyCapSucceed() throws Exception {
        List<FrontierEntry> entries = IntStream.range(0, 20).mapToObj(i -> entry("p" + i, i, NOW)).toList();
        entries.forEach(store::park);
        int cap = 5;

        List<Integer> wins = race(IntStream.range(0, THREADS).mapToObj(t -> (Callable<Integer>) () -> {
            int won = 0;
            for (int i = 0; i < entries.size(); i++) {
                // Each thread starts at another entry, so threads race on the same entries and on the counter.
                won += store.release(entries.get((i + t * 3) % entries.size()), NOW, cap) ? 1 : 0;
            }
            return won;
        }).toList());

        assertEquals(cap, wins.stream().mapToInt(Integer::intValue).sum(), "wins per thread " + wins);
        assertEquals(cap, store.released(site()));
        assertEquals(entries.size() - cap, store.due(site(), NOW, 100).size());
        assertEquals(entries.size() - cap, counter(site(), "pending"));
    }

    @Test
    void activeSites_whenSitesHavePendingOrReleasedEntries_listsThemAndDropsEmptiedOnes() {
        assertEquals("pending > :zero OR released > :zero", DynamoDbFrontierStore.ACTIVE_FILTER);
        FrontierEntry pending = entry("pending", "a", 1, NOW);
        FrontierEntry released = entry("released", "a", 1, NOW);
        FrontierEntry emptied = entry("emptied", "a", 1, NOW);
        List.of(pending, released, emptied).forEach(store::park);
        store.release(released, NOW, 5);
        store.release(emptied, NOW, 5);

        assertTrue(store.activeSites().containsAll(List.of(pending.site(), released.site(), emptied.site())));

        store.done(emptied.site(), emptied.batchId(), emptied.urlHash());
        List<SiteKey> active = store.activeSites();

        assertTrue(active.containsAll(List.of(pending.site(), released.site())), active::toString);
        assertFalse(active.contains(emptied.site()), active::toString);
        assertEquals(active.size(), active.stream().distinct().count(), "no site twice");
    }

    @Test
    void releasedBefore_whenReleasedLongAgo_listsItUntilResent() {
        assertEquals("releasedAt < :cutoff", DynamoDbFrontierStore.RELEASED_BEFORE_FILTER);
        FrontierEntry old = entry("old", 1, NOW);
        FrontierEntry recent = entry("recent", 2, NOW);
        FrontierEntry stillPending = entry("pending", 3, NOW);
        List.of(old, recent, stillPending).forEach(store::park);
        store.release(old, NOW, 5);
        store.release(recent, NOW.plusSeconds(120), 5);
        Instant cutoff = NOW.plusSeconds(60);

        assertEquals(List.of(old.with(old.attempt(), old.notBefore(), 1)), store.releasedBefore(site(), cutoff),
                "as released: its first send");
        assertEquals(List.of(), store.releasedBefore(site(), NOW), "the cutoff itself is not before");

        store.resent(old, NOW.plusSeconds(90));

        assertEquals(List.of(), store.releasedBefore(site(), cutoff));
        assertEquals(List.of(old.with(0, NOW, 1), recent.with(0, NOW, 1)), store.releasedBefore(site(),
                NOW.plusSeconds(121)).stream()
                .sorted((a, b) -> Long.compare(a.order(), b.order())).toList());
    }

    @Test
    void resent_whenEntryAlreadyDone_doesNotRecreateIt() {
        FrontierEntry e = entry("a", 1, NOW);
        store.park(e);
        store.release(e, NOW, 5);
        store.done(site(), e.batchId(), e.urlHash());

        store.resent(e, NOW.plusSeconds(90));

        assertEquals(List.of(), store.releasedBefore(site(), NOW.plusSeconds(3600)));
        assertEquals(0, store.released(site()));
    }

    @Test
    void park_whenTransactionConflictsTwice_retriesAndParksOnce() {
        ConflictingDynamoDb conflicting = new ConflictingDynamoDb(dynamo, 2);
        DynamoDbFrontierStore retrying = new DynamoDbFrontierStore(conflicting, table);
        FrontierEntry e = entry("a", 1, NOW);

        assertTrue(retrying.park(e));

        assertEquals(3, conflicting.transactions.get());
        assertEquals(List.of(e), retrying.due(site(), NOW, 10));
        assertEquals(1, counter(site(), "pending"));
    }

    @Test
    void park_whenConflictsPersist_rethrowsAndParksNothing() {
        ConflictingDynamoDb conflicting = new ConflictingDynamoDb(dynamo, Integer.MAX_VALUE);
        DynamoDbFrontierStore retrying = new DynamoDbFrontierStore(conflicting, table);

        assertThrows(TransactionCanceledException.class, () -> retrying.park(entry("a", 1, NOW)));

        assertEquals(List.of(), store.due(site(), NOW, 10));
        assertEquals(0, store.released(site()));
    }

    @Test
    void parkAll_whenSomeAlreadyParkedOrReleased_parksTheRestOnceAndCountsThem() {
        List<FrontierEntry> entries = new ArrayList<>();
        for (int i = 0; i < 120; i++) { // three transactions
            entries.add(entry("p" + i, i, NOW));
        }
        store.park(entries.get(5));
        store.park(entries.get(60));
        assertTrue(store.release(entries.get(60), NOW, 10));

        assertEquals(118, store.parkAll(entries));
        assertEquals(0, store.parkAll(entries), "parked again");

        assertEquals(119, counter(site(), "pending"));
        assertEquals(1, counter(site(), "released"));
        assertEquals(119, store.due(site(), NOW, 500).size());
    }

    @Test
    void parkAll_whenEntriesOfManySites_countsEachSitesEntriesOnItsOwnCounter() {
        List<FrontierEntry> entries = new ArrayList<>();
        for (int i = 0; i < 90; i++) { // 30 sites, interleaved, over several transactions
            entries.add(entry("s" + (i % 30), "p" + i, i, NOW));
        }

        assertEquals(90, store.parkAll(entries));

        for (int s = 0; s < 30; s++) {
            assertEquals(3, counter(site("s" + s), "pending"), "site s" + s);
            assertEquals(3, store.due(site("s" + s), NOW, 10).size());
        }
    }

    @Test
    void requeue_whenReleased_goesBackToPendingWithItsOrderAndCountsMove() {
        FrontierEntry e = entry("p", 7, NOW);
        store.park(e);
        store.release(e, NOW, 10);

        assertTrue(store.requeue(site(), e.batchId(), e.urlHash(), 2, NOW.plusSeconds(60)));
        assertFalse(store.requeue(site(), e.batchId(), e.urlHash(), 2, NOW.plusSeconds(60)), "a duplicate delivery");

        assertEquals(List.of(), store.due(site(), NOW, 10), "not due before its time");
        FrontierEntry back = store.due(site(), NOW.plusSeconds(60), 10).getFirst();
        assertEquals(7, back.order());
        assertEquals(2, back.attempt());
        assertEquals(1, back.send(), "sent once so far");
        assertEquals(1, counter(site(), "pending"));
        assertEquals(0, counter(site(), "released"));
        assertTrue(store.release(back, NOW.plusSeconds(60), 10));
        assertEquals(2, store.releasedBefore(site(), NOW.plusSeconds(61)).getFirst().send(), "its second send");
    }

    private SiteKey site() {
        return site("");
    }

    /** A site of this test; sites named differently have different registrable domains. */
    private SiteKey site(String name) {
        return new SiteKey((name.isEmpty() ? "" : name + "-") + base + ".example");
    }

    private FrontierEntry entry(String path, long order, Instant notBefore) {
        return entry("", path, order, notBefore);
    }

    private FrontierEntry entry(String siteName, String path, long order, Instant notBefore) {
        NormalizedUrl url = NormalizedUrl.parse("https://www." + site(siteName).value() + "/" + path);
        return new FrontierEntry("batch-1", url, 0, order, notBefore);
    }

    private long counter(SiteKey site, String attribute) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(DynamoDbFrontierStore.counterKey(site))).item();
        return Attrs.number(item, attribute, 0);
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
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
}
