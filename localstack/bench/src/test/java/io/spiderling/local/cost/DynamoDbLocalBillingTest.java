package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Table;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The meter against DynamoDB Local: real calls, billed as AWS bills them ({@link CapacityUnits}), whether the figure
 * comes from DynamoDB Local's ConsumedCapacity (checked here to agree) or from the meter's corrections.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbLocalBillingTest {

    /** Each test its own meter, and a client that carries it. */
    private final Metering metering = Metering.billing();
    private DynamoDbClient dynamo;

    @BeforeEach
    void meter(EmbeddedAws aws) {
        dynamo = aws.dynamoDb(metering.interceptor());
        metering.actAs(Account.function("fetch"));
    }

    @AfterEach
    void stopMetering() {
        dynamo.close();
        metering.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/dynamodb-local-billing.csv", numLinesToSkip = 1)
    void call_whenTableCase_isBilledAsAwsBillsIt(String rule, String table, String existing, String existingOrd,
            String operation, String bytes, String ord, double wru, double rru, long refused,
            StackResources resources) {
        Case c = new Case(rule, table.equals("sites") ? Table.SITES : Table.URLS, resources, dynamo);
        List<Long> existingSizes = sizes(existing);
        for (int i = 0; i < existingSizes.size(); i++) {
            c.put(i, existingSizes.get(i), existingOrd);
        }
        Usage before = metering.snapshot();

        c.run(operation, sizes(bytes), ord);

        Usage.Calls billed = metering.snapshot().minus(before).total("DynamoDB"::equals);
        assertEquals(wru, billed.writeUnits(), 1e-9, rule + ": write units");
        assertEquals(rru, billed.readUnits(), 1e-9, rule + ": read units");
        assertEquals(refused, billed.refused(), rule + ": refused");
        Usage.KeyLoad keys = metering.snapshot().minus(before).keys().values().stream()
                .reduce(Usage.KeyLoad.NONE, Usage.KeyLoad::plus);
        assertEquals(wru, keys.writeUnits(), 1e-9, rule + ": write units over the keys");
        assertEquals(rru, keys.readUnits(), 1e-9, rule + ": read units over the keys");
    }

    @Test
    void response_whenMeterAskedForCapacity_reachesTheCallerWithout(StackResources resources) {
        String table = resources.table(Table.URLS);

        var put = dynamo.putItem(b -> b.tableName(table).item(Map.of("urlHash", AttributeValue.fromS("view"))));
        var get = dynamo.getItem(b -> b.tableName(table).key(Map.of("urlHash", AttributeValue.fromS("view"))));

        assertNull(put.consumedCapacity());
        assertNull(get.consumedCapacity());
        assertTrue(metering.snapshot().total("DynamoDB"::equals).writeUnits() > 0);
    }

    @Test
    void refusal_whenMeterAskedForTheOldItem_reachesTheCallerWithout(StackResources resources) {
        String table = resources.table(Table.URLS);
        Map<String, AttributeValue> item = Map.of("urlHash", AttributeValue.fromS("refused"));
        dynamo.putItem(b -> b.tableName(table).item(item));

        var refused = assertThrows(ConditionalCheckFailedException.class, () -> dynamo.putItem(b -> b.tableName(table)
                .item(item).conditionExpression("attribute_not_exists(urlHash)")));
        var asked = assertThrows(ConditionalCheckFailedException.class, () -> dynamo.putItem(b -> b.tableName(table)
                .item(item).conditionExpression("attribute_not_exists(urlHash)")
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));

        assertFalse(refused.hasItem());
        assertEquals(item, asked.item());
    }

    private static List<Long> sizes(String list) {
        List<Long> sizes = new ArrayList<>();
        if (list != null) {
            for (String size : list.split(";")) {
                String[] repeated = size.split("\\*");
                for (int i = 0; i < (repeated.length > 1 ? Integer.parseInt(repeated[1]) : 1); i++) {
                    sizes.add(Long.parseLong(repeated[0]));
                }
            }
        }
        return sizes;
    }

    /** One case's keys in its table: {@code urlHash = <case>#i}, or {@code pk = <case>, sk = #i}. */
    private record Case(String name, Table table, StackResources resources, DynamoDbClient dynamo) {

        String tableName() {
            return resources.table(table);
        }

        Map<String, AttributeValue> key(int i) {
            return table == Table.SITES
                    ? new LinkedHashMap<>(Map.of("pk", AttributeValue.fromS(name), "sk", AttributeValue.fromS("#" + i)))
                    : new LinkedHashMap<>(Map.of("urlHash", AttributeValue.fromS(name + "#" + i)));
        }

        /** Item {@code i} of exactly {@code bytes}, with the index key {@code ord} when given. */
        Map<String, AttributeValue> item(int i, long bytes, String ord) {
            Map<String, AttributeValue> item = key(i);
            if (ord != null && !ord.equals("remove")) {
                item.put("ord", AttributeValue.fromN(ord));
            }
            item.put("x", AttributeValue.fromS("a".repeat(padding(item, bytes))));
            return item;
        }

        void put(int i, long bytes, String ord) {
            dynamo.putItem(b -> b.tableName(tableName()).item(item(i, bytes, ord)));
        }

        void run(String operation, List<Long> bytes, String ord) {
            String t = tableName();
            String keyName = table == Table.SITES ? "pk" : "urlHash";
            switch (operation) {
                case "put" -> put(0, bytes.getFirst(), ord);
                case "put-if-absent" -> assertThrows(ConditionalCheckFailedException.class, () -> dynamo.putItem(b -> b
                        .tableName(t).item(item(0, bytes.getFirst(), ord))
                        .conditionExpression("attribute_not_exists(" + keyName + ")")));
                case "update" -> update(bytes.getFirst(), ord, null);
                case "update-if-exists" -> assertThrows(ConditionalCheckFailedException.class,
                        () -> update(bytes.getFirst(), ord, "attribute_exists(" + keyName + ")"));
                case "delete" -> dynamo.deleteItem(b -> b.tableName(t).key(key(0)));
                case "tx-put" -> dynamo.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder()
                        .put(p -> p.tableName(t).item(item(0, bytes.getFirst(), ord))).build()));
                case "tx-update" -> {
                    Map<String, AttributeValue> after = item(0, bytes.getFirst(), ord);
                    boolean rekey = ord != null && !ord.equals("remove");
                    dynamo.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder().update(u -> u
                            .tableName(t).key(key(0)).updateExpression(rekey ? "SET x = :x, ord = :ord" : "SET x = :x")
                            .expressionAttributeValues(rekey ? Map.of(":x", after.get("x"), ":ord", after.get("ord"))
                                    : Map.of(":x", after.get("x")))).build()));
                }
                case "tx-puts" -> {
                    List<TransactWriteItem> puts = new ArrayList<>();
                    for (int i = 0; i < bytes.size(); i++) {
                        Map<String, AttributeValue> item = item(i, bytes.get(i), ord);
                        puts.add(TransactWriteItem.builder().put(p -> p.tableName(t).item(item)).build());
                    }
                    dynamo.transactWriteItems(b -> b.transactItems(puts));
                }
                case "tx-put-and-check" -> dynamo.transactWriteItems(b -> b.transactItems(
                        TransactWriteItem.builder().put(p -> p.tableName(t).item(item(1, bytes.getFirst(), ord)))
                                .build(),
                        TransactWriteItem.builder().conditionCheck(c -> c.tableName(t).key(key(0))
                                .conditionExpression("attribute_exists(" + keyName + ")")).build()));
                case "tx-delete" -> dynamo.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder()
                        .delete(d -> d.tableName(t).key(key(0))).build()));
                case "tx-put-if-absent-quietly" -> assertThrows(TransactionCanceledException.class,
                        () -> dynamo.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder().put(p -> p
                                .tableName(t).item(item(0, bytes.getFirst(), ord))
                                .conditionExpression("attribute_not_exists(" + keyName + ")")).build())));
                case "tx-put-if-absent" -> assertThrows(TransactionCanceledException.class,
                        () -> dynamo.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder().put(p -> p
                                .tableName(t).item(item(0, bytes.getFirst(), ord))
                                .conditionExpression("attribute_not_exists(" + keyName + ")")
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                                .build())));
                case "get-strong", "get-eventual" -> dynamo.getItem(b -> b.tableName(t).key(key(0))
                        .consistentRead(operation.equals("get-strong")));
                case "query-filtered-strong" -> dynamo.query(b -> b.tableName(t).keyConditionExpression("pk = :pk")
                        .filterExpression("attribute_exists(nothing)").consistentRead(true)
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(name))));
                case "query-eventual" -> dynamo.query(b -> b.tableName(t).keyConditionExpression("pk = :pk")
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(name))));
                case "batch-get-strong" -> dynamo.batchGetItem(b -> b.requestItems(Map.of(t, KeysAndAttributes
                        .builder().consistentRead(true).keys(List.of(key(0), key(1))).build())));
                case "batch-write" -> {
                    List<WriteRequest> writes = new ArrayList<>();
                    for (int i = 0; i < bytes.size(); i++) {
                        Map<String, AttributeValue> item = item(i, bytes.get(i), ord);
                        writes.add(WriteRequest.builder().putRequest(p -> p.item(item)).build());
                    }
                    dynamo.batchWriteItem(b -> b.requestItems(Map.of(t, writes)));
                }
                default -> throw new IllegalArgumentException(operation);
            }
        }

        /** Sets x (and ord, or removes it) so that the item is {@code bytes} after the update. */
        private void update(long bytes, String ord, String condition) {
            Map<String, AttributeValue> after = item(0, bytes, ord);
            Map<String, AttributeValue> values = new HashMap<>(Map.of(":x", after.get("x")));
            String expression = "SET x = :x";
            if ("remove".equals(ord)) {
                expression += " REMOVE ord";
            } else if (ord != null) {
                expression += ", ord = :ord";
                values.put(":ord", after.get("ord"));
            }
            String update = expression;
            dynamo.updateItem(b -> b.tableName(tableName()).key(key(0)).updateExpression(update)
                    .expressionAttributeValues(values).conditionExpression(condition));
        }

        private static int padding(Map<String, AttributeValue> item, long bytes) {
            long rest = bytes - CapacityUnits.itemSize(item) - "x".length();
            if (rest < 0) {
                throw new IllegalArgumentException("an item of " + bytes + " bytes is smaller than its key");
            }
            return (int) rest;
        }
    }
}
