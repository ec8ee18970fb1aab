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
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.CallbackState;
import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.batch.ManifestLine;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.port.BatchHeaderStore;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.port.UploadPlanStore;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The batch headers, items and upload planning on the {@code batches} table (keys {@code pk}, {@code sk}): one class
 * for three ports, because ending an item, recording an invalid line and planning a chunk each count on the header in
 * the same transaction as their own write. The origin lists are {@link DynamoDbBatchOriginStore}'s.
 *
 * <ul>
 *   <li>Header: {@code pk = B#<batchId>}, {@code sk = H}; holds the total and one counter per terminal state.</li>
 *   <li>Items: {@code pk = B#<batchId>#<shard>}, {@code sk = U#<urlHash>}, where the shard is the first hex digit of
 *       the URL hash, so a 10,000-URL batch spreads over 16 partitions instead of one.</li>
 * </ul>
 *
 * <p>Uploads add {@code upload} (the format), {@code chunks}, {@code chunksDone} and {@code bytes} to the header, and
 * one marker per planned chunk: {@code pk = B#<batchId>#chunks}, {@code sk = C#<chunk>}. Items carry {@code pos}, their
 * position in the manifest, which tells a duplicate from the same line planned again.
 *
 * <p>Ending an item is one transaction: the item's conditional move out of {@code queued} and the header's counter
 * increment succeed or fail together, so counts stay exact under duplicate deliveries and crashes.
 */
public final class DynamoDbBatchStore implements BatchHeaderStore, BatchItemStore, UploadPlanStore {

    static final String HEADER_SK = "H";
    /** Item shards, named by the first hex digit of the URL hash. */
    private static final String SHARDS = "0123456789abcdef";
    static final String ITEM_TRANSITION_CONDITION = "#state = :queued";
    /** Completion and cancellation are each recorded once, on an existing header; {@code #at} names which. */
    static final String SET_ONCE_CONDITION = "attribute_exists(pk) AND attribute_not_exists(#at)";
    private static final String COUNTER_PREFIX = "n_";
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
        return Map.of("pk", s("B#" + batchId + "#" + urlHash.charAt(0)), "sk", s("U#" + urlHash));
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
     * Writes the items in transactions of up to {@value #MAX_TRANSACTION} conditional puts. A put refused because
     * the item exists tells, from the old item returned with the refusal, whether it is this entry's own item from an
     * earlier attempt (same position) or a duplicate; the rest of a refused transaction is written again without it.
     * A manifest with no duplicates thus costs one call per hundred URLs.
     */
    @Override
    public List<Added> addEntries(String batchId, List<ManifestEntry> entries, Instant now) {
        Added[] added = new Added[entries.size()];
        for (int from = 0; from < entries.size(); from += MAX_TRANSACTION) {
            List<Integer> todo = new ArrayList<>();
            for (int i = from; i < Math.min(entries.size(), from + MAX_TRANSACTION); i++) {
                todo.add(i);
            }
            while (!todo.isEmpty()) {
                List<TransactWriteItem> puts = todo.stream()
                        .map(i -> TransactWriteItem.builder().put(p -> p.tableName(table)
                                .item(queuedItem(batchId, entries.get(i), now))
                                .conditionExpression("attribute_not_exists(pk)")
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                                .build()).toList();
                Optional<List<CancellationReason>> refused =
                        Transactions.write(dynamo, puts.toArray(TransactWriteItem[]::new));
                if (refused.isEmpty()) {
                    todo.forEach(i -> added[i] = Added.CREATED);
                    break;
                }
                List<Integer> again = new ArrayList<>();
                for (int k = 0; k < todo.size(); k++) {
                    CancellationReason reason = refused.get().get(k);
                    int i = todo.get(k);
                    if (Transactions.CONDITION_FAILED.equals(reason.code())) {
                        added[i] = existing(reason.item(), entries.get(i).position());
                    } else {
                        again.add(i);
                    }
                }
                todo = again;
            }
        }
        return List.of(added);
    }

    private static Map<String, AttributeValue> queuedItem(String batchId, ManifestEntry entry, Instant now) {
        NormalizedUrl url = entry.url();
        Map<String, AttributeValue> item = new HashMap<>(itemKey(batchId, url.urlHash()));
        item.put("batchId", s(batchId));
        item.put("url", s(url.value()));
        item.put("urlHash", s(url.urlHash()));
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

    private static BatchSource source(Map<String, AttributeValue> item) {
        String stored = requiredString(item, "source");
        return BatchSource.fromWireName(stored)
                .orElseThrow(() -> new IllegalStateException("unknown batch source " + stored));
    }

    @Override
    public boolean addInvalid(String batchId, long position, String shown, String reason, Instant now) {
        String key = ManifestLine.invalidItemKey(position);
        Map<String, AttributeValue> item = new HashMap<>(itemKey(batchId, key));
        item.put("batchId", s(batchId));
        // DynamoDB refuses empty strings; a line of only a BOM or spaces is blank, so shown is rarely empty
        item.put("url", s(shown.isEmpty() ? "(empty)" : shown));
        item.put("urlHash", s(key));
        item.put("state", s(ItemState.INVALID.wireName()));
        item.put("detail", s(reason));
        item.put("createdAt", n(now.toEpochMilli()));
        item.put("endedAt", n(now.toEpochMilli()));
        item.put("pos", n(position));
        return Transactions.write(dynamo,
                TransactWriteItem.builder().put(p -> p.tableName(table).item(item)
                        .conditionExpression("attribute_not_exists(pk)")).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(headerKey(batchId))
                        .updateExpression("ADD #counter :one").conditionExpression("attribute_exists(pk)")
                        .expressionAttributeNames(Map.of("#counter", COUNTER_PREFIX + ItemState.INVALID.wireName()))
                        .expressionAttributeValues(Map.of(":one", n(1)))).build()).isEmpty();
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
    public boolean isChunkPlanned(String batchId, int chunk) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(chunkKey(batchId, chunk))
                .consistentRead(true)).item();
        return item != null && !item.isEmpty();
    }

    @Override
    public boolean finishItem(String batchId, String urlHash, ItemState terminal, String detail, Instant at) {
        if (!terminal.terminal()) {
            throw new IllegalArgumentException("not a terminal state: " + terminal);
        }
        Map<String, AttributeValue> itemValues = new HashMap<>();
        itemValues.put(":queued", s(ItemState.QUEUED.wireName()));
        itemValues.put(":state", s(terminal.wireName()));
        itemValues.put(":at", n(at.toEpochMilli()));
        String itemUpdate = "SET #state = :state, endedAt = :at";
        if (detail != null) {
            itemValues.put(":detail", s(detail));
            itemUpdate += ", detail = :detail";
        }
        String finalUpdate = itemUpdate;
        TransactWriteItem item = TransactWriteItem.builder().update(u -> u.tableName(table)
                .key(itemKey(batchId, urlHash)).updateExpression(finalUpdate)
                .conditionExpression(ITEM_TRANSITION_CONDITION).expressionAttributeNames(Map.of("#state", "state"))
                .expressionAttributeValues(itemValues)).build();
        TransactWriteItem counter = TransactWriteItem.builder().update(u -> u.tableName(table).key(headerKey(batchId))
                .updateExpression("ADD #counter :one").conditionExpression("attribute_exists(pk)")
                .expressionAttributeNames(Map.of("#counter", COUNTER_PREFIX + terminal.wireName()))
                .expressionAttributeValues(Map.of(":one", n(1)))).build();
        Optional<List<CancellationReason>> refused = Transactions.write(dynamo, item, counter);
        if (refused.isEmpty()) {
            return true;
        }
        if (Transactions.CONDITION_FAILED.equals(refused.get().get(0).code())) {
            return false; // already terminal, or never added
        }
        throw new IllegalStateException("batch " + batchId + " has no header");
    }

    @Override
    public Optional<BatchStatus> status(String batchId) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(headerKey(batchId))
                .consistentRead(true)).item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        List<Rejection> rejected = item.getOrDefault("rejected", AttributeValue.fromL(List.of())).l().stream()
                .map(v -> new Rejection(string(v.m(), "url").orElse(null), string(v.m(), "reason").orElse("")))
                .toList();
        BatchOptions options = new BatchOptions(string(item, "callbackUrl"),
                string(item, "recrawlAfter").map(Duration::parse), string(item, "progressEvery").map(Duration::parse),
                bool(item, "capture"));
        Optional<UploadFormat> upload = string(item, "upload").flatMap(UploadFormat::fromWireName);
        BatchHeader header = BatchHeader.builder().batchId(batchId).total((int) requiredNumber(item, "total"))
                .duplicates((int) requiredNumber(item, "duplicates")).rejected(rejected)
                .rejectedCount((int) requiredNumber(item, "rejectedCount")).source(source(item))
                .createdAt(Instant.ofEpochMilli(requiredNumber(item, "createdAt"))).options(options)
                .fingerprint(string(item, "fingerprint").orElse("")).upload(upload)
                .client(string(item, "client").orElse("")).build();
        Optional<PlanProgress> planning = upload.map(u -> number(item, "chunks")
                .map(chunks -> new PlanProgress(chunks.intValue(), (int) number(item, "chunksDone", 0),
                        number(item, "bytes", 0)))
                .orElse(PlanProgress.AWAITING_UPLOAD));
        Map<ItemState, Integer> counts = new EnumMap<>(ItemState.class);
        for (ItemState state : ItemState.values()) {
            number(item, COUNTER_PREFIX + state.wireName()).ifPresent(c -> counts.put(state, c.intValue()));
        }
        CallbackState callback = new CallbackState(instant(item, "completionEmittedAt"),
                instant(item, "callbackDeliveredAt"), string(item, "callbackFailure"),
                (int) number(item, "callbackAttempts", 0), number(item, "progressSent", 0));
        return Optional.of(BatchStatus.builder().header(header).terminalCounts(counts)
                .completedAt(instant(item, "completedAt")).cancelledAt(instant(item, "cancelledAt"))
                .planning(planning).callback(callback).build());
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
     * Walks the 16 item shards in order, querying each from where the cursor left off. The cursor names the shard and
     * the last sort key returned; it is opaque to clients.
     */
    @Override
    public ItemPage items(String batchId, Optional<ItemState> state, Optional<String> cursor, int limit) {
        ItemCursor at = cursor.map(ItemCursor::decode).orElse(ItemCursor.START);
        List<BatchItem> page = new ArrayList<>();
        int shard = at.shard();
        Optional<String> after = at.afterSk();
        while (shard < SHARDS.length() && page.size() < limit) {
            Map<String, AttributeValue> values = new HashMap<>();
            values.put(":pk", s("B#" + batchId + "#" + SHARDS.charAt(shard)));
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
            response.items().forEach(item -> page.add(new BatchItem(string(item, "url").orElse(""),
                    string(item, "urlHash").orElse(""), ItemState.fromWireName(string(item, "state").orElseThrow()),
                    string(item, "detail"), instant(item, "endedAt"))));
            if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()) {
                after = Optional.of(response.lastEvaluatedKey().get("sk").s());
            } else {
                shard++;
                after = Optional.empty();
            }
        }
        Optional<String> next = shard < SHARDS.length()
                ? Optional.of(new ItemCursor(shard, after).encode()) : Optional.empty();
        return new ItemPage(page, next);
    }

    /** Where a listing stopped: a shard index and the last sort key read in it. */
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
                if (parts.length != 3 || !VERSION.equals(parts[0]) || shard < 0 || shard >= SHARDS.length()
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
