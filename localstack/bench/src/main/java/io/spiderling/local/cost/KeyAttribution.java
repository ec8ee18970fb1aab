package io.spiderling.local.cost;

import io.spiderling.catalog.Table;
import io.spiderling.local.cost.CapacityUnits.Consistency;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Which partition-key values a DynamoDB call loads, and how its billed units split over them: the meter's per-key
 * figures and the scale model's buckets both come from here, so the two cannot disagree.
 *
 * <ul>
 *   <li>GetItem, PutItem, UpdateItem, DeleteItem (applied or refused): all units to the item's key.</li>
 *   <li>Query: to the partition-key value its key condition names (through the expression's names and values).</li>
 *   <li>Scan: to the pseudo-key {@value KeyShape#SCAN_KEY}; it reads every partition.</li>
 *   <li>TransactWriteItems: each action's units to its own item's key ({@link DynamoDbBilling#transaction}).</li>
 *   <li>BatchGetItem and BatchWriteItem: the units billed for a table (DynamoDB Local reports them per table) split
 *       over its items in proportion to each item's units by the rules (a read: 1 per started 4 KB of the item
 *       returned, the minimum for a miss; a put: 1 per started KB, a delete 1, its size being unknown), so that the
 *       keys of a table sum to the table's billed units exactly. A BatchGetItem's table is billed at least what the
 *       rules give, since DynamoDB Local reports no units for keys that all miss.</li>
 * </ul>
 *
 * <p>A key is a partition-key value: on a table with a local secondary index it is the item collection, all of whose
 * items and index entries live in one partition. A table outside the catalog has no known key schema; its calls go
 * to {@value #UNKNOWN_KEY}.
 */
final class KeyAttribution {

    /** The key of a call on a table whose key schema is unknown, or whose key condition could not be read. */
    static final String UNKNOWN_KEY = "(unknown)";

    /** {@code name = :value} or {@code :value = name}, one clause of a key condition. */
    private static final Pattern EQUALS = Pattern.compile("\\(?\\s*([#\\w.:-]+)\\s*=\\s*([#\\w.:-]+)\\s*\\)?");
    private static final Pattern AND = Pattern.compile("(?i)\\s+AND\\s+");

    private KeyAttribution() {}

    /** Units charged to one partition-key value. */
    record Charge(Usage.Key key, double read, double write) {}

    /** The catalog's name of a deployment's table ({@code bench-fetch-batches} is {@code batches}), else the name. */
    static String table(String tableName) {
        return TransactionItems.table(tableName).map(Table::suffix).orElse(tableName);
    }

    /** The partition key of {@code keyOrItem} (a key, or a whole item) in the table named {@code tableName}. */
    static Usage.Key key(String tableName, Map<String, AttributeValue> keyOrItem) {
        Optional<Table> table = TransactionItems.table(tableName);
        String label = table.map(Table::suffix).orElse(tableName);
        AttributeValue value = table.map(t -> keyOrItem.get(t.keys().partitionKey())).orElse(null);
        return new Usage.Key(label, value == null ? UNKNOWN_KEY : text(value));
    }

    /** The partition key a Query reads: the one its key condition sets equal to a value. */
    static Usage.Key query(QueryRequest query) {
        Optional<Table> table = TransactionItems.table(query.tableName());
        String label = table.map(Table::suffix).orElse(query.tableName());
        if (table.isEmpty()) {
            return new Usage.Key(label, UNKNOWN_KEY);
        }
        String partitionKey = table.get().keys().partitionKey();
        if (query.hasKeyConditions() && query.keyConditions().containsKey(partitionKey)) {
            return new Usage.Key(label, text(query.keyConditions().get(partitionKey).attributeValueList().getFirst()));
        }
        String condition = query.keyConditionExpression() == null ? "" : query.keyConditionExpression().strip();
        for (String clause : AND.split(condition)) {
            Matcher m = EQUALS.matcher(clause.strip());
            if (m.matches()) {
                String left = m.group(1);
                String right = m.group(2);
                String name = left.startsWith(":") ? right : left;
                String value = left.startsWith(":") ? left : right;
                if (partitionKey.equals(name(query, name)) && query.hasExpressionAttributeValues()
                        && query.expressionAttributeValues().containsKey(value)) {
                    return new Usage.Key(label, text(query.expressionAttributeValues().get(value)));
                }
            }
        }
        return new Usage.Key(label, UNKNOWN_KEY);
    }

    /**
     * The keys a request names, once each, in order (a transaction's actions, a batch's items); empty for calls that
     * are not DynamoDB data calls.
     */
    static List<Usage.Key> touched(SdkRequest request) {
        List<Usage.Key> keys = new ArrayList<>();
        switch (request) {
            case GetItemRequest r -> keys.add(key(r.tableName(), r.key()));
            case PutItemRequest r -> keys.add(key(r.tableName(), r.item()));
            case UpdateItemRequest r -> keys.add(key(r.tableName(), r.key()));
            case DeleteItemRequest r -> keys.add(key(r.tableName(), r.key()));
            case QueryRequest r -> keys.add(query(r));
            case ScanRequest r -> keys.add(new Usage.Key(table(r.tableName()), KeyShape.SCAN_KEY));
            case BatchGetItemRequest r -> r.requestItems().forEach((t, k) -> k.keys().forEach(key -> keys.add(key(t,
                    key))));
            case BatchWriteItemRequest r -> r.requestItems().forEach((t, writes) -> writes.forEach(w -> keys.add(
                    key(t, w.putRequest() != null ? w.putRequest().item() : w.deleteRequest().key()))));
            case TransactWriteItemsRequest r -> r.transactItems().forEach(a -> keys.add(action(a)));
            case TransactGetItemsRequest r -> r.transactItems().forEach(g -> keys.add(key(g.get().tableName(),
                    g.get().key())));
            default -> {
                return List.of();
            }
        }
        return keys.stream().distinct().toList();
    }

    /** A single-key call (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan): everything to its key. */
    static List<Charge> single(SdkRequest request, double read, double write) {
        List<Usage.Key> keys = touched(request);
        return keys.isEmpty() || (read == 0 && write == 0) ? List.of()
                : List.of(new Charge(keys.getFirst(), read, write));
    }

    /** BatchGetItem: each table's billed units over its items, in proportion to each item's units by the rules. */
    static List<Charge> batchGet(BatchGetItemRequest request, BatchGetItemResponse response) {
        List<Charge> charges = new ArrayList<>();
        request.requestItems().forEach((tableName, asked) -> {
            KeysAndAttributes unprocessed = response.hasUnprocessedKeys() ? response.unprocessedKeys().get(tableName)
                    : null;
            List<Map<String, AttributeValue>> found = response.hasResponses()
                    ? response.responses().getOrDefault(tableName, List.of()) : List.of();
            Consistency consistency = Consistency.of(asked.consistentRead());
            Map<Usage.Key, Double> weights = new LinkedHashMap<>();
            List<Map<String, AttributeValue>> misses = new ArrayList<>(asked.keys());
            if (unprocessed != null) {
                misses.removeAll(unprocessed.keys());
            }
            for (Map<String, AttributeValue> item : found) {
                weights.merge(key(tableName, item), CapacityUnits.getUnits(CapacityUnits.itemSize(item), consistency),
                        Double::sum);
                misses.removeIf(k -> k.entrySet().stream().allMatch(e -> e.getValue().equals(item.get(e.getKey()))));
            }
            misses.forEach(k -> weights.merge(key(tableName, k), CapacityUnits.getUnits(0, consistency), Double::sum));
            // DynamoDB Local reports nothing for keys that all miss; AWS bills each miss a read's minimum.
            double byRules = weights.values().stream().mapToDouble(Double::doubleValue).sum();
            split(Math.max(billed(response.consumedCapacity(), tableName), byRules), weights, true, charges);
        });
        return charges;
    }

    /** BatchWriteItem: each table's billed units over its items, in proportion to each item's units by the rules. */
    static List<Charge> batchWrite(BatchWriteItemRequest request, BatchWriteItemResponse response) {
        List<Charge> charges = new ArrayList<>();
        request.requestItems().forEach((tableName, writes) -> {
            List<WriteRequest> unprocessed = response.hasUnprocessedItems()
                    ? response.unprocessedItems().getOrDefault(tableName, List.of()) : List.of();
            Map<Usage.Key, Double> weights = new LinkedHashMap<>();
            for (WriteRequest w : writes) {
                if (unprocessed.contains(w)) {
                    continue;
                }
                if (w.putRequest() != null) {
                    weights.merge(key(tableName, w.putRequest().item()),
                            (double) CapacityUnits.writeUnits(CapacityUnits.itemSize(w.putRequest().item())),
                            Double::sum);
                } else {
                    weights.merge(key(tableName, w.deleteRequest().key()), 1.0, Double::sum);
                }
            }
            split(billed(response.consumedCapacity(), tableName), weights, false, charges);
        });
        return charges;
    }

    /** {@code total} over the keys in proportion to their weights, as reads or as writes. */
    private static void split(double total, Map<Usage.Key, Double> weights, boolean read, List<Charge> charges) {
        double sum = weights.values().stream().mapToDouble(Double::doubleValue).sum();
        if (total == 0 || sum == 0) {
            return;
        }
        weights.forEach((key, weight) -> {
            double units = total * weight / sum;
            charges.add(read ? new Charge(key, units, 0) : new Charge(key, 0, units));
        });
    }

    private static double billed(List<ConsumedCapacity> capacities, String tableName) {
        return capacities.stream().filter(c -> tableName.equals(c.tableName()))
                .mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits()).sum();
    }

    private static String name(QueryRequest query, String name) {
        return name.startsWith("#") && query.hasExpressionAttributeNames()
                ? query.expressionAttributeNames().getOrDefault(name, name) : name;
    }

    /** The key of a transaction's action. */
    static Usage.Key action(TransactWriteItem action) {
        return TransactionItems.target(action).map(t -> key(t.tableName(), t.key()))
                .orElseGet(() -> new Usage.Key(tableOf(action), UNKNOWN_KEY));
    }

    private static String tableOf(TransactWriteItem action) {
        String name = action.put() != null ? action.put().tableName() : action.update() != null
                ? action.update().tableName() : action.delete() != null ? action.delete().tableName()
                : action.conditionCheck() != null ? action.conditionCheck().tableName() : "";
        return table(name);
    }

    /** A key value as text: a string as it is, a number's digits, a binary in Base64. */
    static String text(AttributeValue value) {
        return switch (value.type()) {
            case S -> value.s();
            case N -> value.n();
            case B -> java.util.Base64.getEncoder().encodeToString(value.b().asByteArrayUnsafe());
            default -> value.toString();
        };
    }
}
