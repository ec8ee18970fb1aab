package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.port.Contracts;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.port.FrontierStoreContract;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.StackResources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
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

/**
 * The port's contract ({@link FrontierStoreContract}) and what is the adapter's own: the table's layout, the
 * conditions it sends, its counters, and its retries on transaction conflicts. Tests share one table per class, so
 * each test works on sites named after the test.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbFrontierStoreTest extends FrontierStoreContract {

    private final EmbeddedAws aws;
    private final DynamoDbClient dynamo;
    private final String table;

    DynamoDbFrontierStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.dynamo = aws.dynamoDb();
        this.table = res.sitesTable();
    }

    @Override
    protected FrontierStore createStore() {
        return new DynamoDbFrontierStore(dynamo, table);
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
    void conditions_whenStoreWrites_areTheOnesItSends() {
        assertEquals("notBefore <= :now", DynamoDbFrontierStore.DUE_FILTER);
        assertEquals("attribute_not_exists(pk)", DynamoDbFrontierStore.ABSENT);
        assertEquals("attribute_exists(pk)", DynamoDbFrontierStore.PRESENT);
        assertEquals("attribute_exists(ord) AND send = :send", DynamoDbFrontierStore.PENDING_AS_READ);
        assertEquals("attribute_exists(releasedAt)", DynamoDbFrontierStore.RELEASED);
        assertEquals("attribute_exists(ord)", DynamoDbFrontierStore.PENDING_FILTER);
        assertEquals("attribute_not_exists(released) OR released <= :room", DynamoDbFrontierStore.ROOM_FOR);
        assertEquals("attribute_not_exists(released) OR released < :cap", DynamoDbFrontierStore.BELOW_CAP);
        assertEquals("attribute_exists(releasedAt) AND releasedAt < :cutoff",
                DynamoDbFrontierStore.RELEASED_BEFORE_FILTER);
        assertEquals("(attribute_not_exists(pending) OR pending = :zero)"
                + " AND (attribute_not_exists(released) OR released = :zero) AND ", DynamoDbFrontierStore.EMPTY_AS_READ);
        assertEquals("checkAt = :was", DynamoDbFrontierStore.CHECK_AS_READ);
        assertEquals("attribute_not_exists(checkAt)", DynamoDbFrontierStore.NOT_SCHEDULED);
        assertEquals("attribute_exists(releasedAt) AND send = :send", DynamoDbFrontierStore.RELEASED_AS_READ);
    }

    @Test
    void park_whenSameBatchAndUrlAlreadyPending_countsItOnce() {
        FrontierEntry first = entry("a", 1, NOW);

        store.park(first);
        store.park(new FrontierEntry(first.batchId(), first.url(), 2, 7, NOW));

        assertEquals(1, counter(site(), "pending"));
    }

    @Test
    void release_whenPending_changesTheEntryInPlaceOutOfTheOrderIndexWithItsReleaseTime() {
        FrontierEntry e = entry("a", 4, NOW);
        store.park(e);
        Map<String, AttributeValue> key = DynamoDbFrontierStore.entryKey(e);
        Map<String, AttributeValue> pending = dynamo.getItem(b -> b.tableName(table).consistentRead(true).key(key))
                .item();
        assertEquals("4", pending.get("ord").n(), "a pending entry is in the byOrder index");

        assertTrue(store.release(e, NOW, 5));

        assertEquals(0, counter(site(), "pending"));
        assertEquals(1, counter(site(), "released"));
        Map<String, AttributeValue> released = dynamo.getItem(b -> b.tableName(table).consistentRead(true).key(key))
                .item();
        assertEquals("4", released.get("order").n());
        assertFalse(released.containsKey("ord"), "a released entry must stay out of the byOrder index");
        assertEquals(Long.toString(NOW.toEpochMilli()), released.get("releasedAt").n());
        assertEquals(1, dynamo.query(b -> b.tableName(table).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("F#" + site().value())))).count(),
                "one item per entry, whatever its state");
    }

    @Test
    void release_whenThreadsRaceAtCap_keepsThePendingCounterInStep() throws Exception {
        List<FrontierEntry> entries = IntStream.range(0, 20).mapToObj(i -> entry("p" + i, i, NOW)).toList();
        entries.forEach(store::park);

        Contracts.race(IntStream.range(0, 8).mapToObj(t -> (Callable<Integer>) () -> {
            int won = 0;
            for (int i = 0; i < entries.size(); i++) {
                won += store.release(entries.get((i + t * 3) % entries.size()), NOW, 5) ? 1 : 0;
            }
            return won;
        }).toList());

        assertEquals(entries.size() - 5, counter(site(), "pending"));
        assertEquals(5, counter(site(), "released"));
    }

    @Test
    void activeSites_whenASiteEmptiedAndWasForgotten_dropsIt() {
        FrontierEntry kept = entry("kept", "a", 1, NOW);
        FrontierEntry emptied = entry("emptied", "a", 1, NOW);
        List.of(kept, emptied).forEach(store::park);
        store.release(emptied, NOW, 5);
        assertTrue(store.activeSites().contains(emptied.site()));

        store.done(emptied.site(), FrontierStore.EntryKey.of(emptied), NOW);
        assertTrue(store.forget(emptied.site(), store.state(emptied.site()).orElseThrow()));
        List<SiteKey> active = store.activeSites();

        assertTrue(active.contains(kept.site()), active::toString);
        assertFalse(active.contains(emptied.site()), active::toString);
    }

    @Test
    void state_whenParked_isOneItemKeyedByTheSiteItself() {
        store.park(entry("k", 1, NOW));

        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of("pk", AttributeValue.fromS("COUNT#" + site().value()), "sk", AttributeValue.fromS("count"))))
                .item();
        assertEquals("1", item.get("pending").n());
    }

    @Test
    void schedule_whenMoved_keepsOneMarkKeyedByHourShardAndTime() {
        store.park(entry("m", 1, NOW));
        Instant first = NOW.plusSeconds(600);
        store.schedule(site(), Optional.empty(), first);
        store.schedule(site(), Optional.of(first), NOW.plusSeconds(7200));

        DynamoDbFrontierStore own = new DynamoDbFrontierStore(dynamo, table);
        Map<String, AttributeValue> key = own.markKey(site(), NOW.plusSeconds(7200));
        assertEquals("SWEEP#" + NOW.plusSeconds(7200).toEpochMilli() / 3_600_000 + "#"
                + DynamoDbFrontierStore.shardOf(site()), key.get("pk").s());
        assertFalse(dynamo.getItem(b -> b.tableName(table).consistentRead(true).key(key)).item().isEmpty());
        assertTrue(dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(own.markKey(site(), first))).item().isEmpty(), "the old mark went with it");
    }

    @Test
    void sweepDue_whenReadHoursLater_findsTheMarksOfEveryHourSinceItsCursor() {
        // Marks and cursors of its own: its clock moves by hours, which would pass other tests' hours for good.
        DynamoDbFrontierStore store = new DynamoDbFrontierStore(dynamo, table, "SWEEP-HOURS#");
        SiteKey lone = site("lone");
        store.park(entry("lone", "x", 1, NOW));
        Instant later = NOW.plus(Duration.ofHours(3));
        store.schedule(lone, Optional.empty(), later);
        int shard = DynamoDbFrontierStore.shardOf(lone);

        assertEquals(List.of(), store.sweepDue(shard, later.minusMillis(1), 10).stream()
                .filter(m -> m.site().equals(lone)).toList(), "not due before its time");
        assertEquals(List.of(new FrontierStore.SweepMark(lone, later)), store.sweepDue(shard, later, 10).stream()
                .filter(m -> m.site().equals(lone)).toList());
        Instant next = later.plus(Duration.ofMinutes(90));
        store.schedule(lone, Optional.of(later), next);
        assertEquals(List.of(new FrontierStore.SweepMark(lone, next)), store.sweepDue(shard, next, 10).stream()
                .filter(m -> m.site().equals(lone)).toList());
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
    void doneAndRelease_whenRoomForAll_isOneTransactionWithOneCounterUpdate() {
        List<FrontierEntry> entries = IntStream.range(0, 4).mapToObj(i -> entry("one" + i, i, NOW)).toList();
        store.parkAll(entries);
        store.releaseAll(site(), entries.subList(0, 2), NOW, 3);
        ConflictingDynamoDb counting = new ConflictingDynamoDb(dynamo, 0);

        List<FrontierEntry> released = new DynamoDbFrontierStore(counting, table).doneAndRelease(site(),
                List.of(FrontierStore.EntryKey.of(entries.get(0))),
                entries.subList(2, 4), NOW, 3);

        assertEquals(entries.subList(2, 4), released);
        assertEquals(1, counting.transactions.get(), "the done, two releases and the counter in one write");
        assertEquals(3, counter(site(), "released"));
        assertEquals(0, counter(site(), "pending"));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"the call fails", "the call is sent again"})
    void releaseAll_whenTheWriteAppliedButItsReplyWasLost_returnsTheEntriesToBeSent(String afterwards) {
        String name = afterwards.equals("the call fails") ? "fails" : "again"; // a site of each case's own
        List<FrontierEntry> entries = IntStream.range(0, 3).mapToObj(i -> entry(name, "lost" + i, i, NOW)).toList();
        store.parkAll(entries);
        DynamoDbClient replyLost = (DynamoDbClient) java.lang.reflect.Proxy.newProxyInstance(
                DynamoDbClient.class.getClassLoader(), new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
                    try {
                        Object reply = method.invoke(dynamo, args);
                        if (!method.getName().equals("transactWriteItems")) {
                            return reply;
                        }
                        if (afterwards.equals("the call fails")) {
                            throw software.amazon.awssdk.services.dynamodb.model.DynamoDbException.builder()
                                    .statusCode(500).message("reply lost").build();
                        }
                        return method.invoke(dynamo, args); // the SDK's next attempt, refused by the first's write
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        DynamoDbFrontierStore lossy = new DynamoDbFrontierStore(replyLost, table);

        assertEquals(entries.subList(0, 2), lossy.releaseAll(site(name), entries.subList(0, 2), NOW, 5));
        assertTrue(lossy.release(entries.get(2), NOW, 5), "released, so its job must be sent");

        assertEquals(3, counter(site(name), "released"));
        assertFalse(store.release(entries.get(2), NOW, 5), "another call's release of the same copy is refused");
        FrontierEntry first = entry(name + "-new", "first", 0, NOW);
        assertEquals(java.util.Set.of(first.site()), lossy.parkReleased(List.of(first), NOW, s -> 5),
                "a new site's first URL, parked released: to be sent");
    }

    @Test
    void parkAll_whenSomeAlreadyParkedOrReleased_countsThemOnItsCounters() {
        List<FrontierEntry> entries = new ArrayList<>();
        for (int i = 0; i < 120; i++) { // three transactions
            entries.add(entry("p" + i, i, NOW));
        }
        store.park(entries.get(5));
        store.park(entries.get(60));
        assertTrue(store.release(entries.get(60), NOW, 10));

        store.parkAll(entries);
        store.parkAll(entries);

        assertEquals(119, counter(site(), "pending"));
        assertEquals(1, counter(site(), "released"));
    }

    @Test
    void parkAll_whenEntriesOfManySites_countsEachSitesEntriesOnItsOwnCounter() {
        List<FrontierEntry> entries = new ArrayList<>();
        for (int i = 0; i < 90; i++) { // 30 sites, interleaved, over several transactions
            entries.add(entry("s" + (i % 30), "p" + i, i, NOW));
        }

        store.parkAll(entries);

        for (int s = 0; s < 30; s++) {
            assertEquals(3, counter(site("s" + s), "pending"), "site s" + s);
        }
    }

    @Test
    void requeue_whenReleased_movesTheCounts() {
        FrontierEntry e = entry("p", 7, NOW);
        store.park(e);
        store.release(e, NOW, 10);

        store.requeue(e.sentJob(), 2, NOW.plusSeconds(60), NOW);
        store.requeue(e.sentJob(), 2, NOW.plusSeconds(60), NOW);

        assertEquals(1, counter(site(), "pending"));
        assertEquals(0, counter(site(), "released"));
    }

    @Test
    void releaseAll_whenTheReleaseLandedButItsAnswerWasA500_theSdksRetryIsTheSameTransaction() {
        List<FrontierEntry> entries = IntStream.range(0, 5).mapToObj(i -> entry("p" + i, i, NOW)).toList();
        store.parkAll(entries);
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("release answered 500",
                FaultInjector.Call.dynamoDb("TransactWriteItems"), FaultInjector.When.matches(1),
                FaultInjector.dynamoDbReply(500, "InternalServerError")));

        List<FrontierEntry> released;
        try (DynamoDbClient flaky = aws.dynamoDb(faults)) {
            released = new DynamoDbFrontierStore(flaky, table).releaseAll(site(), entries, NOW, 10);
        }

        assertEquals(2, faults.matched("release answered 500"),
                "the release landed, its answer was lost, the SDK sent it again");
        assertEquals(entries, released, "released by this call, so its jobs are sent, not stranded as released");
        assertEquals(5, counter(site(), "released"));
    }

    @Test
    void release_whenTheReleaseLandedButItsAnswerWasA500_theSdksRetryIsTheSameTransaction() {
        FrontierEntry e = entry("p", 1, NOW);
        store.park(e);
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("release answered 500",
                FaultInjector.Call.dynamoDb("TransactWriteItems"), FaultInjector.When.matches(1),
                FaultInjector.dynamoDbReply(500, "InternalServerError")));

        boolean released;
        try (DynamoDbClient flaky = aws.dynamoDb(faults)) {
            released = new DynamoDbFrontierStore(flaky, table).release(e, NOW, 10);
        }

        assertEquals(2, faults.matched("release answered 500"));
        assertTrue(released, "released by this call");
        assertFalse(store.release(e, NOW, 10), "and only once");
        assertEquals(1, counter(site(), "released"));
    }

    private long counter(SiteKey site, String attribute) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).consistentRead(true)
                .key(DynamoDbFrontierStore.counterKey(site))).item();
        return Attrs.number(item, attribute, 0);
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
