package io.spiderling.aws;

import static io.spiderling.aws.Attrs.instant;
import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.s;
import static io.spiderling.aws.Attrs.string;

import io.spiderling.core.port.LinkStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@link LinkStore} on the {@code links} table: one item per link, under its target. The partition key {@code target}
 * is {@code <target hash>#<shard>} and the sort key {@code source} is the linking page's hash; the item also holds
 * {@code sourceUrl}, {@code targetUrl} and {@code seenAt} (epoch milliseconds).
 *
 * <p>A popular target (a site's home page, a CDN script) can have millions of inlinks. Keyed by its hash alone, every
 * page linking to it would write to one partition. The shard, taken from the source hash, spreads those writes over
 * {@code shards} partitions; because it depends only on the source, a later extraction of the same source finds the
 * item it has to delete. Listing inlinks queries every shard and merges them by source hash. The number of shards is
 * part of the table's layout: changing it strands the items already written under the old shards.
 *
 * <p>Writes go through BatchWriteItem, which has no conditions; none are needed, as every put and delete of one call
 * names a different item and repeating them changes nothing.
 */
public final class DynamoDbLinkStore implements LinkStore {

    static final String PARTITION_KEY = "target";
    static final String SORT_KEY = "source";
    public static final int DEFAULT_SHARDS = 8;
    /** Shards come from the first byte of the source hash, so there can be at most 256. */
    public static final int MAX_SHARDS = 256;

    /** {@code source} is a DynamoDB reserved word, so the sort key is named through {@code #source}. */
    static final String FIRST_PAGE = "target = :target";
    static final String NEXT_PAGE = "target = :target AND #source > :after";

    static final int MAX_BATCH_WRITE = 25;
    static final int BATCH_WRITE_ATTEMPTS = 8;
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

    private final DynamoDbClient dynamo;
    private final String table;
    private final int shards;
    private final Backoff throttled;

    public DynamoDbLinkStore(DynamoDbClient dynamo, String table) {
        this(dynamo, table, DEFAULT_SHARDS);
    }

    /** @throws IllegalArgumentException if {@code shards} is not 1 to {@link #MAX_SHARDS} */
    public DynamoDbLinkStore(DynamoDbClient dynamo, String table, int shards) {
        // Unprocessed items mean the table is throttled: wait 10 ms, doubling up to 640 ms, with jitter.
        this(dynamo, table, shards, Backoff.sleeping(10, 640));
    }

    /** @param throttled the pause before sending unprocessed writes again */
    DynamoDbLinkStore(DynamoDbClient dynamo, String table, int shards, Backoff throttled) {
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be 1 to " + MAX_SHARDS + ": " + shards);
        }
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.table = Objects.requireNonNull(table, "table");
        this.shards = shards;
        this.throttled = Objects.requireNonNull(throttled, "throttled");
    }

    /**
     * Puts only the targets not in {@code previous} and deletes only those no longer in {@code targets}: a page
     * re-extracted unchanged writes nothing. At most 2,000 writes, in calls of 25.
     */
    @Override
    public void replaceOutlinks(String sourceHash, String sourceUrl, List<String> previous, List<String> targets,
            Instant at) {
        checkHash("sourceHash", sourceHash);
        Objects.requireNonNull(sourceUrl, "sourceUrl");
        Objects.requireNonNull(at, "at");
        if (targets.size() > MAX_TARGETS || previous.size() > MAX_TARGETS) {
            throw new IllegalArgumentException("at most " + MAX_TARGETS + " outlinks per page, got " + targets.size()
                    + " targets and " + previous.size() + " previous");
        }
        Map<String, String> now = byHash(targets);
        Map<String, String> before = byHash(previous);
        String shard = Integer.toString(shardOf(sourceHash));
        List<WriteRequest> writes = new ArrayList<>();
        now.forEach((targetHash, targetUrl) -> {
            if (!before.containsKey(targetHash)) {
                writes.add(WriteRequest.builder().putRequest(p -> p.item(Map.of(
                        PARTITION_KEY, s(targetHash + "#" + shard),
                        SORT_KEY, s(sourceHash),
                        "sourceUrl", s(sourceUrl),
                        "targetUrl", s(targetUrl),
                        "seenAt", n(at.toEpochMilli())))).build());
            }
        });
        before.keySet().forEach(targetHash -> {
            if (!now.containsKey(targetHash)) {
                writes.add(WriteRequest.builder().deleteRequest(d -> d.key(Map.of(
                        PARTITION_KEY, s(targetHash + "#" + shard),
                        SORT_KEY, s(sourceHash)))).build());
            }
        });
        for (int from = 0; from < writes.size(); from += MAX_BATCH_WRITE) {
            write(writes.subList(from, Math.min(writes.size(), from + MAX_BATCH_WRITE)));
        }
    }

    /**
     * Queries each shard for up to {@code limit} sources after the cursor (eventually consistent reads: the index is
     * only as fresh as the last extraction anyway), then merges them. The cursor is the last source hash returned.
     */
    @Override
    public InlinkPage inlinks(String targetHash, Optional<String> cursor, int limit) {
        checkHash("targetHash", targetHash);
        cursor.ifPresent(c -> checkHash("cursor", c));
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ": " + limit);
        }
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        // A shard that stopped early (at the limit, or at DynamoDB's 1 MB) may hold sources beyond the last one it
        // returned, so the page may only reach the lowest such stopping point.
        Optional<String> horizon = Optional.empty();
        for (int shard = 0; shard < shards; shard++) {
            QueryResponse response = dynamo.query(query(targetHash + "#" + shard, cursor, limit));
            found.addAll(response.items());
            if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()) {
                String stop = response.lastEvaluatedKey().get(SORT_KEY).s();
                horizon = horizon.filter(h -> h.compareTo(stop) <= 0).or(() -> Optional.of(stop));
            }
        }
        Optional<String> bound = horizon;
        List<Inlink> candidates = found.stream()
                .map(DynamoDbLinkStore::inlink)
                .filter(i -> bound.isEmpty() || i.sourceHash().compareTo(bound.get()) <= 0)
                .sorted(Comparator.comparing(Inlink::sourceHash))
                .toList();
        List<Inlink> page = candidates.subList(0, Math.min(limit, candidates.size()));
        boolean more = horizon.isPresent() || candidates.size() > limit;
        return new InlinkPage(page, more ? Optional.of(page.getLast().sourceHash()) : Optional.empty());
    }

    /** The shard of every link from {@code sourceHash}: its first byte, modulo the number of shards. */
    int shardOf(String sourceHash) {
        return Integer.parseInt(sourceHash, 0, 2, 16) % shards;
    }

    QueryRequest query(String partition, Optional<String> after, int limit) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":target", s(partition));
        QueryRequest.Builder b = QueryRequest.builder().tableName(table).limit(limit);
        if (after.isPresent()) {
            values.put(":after", s(after.get()));
            b.keyConditionExpression(NEXT_PAGE).expressionAttributeNames(Map.of("#source", SORT_KEY));
        } else {
            b.keyConditionExpression(FIRST_PAGE);
        }
        return b.expressionAttributeValues(values).build();
    }

    /** One BatchWriteItem of at most 25 requests, with what DynamoDB leaves unprocessed sent again after a pause. */
    private void write(List<WriteRequest> requests) {
        Map<String, List<WriteRequest>> pending = Map.of(table, List.copyOf(requests));
        for (int attempt = 1; ; attempt++) {
            Map<String, List<WriteRequest>> send = pending;
            BatchWriteItemResponse response = dynamo.batchWriteItem(b -> b.requestItems(send));
            if (!response.hasUnprocessedItems() || response.unprocessedItems().isEmpty()) {
                return;
            }
            if (attempt >= BATCH_WRITE_ATTEMPTS) {
                throw new IllegalStateException("DynamoDB left " + response.unprocessedItems().getOrDefault(table,
                        List.of()).size() + " link writes unprocessed after " + attempt + " attempts");
            }
            pending = response.unprocessedItems();
            throttled.pause(attempt, "unprocessed link writes");
        }
    }

    private static Inlink inlink(Map<String, AttributeValue> item) {
        return new Inlink(item.get(SORT_KEY).s(), string(item, "sourceUrl").orElseThrow(),
                instant(item, "seenAt").orElseThrow());
    }

    /** Target hash to URL, in the given order, each target once. */
    private static Map<String, String> byHash(List<String> urls) {
        Map<String, String> byHash = new LinkedHashMap<>();
        for (String url : urls) {
            NormalizedUrl normalized = NormalizedUrl.parse(url);
            byHash.putIfAbsent(normalized.urlHash(), normalized.value());
        }
        return byHash;
    }

    private static void checkHash(String name, String value) {
        if (value == null || !HASH.matcher(value).matches()) {
            throw new IllegalArgumentException(name + " must be a lower-case hex SHA-256: " + value);
        }
    }
}
