package io.spiderling.aws;

import static io.spiderling.aws.Attrs.n;

import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Writes sites as {@link DynamoDbFrontierStore} lays them out, with plain batch writes instead of its transactions:
 * for a benchmark that needs 10⁵ sites in DynamoDB Local in minutes, not for anything that runs concurrently with
 * the store. In this package to reuse the adapter's own item layouts, which stay package-private.
 */
public final class FrontierBulkLoad {

    private static final int BATCH = 25;

    private final DynamoDbClient dynamo;
    private final String table;
    private final DynamoDbFrontierStore layout;
    private final List<Map<String, AttributeValue>> items = new ArrayList<>();

    public FrontierBulkLoad(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.layout = new DynamoDbFrontierStore(dynamo, table);
    }

    /**
     * A site with one entry, pending, or released at {@code releasedAt}; its counter (no progress yet) and its sweep
     * mark at {@code checkAt}.
     */
    public FrontierBulkLoad site(FrontierEntry entry, Optional<Instant> releasedAt, Instant checkAt) {
        if (releasedAt.isPresent()) {
            items.add(DynamoDbFrontierStore.releasedItem(entry, releasedAt.get()));
        } else {
            items.add(DynamoDbFrontierStore.pendingItem(entry));
        }
        return counter(entry.site(), releasedAt.isPresent() ? 0 : 1, releasedAt.isPresent() ? 1 : 0, checkAt);
    }

    /** A site with no entries left whose counter was never deleted, and its sweep mark at {@code checkAt}. */
    public FrontierBulkLoad emptied(SiteKey site, Instant checkAt) {
        return counter(site, 0, 0, checkAt);
    }

    private FrontierBulkLoad counter(SiteKey site, int pending, int released, Instant checkAt) {
        Map<String, AttributeValue> counter = new HashMap<>(DynamoDbFrontierStore.counterKey(site));
        counter.put("pending", n(pending));
        counter.put("released", n(released));
        counter.put("checkAt", n(checkAt.toEpochMilli()));
        items.add(counter);
        items.add(new HashMap<>(layout.markKey(site, checkAt)));
        return this;
    }

    /** Writes what was added, 25 items a call, and again what DynamoDB left unprocessed. */
    public void write() {
        for (int from = 0; from < items.size(); from += BATCH) {
            List<WriteRequest> writes = items.subList(from, Math.min(items.size(), from + BATCH)).stream()
                    .map(item -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build())
                    .toList();
            Map<String, List<WriteRequest>> left = Map.of(table, writes);
            while (!left.isEmpty() && !left.getOrDefault(table, List.of()).isEmpty()) {
                Map<String, List<WriteRequest>> request = left;
                BatchWriteItemResponse response = dynamo.batchWriteItem(b -> b.requestItems(request));
                left = response.unprocessedItems();
            }
        }
        items.clear();
    }
}
