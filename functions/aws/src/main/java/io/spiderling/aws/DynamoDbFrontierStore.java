package io.spiderling.aws;

import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.number;
import static io.spiderling.aws.Attrs.s;
import static io.spiderling.aws.Attrs.string;

import io.spiderling.core.content.Hashing;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * {@link FrontierStore} on the {@code sites} table (keys {@code pk}, {@code sk}; local index {@code byOrder} on
 * {@code pk}, {@code ord}).
 *
 * <ul>
 *   <li>Entry: {@code pk = F#<site>} in the site's first partition, {@code F#<site>#<p>} in its partition p
 *       ({@link FrontierEntry#partition}, with {@code part = p}), {@code sk = E#<batchId>#<urlHash>}, one item whatever
 *       its state, changed in place; {@code url}, {@code batchId}, {@code attempt}, {@code order}, {@code notBefore}
 *       (epoch ms) and {@code send}. Each partition is its own item collection, so a site allowed many requests a
 *       second spreads its entries' writes over as many keys. A pending entry also carries {@code ord} (its order
 *       again), so the sparse {@code byOrder} index holds exactly the pending entries, in release order; a released
 *       one carries {@code releasedAt} instead. A release removes {@code ord} and sets {@code releasedAt}; a wait does
 *       the opposite. A park is one put on condition that the item is absent, which refuses a (batch, URL) pending or
 *       released alike.</li>
 *   <li>Site counter: {@code pk = COUNT#<site>}, {@code sk = count}; {@code pending}, {@code released},
 *       {@code progressAt} (epoch ms of the last done or wait), {@code checkAt} (epoch ms of the sweep's next look) and
 *       {@code parts}, the set of partitions other than the first that a park put entries in (so a release reads
 *       those).
 *       Keyed by its site, so no two sites share a partition through it, and deleted when both counts are zero.</li>
 *   <li>Sweep mark: {@code pk = SWEEP#<hour>#<shard>}, {@code sk = <checkAt, 13 digits>#<site>}, where hour is
 *       checkAt's hour since the epoch and shard one of {@value #SHARDS} by the site's hash: the sweep queries the
 *       marks due, oldest first, and never lists idle sites. Marks are written an hour's bucket ahead at most by one
 *       sweep period, so a shard's writes spread over {@value #SHARDS} partitions at any time.</li>
 *   <li>Sweep cursor: {@code pk = SWEEP#cursor}, {@code sk = <shard>}; {@code hour}, the oldest hour that may still
 *       hold the shard's marks. Hours before the present one found empty are passed for good: marks are set a sweep
 *       period (a minute or more) ahead, so none lands in a past hour unless clocks disagree by more than that. So a
 *       shard costs one query per sweep, and a sweep stopped for days catches up {@value #HOURS_PER_READ} hours per
 *       read.</li>
 * </ul>
 *
 * Every move between states is one transaction with the counter update, so the counts, and the cap on releases they
 * enforce, stay exact under concurrent and repeated calls.
 */
public final class DynamoDbFrontierStore implements FrontierStore {

    static final String ORDER_INDEX = "byOrder";
    static final String ABSENT = "attribute_not_exists(pk)";
    static final String PRESENT = "attribute_exists(pk)";
    /**
     * A release takes the pending entry only as the releaser read it: a copy read before another releaser sent it,
     * and before its job came back to wait, has an older send number. Releasing that copy would send the job under a
     * deduplication id the fetch queue has just seen, and SQS FIFO drops such a message silently, stranding the entry
     * as released until it is presumed lost.
     */
    static final String PENDING_AS_READ = "attribute_exists(ord) AND send = :send";
    /** An entry released (and not done). */
    static final String RELEASED = "attribute_exists(releasedAt)";
    /** A release counts against the site's cap; the first release finds no {@code released} attribute yet. */
    static final String BELOW_CAP = "attribute_not_exists(released) OR released < :cap";
    /** Room for n more releases: at most cap − n released now. */
    static final String ROOM_FOR = "attribute_not_exists(released) OR released <= :room";
    static final String NOTHING_PENDING = "(attribute_not_exists(pending) OR pending = :zero)";
    static final String DUE_FILTER = "notBefore <= :now";
    static final String RELEASED_BEFORE_FILTER = "attribute_exists(releasedAt) AND releasedAt < :cutoff";
    static final String PENDING_FILTER = "attribute_exists(ord)";
    /** A counter goes only when nothing is parked or released and its mark is the one read. */
    static final String EMPTY_AS_READ = "(attribute_not_exists(pending) OR pending = :zero)"
            + " AND (attribute_not_exists(released) OR released = :zero) AND ";
    static final String CHECK_AS_READ = "checkAt = :was";
    static final String NOT_SCHEDULED = "attribute_not_exists(checkAt)";
    /** A re-send takes the released entry only as the sweep read it: another sweep may have re-sent it since. */
    static final String RELEASED_AS_READ = "attribute_exists(releasedAt) AND send = :send";
    static final int SHARDS = 32;
    private static final long HOUR_MS = 3_600_000L;
    /** Hours one read of a shard looks through at most, so a long-stopped sweep catches up in bounded steps. */
    static final int HOURS_PER_READ = 48;
    /** Where a shard's first read ever starts: marks are set a period ahead, and the sweep runs from the start. */
    static final int FIRST_LOOKBACK_HOURS = 2;
    /** Not-yet-due entries are filtered after reading, so read a little more than asked per page. */
    private static final int MIN_PAGE = 50;
    /** The most items one TransactWriteItems call may hold. */
    static final int MAX_TRANSACTION = 100;
    /** Entries released per transaction: one item each, and the counter. */
    static final int RELEASE_CHUNK = MAX_TRANSACTION - 1;

    private final DynamoDbClient dynamo;
    private final String table;
    private final String sweepPrefix;
    /** Each shard's cursor as this instance last read or moved it (−1: not read yet); it only ever moves on. */
    private final AtomicLongArray cursors = new AtomicLongArray(SHARDS);

    public DynamoDbFrontierStore(DynamoDbClient dynamo, String table) {
        this(dynamo, table, "SWEEP#");
    }

    /** With the sweep's marks and cursors under another prefix: for a test that moves its clock by hours. */
    DynamoDbFrontierStore(DynamoDbClient dynamo, String table, String sweepPrefix) {
        this.dynamo = dynamo;
        this.table = table;
        this.sweepPrefix = sweepPrefix;
        for (int i = 0; i < SHARDS; i++) {
            cursors.set(i, -1);
        }
    }

    /** An entry's key, whether pending or released. */
    static Map<String, AttributeValue> entryKey(SiteKey site, EntryKey entry) {
        return Map.of("pk", s(partitionKey(site, entry.partition())),
                "sk", s("E#" + entry.batchId() + "#" + entry.urlHash()));
    }

    static Map<String, AttributeValue> entryKey(FrontierEntry e) {
        return entryKey(e.site(), EntryKey.of(e));
    }

    /** The partition key of one of a site's frontier partitions: {@code F#<site>}, then {@code F#<site>#<p>}. */
    static String partitionKey(SiteKey site, int partition) {
        return "F#" + site.value() + (partition == 0 ? "" : "#" + partition);
    }

    static Map<String, AttributeValue> counterKey(SiteKey site) {
        return Map.of("pk", s("COUNT#" + site.value()), "sk", s("count"));
    }

    Map<String, AttributeValue> markKey(SiteKey site, Instant at) {
        long ms = at.toEpochMilli();
        return Map.of("pk", s(markPartition(Math.floorDiv(ms, HOUR_MS), shardOf(site))),
                "sk", s(String.format("%013d#%s", ms, site.value())));
    }

    private String markPartition(long hour, int shard) {
        return sweepPrefix + hour + "#" + shard;
    }

    private Map<String, AttributeValue> cursorKey(int shard) {
        return Map.of("pk", s(sweepPrefix + "cursor"), "sk", s(Integer.toString(shard)));
    }

    static int shardOf(SiteKey site) {
        return Integer.parseInt(Hashing.sha256Hex(site.value()).substring(0, 4), 16) % SHARDS;
    }

    @Override
    public boolean park(FrontierEntry e) {
        Map<String, AttributeValue> item = pendingItem(e);
        return transact(
                TransactWriteItem.builder().put(p -> p.tableName(table).item(item).conditionExpression(ABSENT)).build(),
                parkCounter(e.site(), "ADD pending :one", null, Map.of(":one", n(1)), List.of(e)));
    }

    /**
     * Parks entries in transactions of at most {@value #MAX_TRANSACTION} items: each entry is a put, and each site in
     * the transaction one counter update, so a group of URLs over many sites still costs a few calls.
     * Entries refused because they are already parked or released are dropped and the rest written again.
     */
    @Override
    public int parkAll(List<FrontierEntry> entries) {
        int parked = 0;
        List<FrontierEntry> rest = new ArrayList<>(entries);
        while (!rest.isEmpty()) {
            // Take entries while they fit: one item each, plus one per site not yet in this transaction.
            Map<SiteKey, Integer> sites = new java.util.LinkedHashMap<>();
            List<FrontierEntry> pack = new ArrayList<>();
            int items = 0;
            for (FrontierEntry e : rest) {
                int cost = 1 + (sites.containsKey(e.site()) ? 0 : 1);
                if (items + cost > MAX_TRANSACTION) {
                    break;
                }
                items += cost;
                sites.merge(e.site(), 1, Integer::sum);
                pack.add(e);
            }
            rest = new ArrayList<>(rest.subList(pack.size(), rest.size()));
            while (!pack.isEmpty()) {
                Map<SiteKey, List<FrontierEntry>> bySite = new java.util.LinkedHashMap<>();
                List<TransactWriteItem> writes = new ArrayList<>();
                for (FrontierEntry e : pack) {
                    Map<String, AttributeValue> item = pendingItem(e);
                    writes.add(TransactWriteItem.builder().put(p -> p.tableName(table).item(item)
                            .conditionExpression(ABSENT)).build());
                    bySite.computeIfAbsent(e.site(), k -> new ArrayList<>()).add(e);
                }
                bySite.forEach((site, its) -> writes.add(
                        parkCounter(site, "ADD pending :k", null, Map.of(":k", n(its.size())), its)));
                Optional<List<CancellationReason>> refused =
                        Transactions.write(dynamo, writes.toArray(TransactWriteItem[]::new));
                if (refused.isEmpty()) {
                    parked += pack.size();
                    break;
                }
                List<FrontierEntry> again = new ArrayList<>();
                for (int k = 0; k < pack.size(); k++) {
                    if (!Transactions.CONDITION_FAILED.equals(refused.get().get(k).code())) {
                        again.add(pack.get(k));
                    }
                }
                pack = again;
            }
        }
        return parked;
    }

    /**
     * Per site, the released items, each put on condition that it is absent, and one counter update on condition that
     * nothing is pending (which also keeps any of them from being parked) and there is room for all; sites packed in
     * transactions of up to {@value #MAX_TRANSACTION} items. A refused transaction drops the sites whose items failed
     * their conditions and is written again without them. A park and a release cost a put, an update, two index
     * writes and two counter updates instead.
     */
    @Override
    public Set<SiteKey> parkReleased(List<FrontierEntry> entries, Instant now, ToIntFunction<SiteKey> cap) {
        Map<SiteKey, List<FrontierEntry>> bySite = new LinkedHashMap<>();
        entries.forEach(e -> bySite.computeIfAbsent(e.site(), k -> new ArrayList<>()).add(e));
        bySite.values().removeIf(its -> its.size() > MAX_TRANSACTION - 1);
        Set<SiteKey> parked = new LinkedHashSet<>();
        List<SiteKey> rest = new ArrayList<>(bySite.keySet());
        while (!rest.isEmpty()) {
            List<SiteKey> pack = new ArrayList<>();
            int items = 0;
            for (SiteKey site : rest) {
                int cost = bySite.get(site).size() + 1;
                if (items + cost > MAX_TRANSACTION) {
                    break;
                }
                items += cost;
                pack.add(site);
            }
            rest = new ArrayList<>(rest.subList(pack.size(), rest.size()));
            while (!pack.isEmpty()) {
                WriterToken token = WriterToken.fresh();
                List<TransactWriteItem> writes = new ArrayList<>();
                List<SiteKey> itemSites = new ArrayList<>();
                for (SiteKey site : pack) {
                    List<FrontierEntry> its = bySite.get(site);
                    for (FrontierEntry e : its) {
                        Map<String, AttributeValue> item = token.stamp(releasedItem(e, now));
                        writes.add(TransactWriteItem.builder().put(p -> p.tableName(table).item(item)
                                .conditionExpression(ABSENT)).build());
                        itemSites.add(site);
                    }
                    writes.add(parkCounter(site, "ADD released :n", NOTHING_PENDING + " AND (" + ROOM_FOR + ")",
                            Map.of(":n", n(its.size()), ":zero", n(0),
                                    ":room", n(cap.applyAsInt(site) - its.size())), its));
                    itemSites.add(site);
                }
                Optional<List<CancellationReason>> refused =
                        write(writes, bySite.get(pack.getFirst()).getFirst(), 0, token);
                if (refused.isEmpty()) {
                    parked.addAll(pack);
                    break;
                }
                Set<SiteKey> failed = new HashSet<>();
                for (int k = 0; k < itemSites.size(); k++) {
                    if (Transactions.CONDITION_FAILED.equals(refused.get().get(k).code())) {
                        failed.add(itemSites.get(k));
                    }
                }
                pack = pack.stream().filter(site -> !failed.contains(site)).toList();
            }
        }
        return parked;
    }

    /**
     * Each partition's index, in release order, read lazily a page at a time, and merged: the lowest order of all the
     * partitions comes first. A site in one partition costs one query.
     */
    @Override
    public List<FrontierEntry> due(SiteKey site, int spread, Instant now, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        if (spread <= 1) {
            return dueIn(site, 0, now, Math.max(limit, MIN_PAGE)).limit(limit).toList();
        }
        // A partition holds about its share of what is due; one that holds more reads its next page when asked.
        int page = Math.ceilDiv(limit, spread) + 2;
        record Head(FrontierEntry entry, java.util.Iterator<FrontierEntry> rest) {}
        java.util.PriorityQueue<Head> heads =
                new java.util.PriorityQueue<>(java.util.Comparator.comparingLong(h -> h.entry().order()));
        // The partitions' first pages side by side: one query's wait instead of spread queries' in turn.
        List<java.util.concurrent.Future<Optional<Head>>> firsts = new ArrayList<>();
        try (var reads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int p = 0; p < spread; p++) {
                int partition = p;
                firsts.add(reads.submit(() -> {
                    java.util.Iterator<FrontierEntry> it = dueIn(site, partition, now, page).iterator();
                    return it.hasNext() ? Optional.of(new Head(it.next(), it)) : Optional.<Head>empty();
                }));
            }
        }
        for (java.util.concurrent.Future<Optional<Head>> first : firsts) {
            if (first.state() == java.util.concurrent.Future.State.FAILED) {
                throw first.exceptionNow() instanceof RuntimeException e ? e
                        : new IllegalStateException("reading a frontier partition failed", first.exceptionNow());
            }
            first.resultNow().ifPresent(heads::add);
        }
        List<FrontierEntry> due = new ArrayList<>();
        while (due.size() < limit && !heads.isEmpty()) {
            Head lowest = heads.poll();
            due.add(lowest.entry());
            if (lowest.rest().hasNext()) {
                heads.add(new Head(lowest.rest().next(), lowest.rest()));
            }
        }
        return due;
    }

    /** One partition's due entries in release order; the paginator reads a page only when the stream asks. */
    private java.util.stream.Stream<FrontierEntry> dueIn(SiteKey site, int partition, Instant now, int page) {
        return dynamo.queryPaginator(b -> b.tableName(table).indexName(ORDER_INDEX)
                        .keyConditionExpression("pk = :pk")
                        .filterExpression(DUE_FILTER)
                        .expressionAttributeValues(Map.of(":pk", s(partitionKey(site, partition)),
                                ":now", n(now.toEpochMilli())))
                        .consistentRead(true)
                        .scanIndexForward(true)
                        .limit(page))
                .items().stream().map(DynamoDbFrontierStore::entry);
    }

    /** The site's partitions, as its counter names them now: for the reads that look at all its entries. */
    private java.util.stream.IntStream partitions(SiteKey site) {
        return java.util.stream.IntStream.range(0, state(site).map(SiteState::spread).orElse(1));
    }

    /**
     * Queries of the site's partitions by the batch's sort key prefix, eventually consistent, keeping the pending
     * entries: for reports.
     */
    @Override
    public List<FrontierEntry> pendingOfBatch(SiteKey site, String batchId, int limit) {
        return partitions(site).boxed().flatMap(p -> dynamo.queryPaginator(b -> b.tableName(table)
                        .keyConditionExpression("pk = :pk AND begins_with(sk, :batch)")
                        .filterExpression(PENDING_FILTER)
                        .expressionAttributeValues(Map.of(":pk", s(partitionKey(site, p)),
                                ":batch", s("E#" + batchId + "#")))
                        .limit(Math.max(limit, MIN_PAGE)))
                .items().stream())
                .limit(limit).map(DynamoDbFrontierStore::entry).toList();
    }

    @Override
    public Optional<SiteState> state(SiteKey site) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(counterKey(site))
                .consistentRead(true)).item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        int spread = 1 + (item.containsKey("parts")
                ? item.get("parts").ns().stream().mapToInt(Integer::parseInt).max().orElse(0) : 0);
        return Optional.of(new SiteState((int) number(item, "pending", 0), (int) number(item, "released", 0),
                instant(item, "progressAt"), instant(item, "checkAt"), spread));
    }

    private static Optional<Instant> instant(Map<String, AttributeValue> item, String name) {
        return item.containsKey(name) ? Optional.of(Instant.ofEpochMilli(number(item, name, 0))) : Optional.empty();
    }

    /** The counter and its mark in one transaction, on condition of both counts zero and the mark as read. */
    @Override
    public boolean forget(SiteKey site, SiteState seen) {
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":zero", n(0)));
        seen.checkAt().ifPresent(at -> values.put(":was", n(at.toEpochMilli())));
        String condition = EMPTY_AS_READ + (seen.checkAt().isPresent() ? CHECK_AS_READ : NOT_SCHEDULED);
        List<TransactWriteItem> items = new ArrayList<>();
        items.add(TransactWriteItem.builder().delete(d -> d.tableName(table).key(counterKey(site))
                .conditionExpression(condition).expressionAttributeValues(values)).build());
        seen.checkAt().ifPresent(at -> items.add(TransactWriteItem.builder()
                .delete(d -> d.tableName(table).key(markKey(site, at))).build()));
        return transact(items.toArray(TransactWriteItem[]::new));
    }

    @Override
    public int sweepShards() {
        return SHARDS;
    }

    /**
     * Reads the shard's hours from its cursor to the present, each with one query (more when an hour holds more
     * marks than a page), until {@code limit} marks are found; then moves the cursor past the hours found empty
     * before the present one. Eventually consistent: a mark written a moment ago is read by the next sweep.
     */
    @Override
    public List<SweepMark> sweepDue(int shard, Instant now, int limit) {
        long present = Math.floorDiv(now.toEpochMilli(), HOUR_MS);
        long from = cursor(shard, present);
        List<SweepMark> due = new ArrayList<>();
        long passed = from;
        String upTo = String.format("%013d", now.toEpochMilli() + 1);
        for (long hour = from; hour <= present && hour < from + HOURS_PER_READ && due.size() < limit; hour++) {
            String partition = markPartition(hour, shard);
            int before = due.size();
            dynamo.queryPaginator(b -> b.tableName(table)
                            .keyConditionExpression("pk = :pk AND sk < :upTo")
                            .expressionAttributeValues(Map.of(":pk", s(partition), ":upTo", s(upTo)))
                            .limit(Math.min(limit - before, 1_000)))
                    .items().stream().limit(limit - before).forEach(item -> due.add(mark(item)));
            if (due.size() == before && hour == passed && hour < present) {
                passed = hour + 1;
            }
        }
        if (passed > from) {
            advance(shard, passed);
        }
        return due;
    }

    /**
     * The shard's cursor: read once per instance, then as this instance moved it. A table never swept has none: its
     * marks are at most {@value #FIRST_LOOKBACK_HOURS} hours old unless its sweep never ran since they were set.
     */
    private long cursor(int shard, long present) {
        long known = cursors.get(shard);
        if (known >= 0) {
            return known;
        }
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(cursorKey(shard))).item();
        long first = present - FIRST_LOOKBACK_HOURS;
        long read = item == null || item.isEmpty() ? first : number(item, "hour", first);
        cursors.accumulateAndGet(shard, read, Math::max);
        return cursors.get(shard);
    }

    private void advance(int shard, long hour) {
        cursors.accumulateAndGet(shard, hour, Math::max);
        try {
            dynamo.updateItem(b -> b.tableName(table).key(cursorKey(shard))
                    .updateExpression("SET #hour = :hour")
                    .conditionExpression("attribute_not_exists(#hour) OR #hour < :hour")
                    .expressionAttributeNames(Map.of("#hour", "hour"))
                    .expressionAttributeValues(Map.of(":hour", n(hour))));
        } catch (ConditionalCheckFailedException another) {
            // another sweep moved it as far or further
        }
    }

    private static SweepMark mark(Map<String, AttributeValue> item) {
        String sk = item.get("sk").s();
        int hash = sk.indexOf('#');
        return new SweepMark(new SiteKey(sk.substring(hash + 1)), Instant.ofEpochMilli(Long.parseLong(sk.substring(0,
                hash))));
    }

    /** The counter's {@code checkAt}, the new mark and the old one's removal, in one transaction. */
    @Override
    public boolean schedule(SiteKey site, Optional<Instant> from, Instant to) {
        if (from.isPresent() && from.get().equals(to)) {
            return state(site).flatMap(SiteState::checkAt).equals(from);
        }
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":to", n(to.toEpochMilli())));
        from.ifPresent(at -> values.put(":was", n(at.toEpochMilli())));
        String condition = PRESENT + " AND " + (from.isPresent() ? CHECK_AS_READ : NOT_SCHEDULED);
        List<TransactWriteItem> items = new ArrayList<>();
        items.add(TransactWriteItem.builder().update(u -> u.tableName(table).key(counterKey(site))
                .updateExpression("SET checkAt = :to").conditionExpression(condition)
                .expressionAttributeValues(values)).build());
        Map<String, AttributeValue> mark = new HashMap<>(markKey(site, to));
        items.add(TransactWriteItem.builder().put(p -> p.tableName(table).item(mark)).build());
        from.ifPresent(at -> items.add(TransactWriteItem.builder()
                .delete(d -> d.tableName(table).key(markKey(site, at))).build()));
        return transact(items.toArray(TransactWriteItem[]::new));
    }

    @Override
    public void unmark(SweepMark mark) {
        dynamo.deleteItem(b -> b.tableName(table).key(markKey(mark.site(), mark.at())));
    }

    @Override
    public boolean release(FrontierEntry e, Instant now, int cap) {
        WriterToken token = WriterToken.fresh();
        return released(List.of(takePending(e, now, token),
                counter(e.site(), "ADD released :one, pending :minusOne", BELOW_CAP,
                        Map.of(":one", n(1), ":minusOne", n(-1), ":cap", n(cap)))), e, 0, token);
    }

    /**
     * Releases up to {@value #RELEASE_CHUNK} entries per transaction: each pending entry changed to released in place,
     * with one counter update that keeps the site within its cap. A refused transaction (another releaser took
     * an entry, or the cap is near) falls back to releasing one at a time, which skips what is gone.
     */
    @Override
    public List<FrontierEntry> releaseAll(SiteKey site, List<FrontierEntry> entries, Instant now, int cap) {
        List<FrontierEntry> released = new ArrayList<>();
        // Never more than the cap at once: a site with no count yet passes the condition whatever the chunk.
        int size = Math.max(1, Math.min(RELEASE_CHUNK, cap));
        for (int from = 0; from < entries.size(); from += size) {
            List<FrontierEntry> chunk = entries.subList(from, Math.min(entries.size(), from + size));
            if (chunk.size() == 1) {
                if (release(chunk.getFirst(), now, cap)) {
                    released.add(chunk.getFirst());
                }
                continue;
            }
            WriterToken token = WriterToken.fresh();
            List<TransactWriteItem> items = new ArrayList<>();
            for (FrontierEntry e : chunk) {
                items.add(takePending(e, now, token));
            }
            items.add(counter(site, "ADD released :n, pending :minusN", ROOM_FOR,
                    Map.of(":n", n(chunk.size()), ":minusN", n(-chunk.size()), ":room", n(cap - chunk.size()))));
            if (released(items, chunk.getFirst(), 0, token)) {
                released.addAll(chunk);
            } else {
                for (FrontierEntry e : chunk) {
                    if (release(e, now, cap)) {
                        released.add(e);
                    }
                }
            }
        }
        return released;
    }

    /**
     * Removes the entries in transactions of up to {@value #MAX_TRANSACTION} minus one deletes and one counter
     * update. A refused transaction (an entry not released: a duplicate delivery) falls back to one at a time.
     */
    @Override
    public void doneAll(SiteKey site, List<EntryKey> entries, Instant now) {
        for (int from = 0; from < entries.size(); from += MAX_TRANSACTION - 1) {
            List<EntryKey> chunk = entries.subList(from, Math.min(entries.size(), from + MAX_TRANSACTION - 1));
            if (chunk.size() == 1) {
                done(site, chunk.getFirst(), now);
                continue;
            }
            List<TransactWriteItem> items = new ArrayList<>();
            for (EntryKey e : chunk) {
                items.add(TransactWriteItem.builder().delete(d -> d.tableName(table)
                        .key(entryKey(site, e)).conditionExpression(RELEASED)).build());
            }
            items.add(counter(site, "ADD released :minusN SET progressAt = :now", null,
                    Map.of(":minusN", n(-chunk.size()), ":now", n(now.toEpochMilli()))));
            if (!transact(items.toArray(TransactWriteItem[]::new))) {
                chunk.forEach(e -> done(site, e, now));
            }
        }
    }

    /**
     * The handled entries' deletes, the due entries' releases and one counter update in one transaction, on condition
     * that the site has room for the released ones once the handled ones' places are free: one counter write where
     * {@link #doneAll} and {@link #releaseAll} make two. A refused transaction (an entry done or taken meanwhile, or
     * the cap) changes nothing and falls back to the two in turn, as does one too large for a transaction.
     */
    @Override
    public List<FrontierEntry> doneAndRelease(SiteKey site, List<EntryKey> done, List<FrontierEntry> due,
            Instant now, int cap) {
        if (done.isEmpty() || due.isEmpty() || done.size() + due.size() + 1 > MAX_TRANSACTION) {
            return FrontierStore.super.doneAndRelease(site, done, due, now, cap);
        }
        WriterToken token = WriterToken.fresh();
        List<TransactWriteItem> items = new ArrayList<>();
        for (EntryKey e : done) {
            items.add(TransactWriteItem.builder().delete(d -> d.tableName(table)
                    .key(entryKey(site, e)).conditionExpression(RELEASED)).build());
        }
        for (FrontierEntry e : due) {
            items.add(takePending(e, now, token));
        }
        int net = due.size() - done.size();
        items.add(counter(site, "ADD released :net, pending :minusN SET progressAt = :now", ROOM_FOR,
                Map.of(":net", n(net), ":minusN", n(-due.size()), ":now", n(now.toEpochMilli()),
                        ":room", n(cap - net))));
        if (released(items, due.getFirst(), done.size(), token)) {
            return List.copyOf(due);
        }
        return FrontierStore.super.doneAndRelease(site, done, due, now, cap);
    }

    @Override
    public boolean requeue(FetchJob at, int attempt, Instant notBefore, Instant now) {
        SiteKey site = at.siteKey();
        Map<String, AttributeValue> released = entryItem(site, EntryKey.of(at));
        if (released == null || !released.containsKey("releasedAt")) {
            return false;
        }
        FrontierEntry was = entry(released).at(at);
        FrontierEntry back = was.with(attempt, notBefore, was.send());
        // Put whole, on condition that it is still released (not done meanwhile): the hop's attributes may change (a
        // redirect chain waits part-way), and a put costs what an update does.
        Map<String, AttributeValue> item = pendingItem(back);
        return transact(
                TransactWriteItem.builder().put(p -> p.tableName(table).item(item).conditionExpression(RELEASED))
                        .build(),
                counter(site, "ADD released :minusOne, pending :one SET progressAt = :now", null,
                        Map.of(":one", n(1), ":minusOne", n(-1), ":now", n(now.toEpochMilli()))));
    }

    @Override
    public void done(SiteKey site, EntryKey entry, Instant now) {
        transact(
                TransactWriteItem.builder().delete(d -> d.tableName(table)
                        .key(entryKey(site, entry)).conditionExpression(RELEASED)).build(),
                counter(site, "ADD released :minusOne SET progressAt = :now", null,
                        Map.of(":minusOne", n(-1), ":now", n(now.toEpochMilli()))));
    }

    /** A scan of the whole table for its counters: for the local stack's restart, never for the sweep. */
    @Override
    public List<SiteKey> activeSites() {
        List<SiteKey> sites = new ArrayList<>();
        dynamo.scanPaginator(b -> b.tableName(table)
                        .filterExpression("sk = :count AND begins_with(pk, :prefix)")
                        .projectionExpression("pk")
                        .expressionAttributeValues(Map.of(":count", s("count"), ":prefix", s("COUNT#"))))
                .items().forEach(item -> sites.add(new SiteKey(item.get("pk").s().substring("COUNT#".length()))));
        return sites;
    }

    /**
     * Reads the site's entries, pending ones included, and keeps the released ones: released and pending entries
     * share their keys, so that a release changes an entry in place. The sweep asks only for a site quiet for
     * {@code lostAfter} with entries released, which a healthy stage never leaves; a site with a large backlog then
     * costs a read of it (half a read unit per 4 KB, a million entries about 40,000 units).
     */
    @Override
    public List<FrontierEntry> releasedBefore(SiteKey site, Instant cutoff) {
        return partitions(site).boxed().flatMap(p -> dynamo.queryPaginator(b -> b.tableName(table)
                        .keyConditionExpression("pk = :pk AND begins_with(sk, :entries)")
                        .filterExpression(RELEASED_BEFORE_FILTER)
                        .expressionAttributeValues(Map.of(":pk", s(partitionKey(site, p)), ":entries", s("E#"),
                                ":cutoff", n(cutoff.toEpochMilli())))
                        .consistentRead(true))
                .items().stream())
                .map(DynamoDbFrontierStore::entry).toList();
    }

    @Override
    public boolean resend(FrontierEntry e, Instant now) {
        try {
            dynamo.updateItem(b -> b.tableName(table).key(entryKey(e))
                    .updateExpression("SET send = :next, releasedAt = :now")
                    .conditionExpression(RELEASED_AS_READ)
                    .expressionAttributeValues(Map.of(":now", n(now.toEpochMilli()), ":send", n(e.send()),
                            ":next", n(e.send() + 1))));
            return true;
        } catch (ConditionalCheckFailedException doneOrResentMeanwhile) {
            return false;
        }
    }

    /**
     * Releases the pending entry in place, for its next send, on the condition that it is still the one read
     * ({@link #PENDING_AS_READ}): its {@code ord} goes, so it leaves the index. It carries the releasing call's
     * token ({@link #released}).
     */
    private TransactWriteItem takePending(FrontierEntry e, Instant now, WriterToken token) {
        return TransactWriteItem.builder().update(u -> u.tableName(table)
                .key(entryKey(e))
                .updateExpression("SET send = :next, releasedAt = :now, " + WriterToken.set() + " REMOVE ord")
                .conditionExpression(PENDING_AS_READ)
                .expressionAttributeValues(token.values(Map.of(":send", n(e.send()), ":next", n(e.send() + 1),
                        ":now", n(now.toEpochMilli()))))).build();
    }

    /**
     * Writes a transaction that releases entries, {@code first} at {@code at} among its items; true when it applied.
     * It may have applied though the call failed or came back refused: its reply was lost, and the SDK's next attempt
     * met the first attempt's own write (or gave up). A job released and not sent would wait until presumed lost
     * (ADR 6), so when {@code first}'s own condition failed, or the call failed, the entry tells: it carries the
     * call's token only if this call released it. A transaction is all or nothing, so one entry tells for all.
     */
    private boolean released(List<TransactWriteItem> items, FrontierEntry first, int at, WriterToken token) {
        return write(items, first, at, token).isEmpty();
    }

    /**
     * {@link Transactions#write} of a transaction that releases entries, {@code first} at {@code at} among its items
     * and each stamped with {@code token}: empty when it applied, this call's lost-reply attempt included
     * ({@link #released}), else the cancellation reasons.
     */
    private Optional<List<CancellationReason>> write(List<TransactWriteItem> items, FrontierEntry first, int at,
            WriterToken token) {
        Optional<List<CancellationReason>> refused;
        try {
            refused = Transactions.write(dynamo, items.toArray(TransactWriteItem[]::new));
        } catch (RuntimeException failed) {
            if (token.on(entryItem(first))) {
                return Optional.empty();
            }
            throw failed;
        }
        if (refused.isPresent() && Transactions.CONDITION_FAILED.equals(refused.get().get(at).code())
                && token.on(entryItem(first))) {
            return Optional.empty();
        }
        return refused;
    }

    private Map<String, AttributeValue> entryItem(FrontierEntry e) {
        return entryItem(e.site(), EntryKey.of(e));
    }

    /** The entry's item as it is now (strongly consistent); null when absent. */
    private Map<String, AttributeValue> entryItem(SiteKey site, EntryKey entry) {
        return dynamo.getItem(b -> b.tableName(table).key(entryKey(site, entry)).consistentRead(true)).item();
    }

    /** A pending entry: in the index by its order. */
    static Map<String, AttributeValue> pendingItem(FrontierEntry e) {
        Map<String, AttributeValue> item = new HashMap<>(entryKey(e));
        item.putAll(common(e));
        item.put("ord", n(e.order()));
        return item;
    }

    /** An entry released for its next send, as a release of the pending entry leaves it. */
    static Map<String, AttributeValue> releasedItem(FrontierEntry e, Instant now) {
        Map<String, AttributeValue> item = new HashMap<>(entryKey(e));
        item.putAll(common(e));
        item.put("send", n(e.send() + 1));
        item.put("releasedAt", n(now.toEpochMilli()));
        return item;
    }

    static Map<String, AttributeValue> common(FrontierEntry e) {
        Map<String, AttributeValue> m = new HashMap<>(Map.of("url", s(e.url().value()), "batchId", s(e.batchId()),
                "attempt", n(e.attempt()), "notBefore", n(e.notBefore().toEpochMilli()), "send", n(e.send()),
                "order", n(e.order())));
        if (!e.hop().request().value().equals(e.url().value())) {
            m.put("request", s(e.hop().request().value()));
        }
        e.origin().ifPresent(o -> m.put("origin", s(o.value())));
        if (e.partition() != 0) {
            m.put("part", n(e.partition()));
        }
        if (!e.via().isEmpty()) {
            m.put("via", AttributeValue.fromL(e.via().stream().map(Attrs::s).toList()));
        }
        e.hop().sitemap().ifPresent(task -> m.put("sitemap", AttributeValue.fromM(sitemap(task))));
        e.hop().lastmod().ifPresent(lastmod -> m.put("lastmod", n(lastmod.toEpochMilli())));
        return m;
    }

    /**
     * A sitemap job's task: its depth and the robots.txt files that named it, and {@code robots} only on a job that
     * reads a site's robots.txt (absent: false, as on entries written before it existed).
     */
    private static Map<String, AttributeValue> sitemap(SitemapTask task) {
        Map<String, AttributeValue> m = new HashMap<>(Map.of("depth", n(task.indexDepth()), "namedBy",
                AttributeValue.fromL(task.namedBy().stream().map(Attrs::s).toList())));
        if (task.robotsTxt()) {
            m.put("robots", AttributeValue.fromBool(true));
        }
        return m;
    }

    private static FrontierEntry entry(Map<String, AttributeValue> item) {
        String url = string(item, "url").orElseThrow();
        Hop hop = new Hop(NormalizedUrl.parse(url), RequestUrl.parse(string(item, "request").orElse(url)),
                string(item, "origin").map(NormalizedUrl::parse),
                item.containsKey("via") ? item.get("via").l().stream().map(AttributeValue::s).toList() : List.of(),
                Optional.ofNullable(item.get("sitemap")).map(AttributeValue::m).map(m -> new SitemapTask(
                        Integer.parseInt(m.get("depth").n()), m.get("namedBy").l().stream().map(AttributeValue::s)
                        .toList(), m.containsKey("robots") && Boolean.TRUE.equals(m.get("robots").bool()))));
        if (item.containsKey("lastmod")) {
            hop = hop.withLastmod(Instant.ofEpochMilli(number(item, "lastmod", 0)));
        }
        return FrontierEntry.builder().batchId(string(item, "batchId").orElseThrow()).hop(hop)
                .attempt((int) number(item, "attempt", 0)).order(number(item, "order", 0))
                .notBefore(Instant.ofEpochMilli(number(item, "notBefore", 0))).send((int) number(item, "send", 0))
                .partition((int) number(item, "part", 0)).build();
    }

    /**
     * A counter update of a park ({@code adds}, an ADD clause) that also adds the partitions of {@code entries} other
     * than the first to the counter's {@code parts}, so that a release reads them.
     */
    private TransactWriteItem parkCounter(SiteKey site, String adds, String condition,
            Map<String, AttributeValue> values, List<FrontierEntry> entries) {
        List<String> parts = entries.stream().filter(e -> e.partition() > 0)
                .map(e -> Integer.toString(e.partition())).distinct().toList();
        if (parts.isEmpty()) {
            return counter(site, adds, condition, values);
        }
        Map<String, AttributeValue> withParts = new HashMap<>(values);
        withParts.put(":parts", AttributeValue.fromNs(parts));
        return counter(site, adds + ", parts :parts", condition, withParts);
    }

    private TransactWriteItem counter(SiteKey site, String update, String condition,
            Map<String, AttributeValue> values) {
        return TransactWriteItem.builder().update(u -> u.tableName(table).key(counterKey(site))
                .updateExpression(update).conditionExpression(condition).expressionAttributeValues(values)).build();
    }

    /** Returns false when a condition refused the transaction, which then changed nothing. */
    private boolean transact(TransactWriteItem... items) {
        return Transactions.write(dynamo, items).isEmpty();
    }
}
