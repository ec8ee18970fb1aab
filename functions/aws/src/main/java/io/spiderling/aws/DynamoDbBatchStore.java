package io.spiderling.aws;

import static io.spiderling.aws.Attrs.bool;
import static io.spiderling.aws.Attrs.instant;
import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.number;
import static io.spiderling.aws.Attrs.requiredNumber;
import static io.spiderling.aws.Attrs.requiredString;
import static io.spiderling.aws.Attrs.s;
import static io.spiderling.aws.Attrs.string;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchOutline;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.CallbackState;
import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.batch.NoticeFailures;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.batch.ManifestLine;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.SitemapCounts;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.port.BatchHeaderStore;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.port.BatchItemStore.Ending;
import io.spiderling.core.port.UploadPlanStore;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The batch headers, items and upload planning on the {@code batches} table (keys {@code pk}, {@code sk}): one class
 * for three ports, because ending an item, recording an invalid line and planning a chunk each count on the header in
 * the same transaction as their own write. The origin lists are {@link DynamoDbBatchOriginStore}'s.
 *
 * <ul>
 *   <li>Header: {@code pk = B#<batchId>}, {@code sk = H}; holds what the batch was submitted with, its planning and
 *       its marks (completed, cancelled, callback). No item writes it.</li>
 *   <li>Items: {@code pk = B#<batchId>#<partition>}, {@code sk = U#<urlHash>}.</li>
 *   <li>Counters: {@code pk = B#<batchId>#n<shard>}, {@code sk = N}; per shard, the items still {@code queued} and
 *       one counter per terminal state ({@code n_<state>}). The batch's counts are their sums.</li>
 * </ul>
 * An item's partition is the URL hash's first byte modulo {@value #ITEM_PARTITIONS}, its counter shard the same byte
 * modulo {@value #COUNTER_SHARDS} (each two hex digits), so the partitions {@code p} and {@code p + 32} count on
 * shard {@code p}. A batch's writes spread over {@value #ITEM_PARTITIONS} item keys and {@value #COUNTER_SHARDS}
 * counter keys. An item is written about twice as much as its counter shard's share (its put with its attributes, its
 * ending with the state and detail; a counter update is a few bytes), so twice the partitions even the two out: the
 * metered hottest key of a batch was an item shard at 0.16 WRU per URL (6,211 URLs/s) with 32 of each, and the
 * counters 0.083 (12,048/s). More counter shards would cost every completion check a read per shard (ADR 2's
 * amendment). The header was once counted on by every item, which held a batch near 420 items a second.
 *
 * <p>Uploads add {@code upload} (the format), {@code chunks}, {@code chunksDone} and {@code bytes} to the header, and
 * one marker per planned chunk: {@code pk = B#<batchId>#chunks}, {@code sk = C#<chunk>}. Items carry {@code pos}, their
 * position in the manifest, which tells a duplicate from the same line planned again.
 *
 * <p>Adding items is transactional with their shards' {@code queued} counters, and ending an item is one transaction:
 * the item's conditional move out of {@code queued} and its shard counter's update succeed or fail together, so counts
 * stay exact under duplicate deliveries and crashes. The ending's counter update carries the condition
 * {@code queued > 1}: the one ending it refuses is its shard's last queued item, which is written again without it
 * and reported as possibly the batch's last ({@link Ending#ENDED_MAYBE_LAST}). So no ending reads the counts; the
 * batch's completion is checked only after an ending that may be the last.
 */
public final class DynamoDbBatchStore implements BatchHeaderStore, BatchItemStore, UploadPlanStore {

    static final String HEADER_SK = "H";
    /** Item partitions per batch, named by two hex digits. */
    static final int ITEM_PARTITIONS = 64;
    /** Counter shards per batch, named by two hex digits; each counts two item partitions. */
    static final int COUNTER_SHARDS = 32;
    static final String ITEM_TRANSITION_CONDITION = "#state = :queued";
    /** Completion and cancellation are each recorded once, on an existing header; {@code #at} names which. */
    static final String SET_ONCE_CONDITION = "attribute_exists(pk) AND attribute_not_exists(#at)";
    /** Counting a change notice given up: on an existing header, unless this call counted it already. */
    static final String NOTICE_FAILED_CONDITION = "attribute_exists(pk) AND (attribute_not_exists("
            + WriterToken.ATTRIBUTE + ") OR " + WriterToken.ATTRIBUTE + " <> " + WriterToken.PLACEHOLDER + ")";
    private static final String COUNTER_PREFIX = "n_";
    private static final String COUNTER_SK = "N";
    /** A counter shard's items still queued. */
    private static final String QUEUED = "queued";
    /** The update of an ending's counter shard that refuses the shard's last queued item (see the class comment). */
    private static final String NOT_LAST_CONDITION = QUEUED + " > :one";
    /** The most items one TransactWriteItems call may hold. */
    static final int MAX_TRANSACTION = 100;
    /** An upload's cut is recorded once, on an existing header. */
    static final String BEGIN_PLANNING_CONDITION = "attribute_exists(pk) AND attribute_not_exists(chunks)";

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbBatchStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    static Map<String, AttributeValue> headerKey(String batchId) {
        return Map.of("pk", s("B#" + batchId), "sk", s(HEADER_SK));
    }

    static Map<String, AttributeValue> itemKey(String batchId, String urlHash) {
        return Map.of("pk", s(itemPartition(batchId, partition(urlHash))), "sk", s("U#" + urlHash));
    }

    private static String itemPartition(String batchId, int partition) {
        return "B#" + batchId + "#" + shardName(partition);
    }

    static Map<String, AttributeValue> counterKey(String batchId, int shard) {
        return Map.of("pk", s("B#" + batchId + "#n" + shardName(shard)), "sk", s(COUNTER_SK));
    }

    /** The counter shard of an item: its hash's first byte (every key here is a hex SHA-256) modulo 32. */
    static int shard(String urlHash) {
        return Integer.parseInt(urlHash, 0, 2, 16) % COUNTER_SHARDS;
    }

    /** The item partition of an item: its hash's first byte modulo 64. */
    static int partition(String urlHash) {
        return Integer.parseInt(urlHash, 0, 2, 16) % ITEM_PARTITIONS;
    }

    private static String shardName(int shard) {
        return String.format(java.util.Locale.ROOT, "%02x", shard);
    }

    @Override
    public boolean createBatch(BatchHeader h) {
        Map<String, AttributeValue> item = new HashMap<>(headerKey(h.batchId()));
        item.put("batchId", s(h.batchId()));
        item.put("total", n(h.total()));
        item.put("duplicates", n(h.duplicates()));
        item.put("rejectedCount", n(h.rejectedCount()));
        item.put("rejected", AttributeValue.fromL(h.rejected().stream().map(DynamoDbBatchStore::rejection).toList()));
        item.put("source", s(h.source().wireName()));
        item.put("createdAt", n(h.createdAt().toEpochMilli()));
        h.options().callbackUrl().ifPresent(url -> item.put("callbackUrl", s(url)));
        h.options().recrawlAfter().ifPresent(d -> item.put("recrawlAfter", s(d.toString())));
        h.options().progressEvery().ifPresent(d -> item.put("progressEvery", s(d.toString())));
        if (h.options().capture()) {
            item.put("capture", bool(true));
        }
        if (h.options().markdown()) {
            item.put("markdown", bool(true));
        }
        if (!h.options().notices().isEmpty()) {
            item.put("notify", AttributeValue.fromSs(h.options().notices().stream()
                    .map(BatchOptions.Notice::wireName).toList()));
        }
        if (!h.client().isEmpty()) {
            item.put("client", s(h.client()));
        }
        if (!h.fingerprint().isEmpty()) {
            item.put("fingerprint", s(h.fingerprint()));
        }
        h.upload().ifPresent(format -> item.put("upload", s(format.wireName())));
        // A creation the SDK sent again after its answer was lost finds itself ({@link WriterToken}), not a replay.
        WriterToken writer = WriterToken.fresh();
        try {
            dynamo.putItem(b -> b.tableName(table).item(writer.stamp(item))
                    .conditionExpression(WriterToken.condition("attribute_not_exists(pk)"))
                    .expressionAttributeValues(writer.values(Map.of())));
            return true;
        } catch (ConditionalCheckFailedException alreadyThere) {
            return false; // a redelivered or replayed submission: the first write stands
        }
    }

    /** A rejected entry may have no URL at all (a JSON null); DynamoDB cannot store an empty string, so it is left out. */
    private static AttributeValue rejection(Rejection r) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put("reason", s(r.reason()));
        if (r.url() != null && !r.url().isEmpty()) {
            m.put("url", s(r.url()));
        }
        return AttributeValue.fromM(m);
    }

    /**
     * Writes the items in transactions of up to {@value #MAX_TRANSACTION} actions: conditional puts, taken in shard
     * order, and for each shard among them one update adding the shard's new items to its {@code queued} counter. A
     * put refused because the item exists tells, from the old item returned with the refusal, whether it is this
     * entry's own item from an earlier attempt (same position) or a duplicate; the rest of a refused transaction is
     * written again without it. Each transaction also checks that the header exists, so no batch has items without
     * one. A large manifest with no duplicates thus costs one call per 97 or 98 URLs.
     *
     * <p>Once a put has been refused because its item exists (the manifest planned again after a lost answer, a
     * redelivered event, the sweep's stranded-plan check; or duplicates), the rest of the call reads its items first
     * (eventually consistent, a read unit per two items) and writes only those it did not find: a refused
     * transaction is billed as written, so planning a 10,000-URL manifest again would otherwise cost its whole write
     * a second time, on the same row partitions, without writing anything.
     */
    @Override
    public List<Added> addEntries(String batchId, List<ManifestEntry> entries, Instant now) {
        Added[] added = new Added[entries.size()];
        List<Integer> order = IntStream.range(0, entries.size()).boxed()
                .sorted(Comparator.comparingInt(i -> shard(entries.get(i).itemKey()))).toList();
        boolean readFirst = false;
        int from = 0;
        while (from < order.size()) {
            List<Integer> todo = new ArrayList<>();
            Set<Integer> shards = new HashSet<>();
            while (from < order.size()) {
                int shard = shard(entries.get(order.get(from)).itemKey());
                // The puts, their shards' counters, and the header's existence.
                int actions = todo.size() + 1 + shards.size() + (shards.contains(shard) ? 0 : 1) + 1;
                if (actions > MAX_TRANSACTION) {
                    break;
                }
                todo.add(order.get(from++));
                shards.add(shard);
            }
            if (readFirst) {
                todo = notFound(batchId, entries, todo, added);
            }
            readFirst |= addTogether(batchId, entries, todo, added, now);
        }
        return List.of(added);
    }

    /** Of {@code todo}, the entries whose items a read does not find; those it finds are settled in {@code added}. */
    private List<Integer> notFound(String batchId, List<ManifestEntry> entries, List<Integer> todo, Added[] added) {
        Map<String, Map<String, AttributeValue>> found = new HashMap<>();
        List<Map<String, AttributeValue>> keys = todo.stream().map(i -> entries.get(i).itemKey()).distinct()
                .map(hash -> itemKey(batchId, hash)).toList();
        BatchGets.all(dynamo, table, keys, false).forEach(item -> found.put(item.get("sk").s(), item));
        List<Integer> missing = new ArrayList<>();
        for (int i : todo) {
            Map<String, AttributeValue> old = found.get("U#" + entries.get(i).itemKey());
            if (old == null) {
                missing.add(i);
            } else {
                added[i] = existing(old, entries.get(i).position());
            }
        }
        return missing;
    }

    /**
     * Writes {@code todo}'s items and counts them on their shards in one transaction, again without refusals. Returns
     * whether a put was refused because its item exists.
     */
    private boolean addTogether(String batchId, List<ManifestEntry> entries, List<Integer> todo, Added[] added,
            Instant now) {
        boolean existed = false;
        while (!todo.isEmpty()) {
            List<TransactWriteItem> actions = new ArrayList<>();
            Map<Integer, Integer> perShard = new TreeMap<>();
            for (int i : todo) {
                ManifestEntry entry = entries.get(i);
                actions.add(TransactWriteItem.builder().put(p -> p.tableName(table)
                        .item(queuedItem(batchId, entry, now))
                        .conditionExpression("attribute_not_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)).build());
                perShard.merge(shard(entry.itemKey()), 1, Integer::sum);
            }
            perShard.forEach((shard, count) -> actions.add(TransactWriteItem.builder().update(u -> u.tableName(table)
                    .key(counterKey(batchId, shard)).updateExpression("ADD #queued :n")
                    .expressionAttributeNames(Map.of("#queued", QUEUED))
                    .expressionAttributeValues(Map.of(":n", n(count)))).build()));
            actions.add(TransactWriteItem.builder().conditionCheck(c -> c.tableName(table).key(headerKey(batchId))
                    .conditionExpression("attribute_exists(pk)")).build());
            Optional<List<CancellationReason>> refused =
                    Transactions.write(dynamo, actions.toArray(TransactWriteItem[]::new));
            if (refused.isEmpty()) {
                todo.forEach(i -> added[i] = Added.CREATED);
                return existed;
            }
            if (Transactions.CONDITION_FAILED.equals(refused.get().getLast().code())) {
                throw new IllegalStateException("batch " + batchId + " has no header");
            }
            List<Integer> again = new ArrayList<>();
            for (int k = 0; k < todo.size(); k++) {
                CancellationReason reason = refused.get().get(k);
                int i = todo.get(k);
                if (Transactions.CONDITION_FAILED.equals(reason.code())) {
                    added[i] = existing(reason.item(), entries.get(i).position());
                    existed = true;
                } else {
                    again.add(i);
                }
            }
            todo = again;
        }
        return existed;
    }

    private static Map<String, AttributeValue> queuedItem(String batchId, ManifestEntry entry, Instant now) {
        NormalizedUrl url = entry.url();
        Map<String, AttributeValue> item = new HashMap<>(itemKey(batchId, entry.itemKey()));
        item.put("batchId", s(batchId));
        item.put("url", s(url.value()));
        item.put("urlHash", s(entry.itemKey()));
        if (entry.kind() != ItemKind.PAGE) {
            item.put("kind", s(entry.kind().wireName()));
        }
        item.put("state", s(ItemState.QUEUED.wireName()));
        item.put("createdAt", n(now.toEpochMilli()));
        item.put("pos", n(entry.position()));
        return item;
    }

    /** What the item already stored for this URL means: another line's (a duplicate), or this entry's own. */
    private static Added existing(Map<String, AttributeValue> old, long position) {
        if (old == null) {
            return Added.PENDING;
        }
        if (requiredNumber(old, "pos") != position) {
            return Added.DUPLICATE;
        }
        return string(old, "state").filter(ItemState.QUEUED.wireName()::equals).isPresent()
                ? Added.PENDING : Added.ENDED;
    }

    /** An item row as the status API lists it; a row ended before reasons were stored has none. */
    private static BatchItem batchItem(Map<String, AttributeValue> item) {
        return BatchItem.builder().url(string(item, "url").orElse("")).urlHash(string(item, "urlHash").orElse(""))
                .state(ItemState.fromWireName(string(item, "state").orElseThrow()))
                .kind(string(item, "kind").flatMap(ItemKind::fromWireName).orElse(ItemKind.PAGE))
                .reason(string(item, "reason").flatMap(Reason::ofCode)).detail(string(item, "detail"))
                .endedAt(instant(item, "endedAt")).build();
    }

    private static BatchSource source(Map<String, AttributeValue> item) {
        String stored = requiredString(item, "source");
        return BatchSource.fromWireName(stored)
                .orElseThrow(() -> new IllegalStateException("unknown batch source " + stored));
    }

    @Override
    public boolean addInvalid(String batchId, Invalid entry, Instant now) {
        String key = ManifestLine.invalidItemKey(entry.position());
        String shown = entry.shown();
        Map<String, AttributeValue> item = new HashMap<>(itemKey(batchId, key));
        item.put("batchId", s(batchId));
        // DynamoDB refuses empty strings; a line of only a BOM or spaces is blank, so shown is rarely empty
        item.put("url", s(shown.isEmpty() ? "(empty)" : shown));
        item.put("urlHash", s(key));
        item.put("state", s(ItemState.INVALID.wireName()));
        item.put("reason", s(entry.reason().code()));
        item.put("detail", s(entry.detail()));
        item.put("createdAt", n(now.toEpochMilli()));
        item.put("endedAt", n(now.toEpochMilli()));
        item.put("pos", n(entry.position()));
        return Transactions.write(dynamo,
                TransactWriteItem.builder().put(p -> p.tableName(table).item(item)
                        .conditionExpression("attribute_not_exists(pk)")).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(counterKey(batchId, shard(key)))
                        .updateExpression("ADD #counter :one")
                        .expressionAttributeNames(Map.of("#counter", COUNTER_PREFIX + ItemState.INVALID.wireName()))
                        .expressionAttributeValues(Map.of(":one", n(1)))).build(),
                TransactWriteItem.builder().conditionCheck(c -> c.tableName(table).key(headerKey(batchId))
                        .conditionExpression("attribute_exists(pk)")).build()).isEmpty();
    }

    @Override
    public boolean beginPlanning(String batchId, int chunks, long bytes, Instant at) {
        try {
            dynamo.updateItem(b -> b.tableName(table).key(headerKey(batchId))
                    .updateExpression("SET chunks = :chunks, bytes = :bytes, chunksDone = :zero, uploadedAt = :at")
                    .conditionExpression(BEGIN_PLANNING_CONDITION)
                    .expressionAttributeValues(Map.of(":chunks", n(chunks), ":bytes", n(bytes), ":zero", n(0),
                            ":at", n(at.toEpochMilli()))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    static Map<String, AttributeValue> chunkKey(String batchId, int chunk) {
        return Map.of("pk", s("B#" + batchId + "#chunks"), "sk", s("C#" + chunk));
    }

    @Override
    public boolean chunkPlanned(String batchId, int chunk, ChunkCounts counts, Instant at) {
        Map<String, AttributeValue> marker = new HashMap<>(chunkKey(batchId, chunk));
        marker.put("items", n(counts.items()));
        marker.put("duplicates", n(counts.duplicates()));
        marker.put("plannedAt", n(at.toEpochMilli()));
        return Transactions.write(dynamo,
                TransactWriteItem.builder().put(p -> p.tableName(table).item(marker)
                        .conditionExpression("attribute_not_exists(pk)")).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(headerKey(batchId))
                        .updateExpression("ADD #total :items, duplicates :duplicates, chunksDone :one")
                        .conditionExpression("attribute_exists(chunks)")
                        .expressionAttributeNames(Map.of("#total", "total"))
                        .expressionAttributeValues(Map.of(":items", n(counts.items()),
                                ":duplicates", n(counts.duplicates()), ":one", n(1)))).build()).isEmpty();
    }

    @Override
    public SitemapBegin sitemapReading(String batchId, String sitemapKey, long maxSitemaps, Instant at) {
        Map<String, AttributeValue> marker = new HashMap<>(readingKey(batchId, sitemapKey));
        marker.put("at", n(at.toEpochMilli()));
        // sitemapsBegun only grows (every begun sitemap is read or failed, never un-begun), so the condition makes
        // the limit exact: the header's update serializes sitemaps begun at the same moment.
        Optional<List<CancellationReason>> refused = Transactions.write(dynamo,
                TransactWriteItem.builder().put(p -> p.tableName(table).item(marker)
                        .conditionExpression("attribute_not_exists(pk)")).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(headerKey(batchId))
                        .updateExpression("ADD sitemapsReading :one, sitemapsBegun :one")
                        .conditionExpression("attribute_exists(pk) AND (attribute_not_exists(sitemapsBegun)"
                                + " OR sitemapsBegun < :max)")
                        .expressionAttributeValues(Map.of(":one", n(1), ":max", n(maxSitemaps)))).build());
        if (refused.isEmpty()) {
            return SitemapBegin.BEGUN;
        }
        return Transactions.CONDITION_FAILED.equals(refused.get().getFirst().code()) ? SitemapBegin.BEGUN_BEFORE
                : SitemapBegin.OVER_LIMIT;
    }

    @Override
    public boolean sitemapRead(String batchId, String sitemapKey, ChunkCounts counts, Instant at) {
        Map<String, AttributeValue> marker = new HashMap<>(Map.of("pk", s("B#" + batchId + "#chunks"),
                "sk", s("S#" + sitemapKey)));
        marker.put("items", n(counts.items()));
        marker.put("duplicates", n(counts.duplicates()));
        marker.put("readAt", n(at.toEpochMilli()));
        return Transactions.write(dynamo,
                TransactWriteItem.builder().put(p -> p.tableName(table).item(marker)
                        .conditionExpression("attribute_not_exists(pk)")).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(headerKey(batchId))
                        .updateExpression("ADD #total :items, duplicates :duplicates, sitemapsRead :one,"
                                + " sitemapsReading :minusOne")
                        .conditionExpression("attribute_exists(pk)")
                        .expressionAttributeNames(Map.of("#total", "total"))
                        .expressionAttributeValues(Map.of(":items", n(counts.items()),
                                ":duplicates", n(counts.duplicates()), ":one", n(1), ":minusOne", n(-1))))
                        .build()).isEmpty();
    }

    /** The mark of a sitemap whose list is being read: its place, its cut and its chunks' progress. */
    private static Map<String, AttributeValue> readingKey(String batchId, String sitemapKey) {
        return Map.of("pk", s("B#" + batchId + "#chunks"), "sk", s("S#" + sitemapKey + "#reading"));
    }

    @Override
    public SitemapCut sitemapCut(String batchId, String sitemapKey, int chunks, String summary) {
        try {
            Map<String, AttributeValue> cut = dynamo.updateItem(b -> b.tableName(table)
                    .key(readingKey(batchId, sitemapKey))
                    .updateExpression("SET cutChunks = if_not_exists(cutChunks, :chunks),"
                            + " summary = if_not_exists(summary, :summary)")
                    .conditionExpression("attribute_exists(pk)")
                    .expressionAttributeValues(Map.of(":chunks", n(chunks), ":summary", s(summary)))
                    .returnValues(ReturnValue.ALL_NEW)).attributes();
            return new SitemapCut((int) number(cut, "cutChunks", chunks), requiredString(cut, "summary"));
        } catch (ConditionalCheckFailedException e) {
            throw new IllegalStateException("sitemap " + sitemapKey + " of batch " + batchId + " was not begun", e);
        }
    }

    @Override
    public SitemapProgress sitemapChunkPlanned(String batchId, String sitemapKey, int chunk, ChunkCounts counts,
            Instant at) {
        Map<String, AttributeValue> marker = new HashMap<>(Map.of("pk", s("B#" + batchId + "#chunks"),
                "sk", s("S#" + sitemapKey + "#c" + chunk)));
        marker.put("items", n(counts.items()));
        marker.put("duplicates", n(counts.duplicates()));
        marker.put("plannedAt", n(at.toEpochMilli()));
        // A chunk planned before (the marker exists) adds nothing; the reading mark's cut must exist.
        Optional<List<CancellationReason>> refused = Transactions.write(dynamo,
                TransactWriteItem.builder().put(p -> p.tableName(table).item(marker)
                        .conditionExpression("attribute_not_exists(pk)")).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(readingKey(batchId, sitemapKey))
                        .updateExpression("ADD chunksPlanned :one, plannedItems :items, plannedDuplicates :duplicates")
                        .conditionExpression("attribute_exists(cutChunks)")
                        .expressionAttributeValues(Map.of(":one", n(1), ":items", n(counts.items()),
                                ":duplicates", n(counts.duplicates())))).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(headerKey(batchId))
                        .updateExpression("ADD #total :items, duplicates :duplicates")
                        .conditionExpression("attribute_exists(pk)")
                        .expressionAttributeNames(Map.of("#total", "total"))
                        .expressionAttributeValues(Map.of(":items", n(counts.items()),
                                ":duplicates", n(counts.duplicates())))).build());
        if (refused.isPresent() && !Transactions.CONDITION_FAILED.equals(refused.get().getFirst().code())) {
            throw new IllegalStateException("sitemap " + sitemapKey + " of batch " + batchId
                    + " was not cut, or its batch is gone");
        }
        Map<String, AttributeValue> reading = dynamo.getItem(b -> b.tableName(table)
                .key(readingKey(batchId, sitemapKey)).consistentRead(true)).item();
        if (reading == null || !reading.containsKey("cutChunks")) {
            throw new IllegalStateException("sitemap " + sitemapKey + " of batch " + batchId + " was not cut");
        }
        return new SitemapProgress(new SitemapCut((int) number(reading, "cutChunks", 0),
                requiredString(reading, "summary")), (int) number(reading, "chunksPlanned", 0),
                new ChunkCounts((int) number(reading, "plannedItems", 0),
                        (int) number(reading, "plannedDuplicates", 0)));
    }

    @Override
    public boolean isChunkPlanned(String batchId, int chunk) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(chunkKey(batchId, chunk))
                .consistentRead(true)).item();
        return item != null && !item.isEmpty();
    }

    @Override
    public Ending finishItem(String batchId, String urlHash, Reason reason, String detail, Instant at) {
        ItemState terminal = reason.state();
        Map<String, AttributeValue> itemValues = new HashMap<>();
        itemValues.put(":queued", s(ItemState.QUEUED.wireName()));
        itemValues.put(":state", s(terminal.wireName()));
        itemValues.put(":reason", s(reason.code()));
        itemValues.put(":at", n(at.toEpochMilli()));
        String itemUpdate = "SET #state = :state, reason = :reason, endedAt = :at";
        if (detail != null) {
            itemValues.put(":detail", s(detail));
            itemUpdate += ", detail = :detail";
        }
        String finalUpdate = itemUpdate;
        TransactWriteItem item = TransactWriteItem.builder().update(u -> u.tableName(table)
                .key(itemKey(batchId, urlHash)).updateExpression(finalUpdate)
                .conditionExpression(ITEM_TRANSITION_CONDITION).expressionAttributeNames(Map.of("#state", "state"))
                .expressionAttributeValues(itemValues)).build();
        Optional<List<CancellationReason>> refused = Transactions.write(dynamo, item,
                counted(batchId, urlHash, terminal, NOT_LAST_CONDITION));
        if (refused.isEmpty()) {
            return Ending.ENDED;
        }
        if (Transactions.CONDITION_FAILED.equals(refused.get().get(0).code())) {
            return Ending.ALREADY_ENDED; // already terminal, or never added
        }
        // The shard's last queued item (or a batch with no counters, which cannot have queued items).
        refused = Transactions.write(dynamo, item, counted(batchId, urlHash, terminal, "attribute_exists(pk)"));
        if (refused.isEmpty()) {
            return Ending.ENDED_MAYBE_LAST;
        }
        if (Transactions.CONDITION_FAILED.equals(refused.get().get(0).code())) {
            return Ending.ALREADY_ENDED; // ended by a concurrent delivery in between
        }
        throw new IllegalStateException("batch " + batchId + " has no counter for the item's shard");
    }

    /** The update counting an ending on its shard: one fewer queued, one more in {@code terminal}. */
    private TransactWriteItem counted(String batchId, String urlHash, ItemState terminal, String condition) {
        return TransactWriteItem.builder().update(u -> u.tableName(table).key(counterKey(batchId, shard(urlHash)))
                .updateExpression("ADD #counter :one, #queued :minusOne").conditionExpression(condition)
                .expressionAttributeNames(Map.of("#counter", COUNTER_PREFIX + terminal.wireName(), "#queued", QUEUED))
                .expressionAttributeValues(Map.of(":one", n(1), ":minusOne", n(-1)))).build();
    }

    @Override
    public Optional<BatchStatus> status(String batchId) {
        Map<String, AttributeValue> item = headerItem(batchId, true);
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        BatchHeader header = header(batchId, item);
        Optional<PlanProgress> planning = header.upload().map(u -> number(item, "chunks")
                .map(chunks -> new PlanProgress(chunks.intValue(), (int) number(item, "chunksDone", 0),
                        number(item, "bytes", 0)))
                .orElse(PlanProgress.AWAITING_UPLOAD));
        Map<ItemState, Integer> counts = counts(batchId);
        CallbackState callback = new CallbackState(instant(item, "completionEmittedAt"),
                instant(item, "callbackDeliveredAt"), string(item, "callbackFailure"),
                (int) number(item, "callbackAttempts", 0), number(item, "progressSent", 0));
        return Optional.of(BatchStatus.builder().header(header).terminalCounts(counts)
                .completedAt(instant(item, "completedAt")).cancelledAt(instant(item, "cancelledAt"))
                .planning(planning).callback(callback)
                .sitemaps(new SitemapCounts((int) number(item, "sitemapsReading", 0),
                        (int) number(item, "sitemapsRead", 0)))
                .noticeFailures(new NoticeFailures(number(item, "noticesFailed", 0), string(item, "noticeFailure"),
                        instant(item, "noticeFailedAt")))
                .build());
    }

    /**
     * One eventually consistent read of the header item (half a read unit), none of the counters: the fetchers read
     * it once a second per invocation and batch, which made the header the batch's most read key. A cancellation is
     * thus seen within about a second more. A header not found is read again consistently, so a batch created a
     * moment ago is never taken for an unknown one.
     */
    @Override
    public Optional<BatchOutline> outline(String batchId) {
        Map<String, AttributeValue> item = headerItem(batchId, false);
        if (item == null || item.isEmpty()) {
            item = headerItem(batchId, true);
        }
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new BatchOutline(header(batchId, item), instant(item, "cancelledAt")));
    }

    private Map<String, AttributeValue> headerItem(String batchId, boolean consistent) {
        return dynamo.getItem(b -> b.tableName(table).key(headerKey(batchId)).consistentRead(consistent)).item();
    }

    private static BatchHeader header(String batchId, Map<String, AttributeValue> item) {
        List<Rejection> rejected = item.getOrDefault("rejected", AttributeValue.fromL(List.of())).l().stream()
                .map(v -> new Rejection(string(v.m(), "url").orElse(null), string(v.m(), "reason").orElse("")))
                .toList();
        BatchOptions options = BatchOptions.builder().callbackUrl(string(item, "callbackUrl"))
                .recrawlAfter(string(item, "recrawlAfter").map(Duration::parse))
                .progressEvery(string(item, "progressEvery").map(Duration::parse)).capture(bool(item, "capture"))
                .markdown(bool(item, "markdown"))
                .notices(notices(item)).build();
        return BatchHeader.builder().batchId(batchId).total((int) requiredNumber(item, "total"))
                .duplicates((int) requiredNumber(item, "duplicates")).rejected(rejected)
                .rejectedCount((int) requiredNumber(item, "rejectedCount")).source(source(item))
                .createdAt(Instant.ofEpochMilli(requiredNumber(item, "createdAt"))).options(options)
                .fingerprint(string(item, "fingerprint").orElse(""))
                .upload(string(item, "upload").flatMap(UploadFormat::fromWireName))
                .client(string(item, "client").orElse("")).build();
    }

    /**
     * The notices a batch asked for, by wire name: none on a header written before the option existed; a name this
     * code does not know (written by a newer version) is skipped.
     */
    private static Set<BatchOptions.Notice> notices(Map<String, AttributeValue> item) {
        AttributeValue names = item.get("notify");
        if (names == null || !names.hasSs()) {
            return Set.of();
        }
        Set<BatchOptions.Notice> notices = EnumSet.noneOf(BatchOptions.Notice.class);
        names.ss().forEach(name -> BatchOptions.Notice.fromWireName(name).ifPresent(notices::add));
        return notices;
    }

    /** The terminal counts, summed over the counter shards, read consistently in one BatchGetItem. */
    private Map<ItemState, Integer> counts(String batchId) {
        List<Map<String, AttributeValue>> keys = IntStream.range(0, COUNTER_SHARDS)
                .mapToObj(i -> counterKey(batchId, i))
                .toList();
        Map<ItemState, Integer> counts = new EnumMap<>(ItemState.class);
        for (Map<String, AttributeValue> shard : BatchGets.all(dynamo, table, keys, true)) {
            for (ItemState state : ItemState.values()) {
                number(shard, COUNTER_PREFIX + state.wireName())
                        .ifPresent(c -> counts.merge(state, c.intValue(), Integer::sum));
            }
        }
        return counts;
    }

    @Override
    public boolean markCompleted(String batchId, Instant at) {
        return setOnce(batchId, "completedAt", at);
    }

    @Override
    public boolean markCompletionEmitted(String batchId, Instant at) {
        return setOnce(batchId, "completionEmittedAt", at);
    }

    @Override
    public void recordCallbackDelivered(String batchId, Instant at, int attempts) {
        updateHeader(batchId, "callbackDeliveredAt = :at, callbackAttempts = :n", " REMOVE callbackFailure",
                "attribute_exists(pk) AND attribute_not_exists(callbackDeliveredAt)", Map.of(),
                Map.of(":at", n(at.toEpochMilli()), ":n", n(attempts)));
    }

    @Override
    public void recordCallbackFailed(String batchId, String reason, int attempts, Instant at) {
        updateHeader(batchId, "callbackFailure = :reason, callbackFailedAt = :at, callbackAttempts = :n", "",
                "attribute_exists(pk) AND attribute_not_exists(callbackDeliveredAt)", Map.of(),
                Map.of(":reason", s(reason), ":at", n(at.toEpochMilli()), ":n", n(attempts)));
    }

    /**
     * One update that counts and keeps the latest reason. The count is an ADD, which must not apply twice: its token
     * refuses the SDK's second attempt of a call whose first applied ({@value #NOTICE_FAILED_CONDITION}), instead of
     * admitting it as {@link WriterToken#condition} would. Only another write to the header in between (a new token)
     * would let the repeat count twice.
     */
    @Override
    public void recordChangeNoticeFailed(String batchId, String reason, Instant at) {
        WriterToken writer = WriterToken.fresh();
        try {
            dynamo.updateItem(b -> b.tableName(table).key(headerKey(batchId))
                    .updateExpression("SET noticeFailure = :reason, noticeFailedAt = :at, " + WriterToken.set()
                            + " ADD noticesFailed :one")
                    .conditionExpression(NOTICE_FAILED_CONDITION)
                    .expressionAttributeValues(writer.values(Map.of(":reason", s(reason), ":at", n(at.toEpochMilli()),
                            ":one", n(1)))));
        } catch (ConditionalCheckFailedException unknownOrCounted) {
            // no such batch, or this very call counted already
        }
    }

    @Override
    public boolean markProgressSent(String batchId, long sequence) {
        return updateHeader(batchId, "progressSent = :n", "",
                "attribute_exists(pk) AND (attribute_not_exists(progressSent) OR progressSent < :n)", Map.of(),
                Map.of(":n", n(sequence)));
    }

    @Override
    public boolean markCancelled(String batchId, Instant at) {
        return setOnce(batchId, "cancelledAt", at);
    }

    /** Sets a time attribute of an existing header unless it is already set. */
    private boolean setOnce(String batchId, String attribute, Instant at) {
        return updateHeader(batchId, "#at = :at", "", SET_ONCE_CONDITION, Map.of("#at", attribute),
                Map.of(":at", n(at.toEpochMilli())));
    }

    /**
     * One conditional update of the header: {@code sets} (SET clauses, without the keyword), then {@code rest} (a
     * REMOVE, or nothing). The header's marks are each recorded once, and the call that recorded one acts on it
     * (emits the completion, posts the progress report); so the update carries its {@link WriterToken}, and the SDK's
     * retry of an update that landed finds it recorded by this very call, not by another. Returns false when the
     * condition refused it.
     */
    private boolean updateHeader(String batchId, String sets, String rest, String condition,
            Map<String, String> names, Map<String, AttributeValue> values) {
        WriterToken writer = WriterToken.fresh();
        try {
            dynamo.updateItem(b -> b.tableName(table).key(headerKey(batchId))
                    .updateExpression("SET " + sets + ", " + WriterToken.set() + rest)
                    .conditionExpression(WriterToken.condition(condition))
                    .expressionAttributeNames(names.isEmpty() ? null : names)
                    .expressionAttributeValues(writer.values(values)));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /**
     * Walks the {@value #ITEM_PARTITIONS} item partitions in order, querying each from where the cursor left off. The
     * cursor names the partition and the last sort key returned; it is opaque to clients.
     */
    @Override
    public ItemPage items(String batchId, Optional<ItemState> state, Optional<String> cursor, int limit) {
        ItemCursor at = cursor.map(ItemCursor::decode).orElse(ItemCursor.START);
        List<BatchItem> page = new ArrayList<>();
        int shard = at.shard();
        Optional<String> after = at.afterSk();
        while (shard < ITEM_PARTITIONS && page.size() < limit) {
            Map<String, AttributeValue> values = new HashMap<>();
            values.put(":pk", s(itemPartition(batchId, shard)));
            StringBuilder keyCondition = new StringBuilder("pk = :pk");
            after.ifPresent(sk -> {
                values.put(":after", s(sk));
                keyCondition.append(" AND sk > :after");
            });
            QueryRequest.Builder query = QueryRequest.builder().tableName(table)
                    .keyConditionExpression(keyCondition.toString()).consistentRead(true).limit(limit - page.size());
            state.ifPresent(st -> {
                values.put(":state", s(st.wireName()));
                query.filterExpression("#state = :state").expressionAttributeNames(Map.of("#state", "state"));
            });
            QueryResponse response = dynamo.query(query.expressionAttributeValues(values).build());
            response.items().forEach(item -> page.add(batchItem(item)));
            if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()) {
                after = Optional.of(response.lastEvaluatedKey().get("sk").s());
            } else {
                shard++;
                after = Optional.empty();
            }
        }
        Optional<String> next = shard < ITEM_PARTITIONS
                ? Optional.of(new ItemCursor(shard, after).encode()) : Optional.empty();
        return new ItemPage(page, next);
    }

    /** Where a listing stopped: an item partition's index and the last sort key read in it. */
    record ItemCursor(int shard, Optional<String> afterSk) {
        static final ItemCursor START = new ItemCursor(0, Optional.empty());
        private static final String VERSION = "v1";

        String encode() {
            String raw = VERSION + ":" + shard + ":" + afterSk.orElse("");
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        static ItemCursor decode(String cursor) {
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8)
                        .split(":", 3);
                int shard = Integer.parseInt(parts[1]);
                if (parts.length != 3 || !VERSION.equals(parts[0]) || shard < 0 || shard >= ITEM_PARTITIONS
                        || !(parts[2].isEmpty() || parts[2].startsWith("U#"))) {
                    throw new IllegalArgumentException();
                }
                return new ItemCursor(shard, parts[2].isEmpty() ? Optional.empty() : Optional.of(parts[2]));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("invalid cursor: " + cursor);
            }
        }
    }
}
