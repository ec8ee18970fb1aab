package io.spiderling.local.cost;

import io.spiderling.catalog.Table;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionSizeLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * A scale model of DynamoDB's throughput limits on the embedded stack ({@code --scale-model N}): DynamoDB Local has
 * none, so a design whose hot key would throttle on AWS at 10,000 URLs/s runs smoothly at 10 URLs/s here. Dividing the
 * limits by N makes the local rate stand for N times itself: choose N = 10,000 ÷ the local URLs/s.
 *
 * <ul>
 *   <li>Per partition-key value: {@value KeyLoadReport#KEY_WRU_PER_S} WRU/s and {@value KeyLoadReport#KEY_RRU_PER_S}
 *       RRU/s ÷ N, with up to {@value #BURST_SECONDS} s of unused capacity saved for bursts ({@link TokenBucket}); a
 *       key starts with a full burst ({@link #START_SECONDS}). Over it, AWS answers ProvisionedThroughputExceededException
 *       (throttling reason {@code Table<Read|Write>KeyRangeThroughputExceeded}), on on-demand tables too.</li>
 *   <li>Per table: the per-table quota docs/capacity.md asks to request ({@link KeyLoadReport#quota}, 200,000 RRU/s
 *       and WRU/s; AWS's default is 40,000) ÷ N, the same burst. Over it, AWS answers ThrottlingException (reason {@code Table<Read|Write>AccountLimitExceeded}).</li>
 *   <li>Item collections of a table with a local index: at most {@value #ITEM_COLLECTION_BYTES} bytes, not divided
 *       (the size does not scale with the rate), counted as an upper bound from the bytes written to each; over it a
 *       write that could grow the collection gets ItemCollectionSizeLimitExceededException.</li>
 *   <li>Keys of a site-bound {@link KeyShape} (a site's rate item, robots.txt copy, frontier) keep their real limits:
 *       the site's allowed rate bounds their load, and that does not shrink with N.</li>
 * </ul>
 *
 * <p>A call is refused before it reaches DynamoDB Local, on each attempt (the SDK retries throttles, with back-off, as
 * it does on AWS), when a key or table it touches has no units left; it is charged after it ran, from the meter's own
 * units per key ({@link KeyAttribution}, told through {@link Metering#listen}), so the model and the meter cannot
 * disagree. A transaction is cancelled instead, as AWS does: TransactionCanceledException whose reasons say
 * {@code ProvisionedThroughputExceeded} (a key) or {@code ThrottlingError} (the table) for the actions concerned. A
 * BatchWriteItem or BatchGetItem leaves the items of throttled keys unprocessed, and is refused whole only when every
 * item's key is throttled. A Scan is limited by its table only (it reads every partition). Throttles are counted per
 * key (a table's under the pseudo-key {@value #TABLE_KEY}) for each refused attempt.
 */
public final class ScaleModel implements ExecutionInterceptor {

    /** Seconds of unused capacity a key or table saves for bursts. */
    public static final double BURST_SECONDS = 300;
    /**
     * Seconds of capacity a key or table holds when first used: a full burst, as a partition that has been idle has
     * (and a new on-demand table can take 4,000 WRU at once). Without it a local batch's planning, which writes its
     * rows at once, would be throttled for a burst that AWS absorbs.
     */
    public static final double START_SECONDS = BURST_SECONDS;
    /** The largest item collection of a table with a local secondary index. */
    public static final long ITEM_COLLECTION_BYTES = 10L * 1024 * 1024 * 1024;
    /** The pseudo-key under which a table's own throttles are counted. */
    public static final String TABLE_KEY = "(table)";

    private static final ExecutionAttribute<Map<String, List<WriteRequest>>> HELD_WRITES =
            new ExecutionAttribute<>("spiderling.scale.heldWrites");
    private static final ExecutionAttribute<Map<String, KeysAndAttributes>> HELD_READS =
            new ExecutionAttribute<>("spiderling.scale.heldReads");

    private final double n;
    private final double startSeconds;
    private final Clock clock;
    private final Map<Usage.Key, TokenBucket> keyReads = new ConcurrentHashMap<>();
    private final Map<Usage.Key, TokenBucket> keyWrites = new ConcurrentHashMap<>();
    private final Map<String, TokenBucket> tableReads = new ConcurrentHashMap<>();
    private final Map<String, TokenBucket> tableWrites = new ConcurrentHashMap<>();
    private final Map<Usage.Key, LongAdder> throttles = new ConcurrentHashMap<>();
    private final Map<Usage.Key, Double> collectionBytes = new ConcurrentHashMap<>();

    private ScaleModel(double n, double startSeconds, Clock clock) {
        if (n < 1) {
            throw new IllegalArgumentException("the scale model divides AWS's limits by N >= 1, not " + n);
        }
        this.n = n;
        this.startSeconds = startSeconds;
        this.clock = clock;
    }

    /**
     * A model of AWS's limits ÷ {@code n}, charged from {@code metering}'s units per key; it must bill
     * ({@link Metering#billing()}), and its interceptor must come after this one on the clients.
     */
    public static ScaleModel on(Metering metering, double n, Clock clock) {
        return on(metering, n, START_SECONDS, clock);
    }

    /** The same, with keys and tables holding {@code startSeconds} of capacity when first used. */
    static ScaleModel on(Metering metering, double n, double startSeconds, Clock clock) {
        if (!metering.bills()) {
            throw new IllegalArgumentException("the scale model charges the units a billing meter works out");
        }
        ScaleModel model = new ScaleModel(n, startSeconds, clock);
        metering.listen(model::charged);
        return model;
    }

    public double n() {
        return n;
    }

    /** A key's limit: a partition's ÷ N, or a partition's for a site-bound key. */
    TokenBucket.Limit keyLimit(Usage.Key key, boolean write) {
        TokenBucket.Limit limit = new TokenBucket.Limit(write ? KeyLoadReport.KEY_WRU_PER_S
                : KeyLoadReport.KEY_RRU_PER_S, BURST_SECONDS, startSeconds);
        return key.shape().siteBound() ? limit : limit.scaledDown(n);
    }

    TokenBucket.Limit tableLimit(String table) {
        return new TokenBucket.Limit(KeyLoadReport.quota(table), BURST_SECONDS, startSeconds).scaledDown(n);
    }

    /** Units a call was billed, per key: charged to its keys' and tables' buckets. */
    void charged(List<KeyAttribution.Charge> charges) {
        Instant now = clock.instant();
        Map<String, double[]> tables = new HashMap<>();
        for (KeyAttribution.Charge c : charges) {
            if (limited(c.key())) {
                if (c.read() > 0) {
                    keyReads.compute(c.key(), (k, b) -> bucket(b, keyLimit(k, false), now).charge(keyLimit(k, false),
                            c.read(), now));
                }
                if (c.write() > 0) {
                    keyWrites.compute(c.key(), (k, b) -> bucket(b, keyLimit(k, true), now).charge(keyLimit(k, true),
                            c.write(), now));
                }
            }
            double[] t = tables.computeIfAbsent(c.key().table(), x -> new double[2]);
            t[0] += c.read();
            t[1] += c.write();
        }
        tables.forEach((table, units) -> {
            if (units[0] > 0) {
                tableReads.compute(table, (k, b) -> bucket(b, tableLimit(k), now).charge(tableLimit(k), units[0], now));
            }
            if (units[1] > 0) {
                tableWrites.compute(table, (k, b) -> bucket(b, tableLimit(k), now).charge(tableLimit(k), units[1],
                        now));
            }
        });
    }

    /** Batches: the items of throttled keys are held back, to come back unprocessed, unless every item's key is. */
    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        return holdBack(context.request(), attributes);
    }

    private SdkRequest holdBack(SdkRequest request, ExecutionAttributes attributes) {
        Instant now = clock.instant();
        return switch (request) {
            case BatchWriteItemRequest r -> {
                Map<String, List<WriteRequest>> send = new LinkedHashMap<>();
                Map<String, List<WriteRequest>> held = new LinkedHashMap<>();
                r.requestItems().forEach((table, writes) -> writes.forEach(w -> {
                    Usage.Key key = KeyAttribution.key(table, w.putRequest() != null ? w.putRequest().item()
                            : w.deleteRequest().key());
                    (over(key, true, now) ? held : send).computeIfAbsent(table, t -> new ArrayList<>()).add(w);
                }));
                if (held.isEmpty() || send.isEmpty()) {
                    yield r;
                }
                held.values().forEach(h -> h.forEach(w -> count(key(w, held), 1)));
                attributes.putAttribute(HELD_WRITES, held);
                yield r.toBuilder().requestItems(send).build();
            }
            case BatchGetItemRequest r -> {
                Map<String, KeysAndAttributes> send = new LinkedHashMap<>();
                Map<String, KeysAndAttributes> held = new LinkedHashMap<>();
                r.requestItems().forEach((table, asked) -> {
                    List<Map<String, AttributeValue>> go =
                            new ArrayList<>();
                    List<Map<String, AttributeValue>> hold =
                            new ArrayList<>();
                    asked.keys().forEach(k -> (over(KeyAttribution.key(table, k), false, now) ? hold : go).add(k));
                    if (!go.isEmpty()) {
                        send.put(table, asked.toBuilder().keys(go).build());
                    }
                    if (!hold.isEmpty()) {
                        held.put(table, asked.toBuilder().keys(hold).build());
                        hold.forEach(k -> count(KeyAttribution.key(table, k), 1));
                    }
                });
                if (held.isEmpty() || send.isEmpty()) {
                    yield r;
                }
                attributes.putAttribute(HELD_READS, held);
                yield r.toBuilder().requestItems(send).build();
            }
            default -> request;
        };
    }

    /** Each attempt: refused as AWS refuses it when a table or key it touches is over its limit. */
    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        if (!"DynamoDb".equals(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME))) {
            return;
        }
        SdkRequest request = context.request();
        List<Usage.Key> keys = KeyAttribution.touched(request);
        if (keys.isEmpty()) {
            return;
        }
        boolean write = writes(request);
        Instant now = clock.instant();
        Set<String> tables = new java.util.LinkedHashSet<>();
        keys.forEach(k -> tables.add(k.table()));
        for (String table : tables) {
            TokenBucket bucket = (write ? tableWrites : tableReads).get(table);
            if (bucket != null && !bucket.admits(tableLimit(table), now)) {
                count(new Usage.Key(table, TABLE_KEY), 1);
                throw refusal(request, keys, k -> k.table().equals(table), write, false, table);
            }
        }
        List<Usage.Key> over = keys.stream().filter(k -> over(k, write, now)).toList();
        boolean batch = request instanceof BatchWriteItemRequest || request instanceof BatchGetItemRequest;
        if (!over.isEmpty() && (!batch || over.size() == keys.size())) {
            over.forEach(k -> count(k, 1));
            throw refusal(request, keys, over::contains, write, true, over.getFirst().table());
        }
        if (write && grows(request)) {
            for (Usage.Key key : keys) {
                if (collectionBytes.getOrDefault(key, 0.0) >= ITEM_COLLECTION_BYTES) {
                    count(key, 1);
                    throw ItemCollectionSizeLimitExceededException.builder().statusCode(400)
                            .message("Item collection size limit exceeded (scale model): " + key)
                            .awsErrorDetails(details("ItemCollectionSizeLimitExceededException")).build();
                }
            }
        }
    }

    /** Batches: the held-back items come back unprocessed; item collection sizes are noted. */
    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        SdkResponse response = context.response();
        noteCollections(context.request());
        if (response instanceof BatchWriteItemResponse r) {
            Map<String, List<WriteRequest>> held = attributes.getAttribute(HELD_WRITES);
            if (held != null) {
                Map<String, List<WriteRequest>> unprocessed = new LinkedHashMap<>();
                if (r.hasUnprocessedItems()) {
                    r.unprocessedItems().forEach((t, w) -> unprocessed.put(t, new ArrayList<>(w)));
                }
                held.forEach((t, w) -> unprocessed.computeIfAbsent(t, x -> new ArrayList<>()).addAll(w));
                return r.toBuilder().unprocessedItems(unprocessed).build();
            }
        }
        if (response instanceof BatchGetItemResponse r) {
            Map<String, KeysAndAttributes> held = attributes.getAttribute(HELD_READS);
            if (held != null) {
                Map<String, KeysAndAttributes> unprocessed = new LinkedHashMap<>();
                if (r.hasUnprocessedKeys()) {
                    unprocessed.putAll(r.unprocessedKeys());
                }
                held.forEach((t, k) -> unprocessed.merge(t, k, (a, b) -> a.toBuilder()
                        .keys(java.util.stream.Stream.concat(a.keys().stream(), b.keys().stream()).toList()).build()));
                return r.toBuilder().unprocessedKeys(unprocessed).build();
            }
        }
        return response;
    }

    /** The bytes written to {@code key}'s item collection so far (an upper bound of its size), if any. */
    Optional<Double> collectionBytes(Usage.Key key) {
        return Optional.ofNullable(collectionBytes.get(key));
    }

    /** The throttled attempts so far, per key (a table's under {@link #TABLE_KEY}). */
    public Map<Usage.Key, Long> throttles() {
        Map<Usage.Key, Long> counts = new TreeMap<>();
        throttles.forEach((k, v) -> counts.put(k, v.sum()));
        return counts;
    }

    /** The throttles since {@code before} ({@link #throttles()} then), per key shape with the most throttled key. */
    public String report(Map<Usage.Key, Long> before) {
        Map<Usage.Key, Long> since = new TreeMap<>();
        throttles().forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d > 0) {
                since.put(k, d);
            }
        });
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "scale model (AWS's limits / %s: a key %s"
                + " WRU/s and %s RRU/s, site-bound keys unscaled; a table %s RU/s): %,d throttled attempts%n",
                CostReport.num(n), CostReport.num(KeyLoadReport.KEY_WRU_PER_S / n),
                CostReport.num(KeyLoadReport.KEY_RRU_PER_S / n), CostReport.num(KeyLoadReport.REQUESTED_TABLE_QUOTA / n),
                since.values().stream().mapToLong(Long::longValue).sum()));
        Map<String, Map.Entry<Usage.Key, Long>> hottest = new TreeMap<>();
        Map<String, long[]> sums = new TreeMap<>();
        since.forEach((k, v) -> {
            String shape = k.table() + " " + (k.key().equals(TABLE_KEY) ? TABLE_KEY : k.shape().label());
            long[] s = sums.computeIfAbsent(shape, x -> new long[2]);
            s[0] += v;
            s[1]++;
            hottest.merge(shape, Map.entry(k, v), (a, b) -> a.getValue() >= b.getValue() ? a : b);
        });
        sums.forEach((shape, s) -> out.append(String.format(Locale.ROOT, "  %-34s %,9d throttles over %,d keys; most:"
                + " %s (%,d)%n", shape, s[0], s[1], hottest.get(shape).getKey().key(), hottest.get(shape).getValue())));
        return out.toString();
    }

    private boolean over(Usage.Key key, boolean write, Instant now) {
        if (!limited(key)) {
            return false;
        }
        TokenBucket bucket = (write ? keyWrites : keyReads).get(key);
        return bucket != null && !bucket.admits(keyLimit(key, write), now);
    }

    private static boolean limited(Usage.Key key) {
        return !key.key().equals(KeyShape.SCAN_KEY) && !key.key().equals(KeyAttribution.UNKNOWN_KEY);
    }

    private static TokenBucket bucket(TokenBucket current, TokenBucket.Limit limit, Instant now) {
        return current != null ? current : TokenBucket.start(limit, now);
    }

    private void count(Usage.Key key, long attempts) {
        throttles.computeIfAbsent(key, k -> new LongAdder()).add(attempts);
    }

    private static Usage.Key key(WriteRequest w, Map<String, List<WriteRequest>> held) {
        for (Map.Entry<String, List<WriteRequest>> e : held.entrySet()) {
            if (e.getValue().contains(w)) {
                return KeyAttribution.key(e.getKey(), w.putRequest() != null ? w.putRequest().item()
                        : w.deleteRequest().key());
            }
        }
        throw new IllegalStateException("not held: " + w);
    }

    private static boolean writes(SdkRequest request) {
        return request instanceof PutItemRequest || request instanceof UpdateItemRequest
                || request instanceof DeleteItemRequest || request instanceof BatchWriteItemRequest
                || request instanceof TransactWriteItemsRequest;
    }

    /** Whether a write can make an item collection larger: anything but a delete. */
    private static boolean grows(SdkRequest request) {
        return !(request instanceof DeleteItemRequest);
    }

    /**
     * Adds what an applied write put into item collections of tables with a local index: a put's item, an update's
     * values. Nothing is taken off for deletes or replaced items, so the figure is an upper bound, which can only make
     * the model stricter than AWS; local runs stay far below 10 GB either way. (DynamoDB Local does not return the
     * size estimates AWS gives with {@code ReturnItemCollectionMetrics}.)
     */
    private void noteCollections(SdkRequest request) {
        switch (request) {
            case PutItemRequest r -> grow(r.tableName(), r.item(), CapacityUnits.itemSize(r.item()));
            case UpdateItemRequest r -> grow(r.tableName(), r.key(), r.hasExpressionAttributeValues()
                    ? CapacityUnits.itemSize(r.expressionAttributeValues()) : 0);
            case BatchWriteItemRequest r -> r.requestItems().forEach((t, writes) -> writes.stream()
                    .filter(w -> w.putRequest() != null).forEach(w -> grow(t, w.putRequest().item(),
                            CapacityUnits.itemSize(w.putRequest().item()))));
            case TransactWriteItemsRequest r -> r.transactItems().stream().filter(a -> a.put() != null)
                    .forEach(a -> grow(a.put().tableName(), a.put().item(), CapacityUnits.itemSize(a.put().item())));
            default -> { }
        }
    }

    private void grow(String tableName, Map<String, AttributeValue> keyOrItem, long bytes) {
        if (TransactionItems.table(tableName).filter(t -> !t.localIndexes().isEmpty()).isPresent()) {
            collectionBytes.merge(KeyAttribution.key(tableName, keyOrItem), (double) bytes, Double::sum);
        }
    }

    /** What AWS answers a throttled call: see the class comment. */
    private static AwsServiceException refusal(SdkRequest request, List<Usage.Key> keys,
            java.util.function.Predicate<Usage.Key> throttled, boolean write, boolean key, String table) {
        String reason = "Table" + (write ? "Write" : "Read") + (key ? "KeyRangeThroughputExceeded"
                : "AccountLimitExceeded");
        String message = "Throughput exceeds the scale model's " + (key ? "per-key" : "per-table") + " limit ("
                + reason + ")";
        if (request instanceof TransactWriteItemsRequest tx) {
            List<CancellationReason> reasons = tx.transactItems().stream().map(a -> throttled.test(
                    KeyAttribution.action(a)) ? CancellationReason.builder().code(key ? "ProvisionedThroughputExceeded"
                    : "ThrottlingError").message(message).build() : CancellationReason.builder().code("None").build())
                    .toList();
            return TransactionCanceledException.builder().statusCode(400).message("Transaction cancelled, please"
                    + " refer cancellation reasons for specific reasons " + reasons.stream().map(CancellationReason::code)
                    .toList()).cancellationReasons(reasons).awsErrorDetails(details("TransactionCanceledException"))
                    .build();
        }
        ThrottlingReason why = ThrottlingReason.builder().reason(reason).resource("table/" + table).build();
        return key ? ProvisionedThroughputExceededException.builder().statusCode(400).message(message)
                .throttlingReasons(why).awsErrorDetails(details("ProvisionedThroughputExceededException")).build()
                : ThrottlingException.builder().statusCode(400).message(message).throttlingReasons(why)
                        .awsErrorDetails(details("ThrottlingException")).build();
    }

    private static AwsErrorDetails details(String code) {
        return AwsErrorDetails.builder().errorCode(code).serviceName("DynamoDb").build();
    }
}
