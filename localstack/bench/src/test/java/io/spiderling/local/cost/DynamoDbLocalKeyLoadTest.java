package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.catalog.Table;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The meter's units per partition key against DynamoDB Local ({@link KeyAttribution}): each call's units go to the
 * keys it touched, and a table's keys always sum to what the meter billed for the table.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbLocalKeyLoadTest {

    private final Metering metering = Metering.billing();
    private DynamoDbClient dynamo;
    private StackResources resources;

    @BeforeEach
    void meter(EmbeddedAws aws, StackResources resources) {
        this.resources = resources;
        dynamo = aws.dynamoDb(metering.interceptor());
        metering.actAs(Account.function("fetch"));
    }

    @AfterEach
    void stopMetering() {
        dynamo.close();
        metering.close();
    }

    @Test
    void transaction_whenActionsOnThreeKeys_chargesEachItsOwnUnits() {
        dynamo.putItem(b -> b.tableName(table(Table.BATCHES)).item(item(Map.of("pk", "B#tx#a", "sk", "U#h"), 100)));
        Usage before = metering.snapshot();

        dynamo.transactWriteItems(b -> b.transactItems(
                TransactWriteItem.builder().put(p -> p.tableName(table(Table.BATCHES))
                        .item(item(Map.of("pk", "B#tx", "sk", "H"), 100))).build(),
                TransactWriteItem.builder().update(u -> u.tableName(table(Table.BATCHES))
                        .key(key(Map.of("pk", "B#tx#a", "sk", "U#h"))).updateExpression("SET x = :x")
                        .expressionAttributeValues(Map.of(":x", AttributeValue.fromS("a".repeat(1900))))).build(),
                TransactWriteItem.builder().put(p -> p.tableName(table(Table.URLS))
                        .item(item(Map.of("urlHash", "tx-url"), 1500))).build()));

        Usage used = metering.snapshot().minus(before);
        assertEquals(Map.of(
                new Usage.Key("batches", "B#tx"), new Usage.KeyLoad(0, 2),
                new Usage.Key("batches", "B#tx#a"), new Usage.KeyLoad(0, 4),
                new Usage.Key("urls", "tx-url"), new Usage.KeyLoad(0, 4)), used.keys());
        assertKeysSumToTheBill(used);
        // One call, counted once, under every shape it touched.
        assertEquals(Map.of(new Usage.Call(Account.function("fetch"), "DynamoDB",
                "TransactWriteItems batches:<other>+batches:B#<batch>+urls:<urlHash>"), 1L),
                used.shapeCalls());
    }

    @Test
    void batchWrite_whenItemsOfTwoSizes_splitsTheTablesUnitsByItem() {
        Usage before = metering.snapshot();

        dynamo.batchWriteItem(b -> b.requestItems(Map.of(
                table(Table.URLS), List.of(put(item(Map.of("urlHash", "bw#0"), 500)),
                        put(item(Map.of("urlHash", "bw#1"), 3500))),
                table(Table.BATCHES), List.of(put(item(Map.of("pk", "B#bw#0", "sk", "U#1"), 100)),
                        put(item(Map.of("pk", "B#bw#0", "sk", "U#2"), 100))))));

        Usage used = metering.snapshot().minus(before);
        assertEquals(Map.of(
                new Usage.Key("urls", "bw#0"), new Usage.KeyLoad(0, 1),
                new Usage.Key("urls", "bw#1"), new Usage.KeyLoad(0, 4),
                new Usage.Key("batches", "B#bw#0"), new Usage.KeyLoad(0, 2)), used.keys());
        assertKeysSumToTheBill(used);
    }

    @Test
    void batchGet_whenEveryKeyMisses_chargesEachKeyAReadsMinimum() {
        Usage before = metering.snapshot();

        dynamo.batchGetItem(b -> b.requestItems(Map.of(table(Table.URLS), KeysAndAttributes.builder()
                .keys(key(Map.of("urlHash", "miss#0")), key(Map.of("urlHash", "miss#1"))).build())));

        // AWS bills a read of an item that does not exist like a read of an empty one: 0.5 RRU eventually consistent.
        Usage used = metering.snapshot().minus(before);
        assertEquals(Map.of(
                new Usage.Key("urls", "miss#0"), new Usage.KeyLoad(0.5, 0),
                new Usage.Key("urls", "miss#1"), new Usage.KeyLoad(0.5, 0)), used.keys());
        assertKeysSumToTheBill(used);
    }

    @Test
    void batchGet_whenItemsOfTwoSizes_splitsTheReadsByItem() {
        dynamo.putItem(b -> b.tableName(table(Table.URLS)).item(item(Map.of("urlHash", "bg#0"), 1536)));
        dynamo.putItem(b -> b.tableName(table(Table.URLS)).item(item(Map.of("urlHash", "bg#1"), 6656)));
        Usage before = metering.snapshot();

        dynamo.batchGetItem(b -> b.requestItems(Map.of(table(Table.URLS), KeysAndAttributes.builder()
                .consistentRead(true).keys(key(Map.of("urlHash", "bg#0")), key(Map.of("urlHash", "bg#1"))).build())));

        Usage used = metering.snapshot().minus(before);
        assertEquals(Map.of(
                new Usage.Key("urls", "bg#0"), new Usage.KeyLoad(1, 0),
                new Usage.Key("urls", "bg#1"), new Usage.KeyLoad(2, 0)), used.keys());
        assertKeysSumToTheBill(used);
    }

    @Test
    void queryAndScan_whenRead_chargeTheQueriedKeyAndTheScanPseudoKey() {
        for (int i = 0; i < 3; i++) {
            var item = item(Map.of("pk", "F#q.example", "sk", "P#" + i), 2000);
            dynamo.putItem(b -> b.tableName(table(Table.SITES)).item(item));
        }
        Usage before = metering.snapshot();

        dynamo.query(b -> b.tableName(table(Table.SITES)).keyConditionExpression("pk = :pk").consistentRead(true)
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("F#q.example"))));
        dynamo.scan(b -> b.tableName(table(Table.LINKS)));

        Usage used = metering.snapshot().minus(before);
        assertEquals(Map.of(
                new Usage.Key("sites", "F#q.example"), new Usage.KeyLoad(2, 0),
                new Usage.Key("links", KeyShape.SCAN_KEY), new Usage.KeyLoad(0.5, 0)), used.keys());
        assertKeysSumToTheBill(used);
    }

    @Test
    void refusedPut_whenALargerItemIsThere_chargesItsKey() {
        dynamo.putItem(b -> b.tableName(table(Table.URLS)).item(item(Map.of("urlHash", "refused"), 3000)));
        Usage before = metering.snapshot();

        assertThrows(ConditionalCheckFailedException.class, () -> dynamo.putItem(b -> b.tableName(table(Table.URLS))
                .item(item(Map.of("urlHash", "refused"), 100)).conditionExpression("attribute_not_exists(urlHash)")));

        Usage used = metering.snapshot().minus(before);
        assertEquals(Map.of(new Usage.Key("urls", "refused"), new Usage.KeyLoad(0, 3)), used.keys());
    }

    @Test
    void harnessCall_whenMade_isNotInThePipelinesKeys() {
        metering.actAs(Account.HARNESS);

        dynamo.getItem(b -> b.tableName(table(Table.URLS)).key(key(Map.of("urlHash", "harness"))));

        assertEquals(Map.of(), metering.snapshot().keys());
        assertEquals(Map.of(), metering.snapshot().shapeCalls());
    }

    private static void assertKeysSumToTheBill(Usage used) {
        Usage.Calls billed = used.total("DynamoDB"::equals);
        Usage.KeyLoad keys = used.keys().values().stream().reduce(Usage.KeyLoad.NONE, Usage.KeyLoad::plus);
        assertEquals(billed.writeUnits(), keys.writeUnits(), 1e-9, "write units");
        assertEquals(billed.readUnits(), keys.readUnits(), 1e-9, "read units");
    }

    private String table(Table table) {
        return resources.table(table);
    }

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(p -> p.item(item)).build();
    }

    private static Map<String, AttributeValue> key(Map<String, String> key) {
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        key.forEach((k, v) -> values.put(k, AttributeValue.fromS(v)));
        return values;
    }

    /** The key's item of exactly {@code bytes}, padded with {@code x}. */
    private static Map<String, AttributeValue> item(Map<String, String> key, long bytes) {
        Map<String, AttributeValue> item = new HashMap<>(key(key));
        item.put("x", AttributeValue.fromS("a".repeat((int) (bytes - CapacityUnits.itemSize(item) - 1))));
        return item;
    }
}
