package io.spiderling.local.cost;

import io.spiderling.catalog.Table;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import io.spiderling.testkit.EmbeddedAws;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The items a TransactWriteItems call touches, as they are just before it and just after it, read by the meter on the
 * side: AWS bills each action of a transaction by its own item's size (2 units per started KB of the larger of before
 * and after), which neither the request (an update's result, a replaced or deleted item, a checked item) nor DynamoDB
 * Local's figure (it rounds the sum of a table's items, then doubles it again) tells.
 *
 * <p>One consistent BatchGetItem before the transaction for every item it names, and one after for the items it
 * updates, through a client of the meter's own on the same endpoint: it carries no meter, so those reads count nowhere.
 * One per {@link Metering}, which closes it. Another writer between the reads and the transaction can make a figure
 * slightly off; the pipeline's transactions mostly create items or touch counters of a few hundred bytes, where that
 * changes nothing.
 */
final class TransactionItems implements AutoCloseable {

    /** One action's item: its table (as the catalog declares it) and key. */
    record Target(String tableName, Table table, Map<String, AttributeValue> key) {}

    private final Map<URI, DynamoDbClient> clients = new ConcurrentHashMap<>();

    /** The action's item, or empty when its table is not one of the catalog's (its key schema is then unknown). */
    static Optional<Target> target(TransactWriteItem action) {
        String tableName;
        Map<String, AttributeValue> key;
        if (action.put() != null) {
            tableName = action.put().tableName();
            Optional<Table> table = table(tableName);
            if (table.isEmpty()) {
                return Optional.empty();
            }
            key = new LinkedHashMap<>();
            Map<String, AttributeValue> item = action.put().item();
            key.put(table.get().keys().partitionKey(), item.get(table.get().keys().partitionKey()));
            table.get().keys().sortKey().ifPresent(sk -> key.put(sk, item.get(sk)));
        } else if (action.update() != null) {
            tableName = action.update().tableName();
            key = action.update().key();
        } else if (action.delete() != null) {
            tableName = action.delete().tableName();
            key = action.delete().key();
        } else if (action.conditionCheck() != null) {
            tableName = action.conditionCheck().tableName();
            key = action.conditionCheck().key();
        } else {
            return Optional.empty();
        }
        return table(tableName).map(t -> new Target(tableName, t, key));
    }

    /** The catalog's table a deployment's table name stands for ({@code <prefix>-<suffix>}). */
    static Optional<Table> table(String tableName) {
        for (Table table : Table.values()) {
            if (tableName.endsWith("-" + table.suffix()) || tableName.equals(table.suffix())) {
                return Optional.of(table);
            }
        }
        return Optional.empty();
    }

    /** The items of {@code targets} now, by target; a target with no item is left out. */
    Map<Target, Map<String, AttributeValue>> read(URI endpoint, List<Target> targets) {
        Map<Target, Map<String, AttributeValue>> found = new HashMap<>();
        if (targets.isEmpty()) {
            return found;
        }
        DynamoDbClient client = clients.computeIfAbsent(endpoint, TransactionItems::client);
        Map<String, List<Map<String, AttributeValue>>> keys = new HashMap<>();
        targets.forEach(t -> keys.computeIfAbsent(t.tableName(), n -> new ArrayList<>()).add(t.key()));
        Map<String, KeysAndAttributes> request = new HashMap<>();
        keys.forEach((table, k) -> request.put(table,
                KeysAndAttributes.builder().keys(k).consistentRead(true).build()));
        Map<String, KeysAndAttributes> todo = request;
        while (!todo.isEmpty()) {
            Map<String, KeysAndAttributes> batch = todo;
            BatchGetItemResponse response = client.batchGetItem(b -> b.requestItems(batch));
            response.responses().forEach((table, items) -> items.forEach(item -> {
                for (Target t : targets) {
                    if (t.tableName().equals(table) && matches(item, t.key())) {
                        found.put(t, item);
                    }
                }
            }));
            todo = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
        }
        return found;
    }

    private static boolean matches(Map<String, AttributeValue> item, Map<String, AttributeValue> key) {
        return key.entrySet().stream().allMatch(e -> e.getValue().equals(item.get(e.getKey())));
    }

    /** The embedded stack's credentials (DynamoDB Local keeps one database for all); the meter only reads. */
    private static DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(EmbeddedAws.ACCESS_KEY,
                        EmbeddedAws.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @Override
    public void close() {
        clients.values().forEach(DynamoDbClient::close);
        clients.clear();
    }
}
