package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Table;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The scale model against DynamoDB Local, on a clock that only moves when told: with AWS's limits divided by 1,000, a
 * key allows 1 WRU/s and here starts with 1 s of it (not a full burst); a key written faster is throttled, one written once is not, and the clock paying back the debt
 * lets it through again.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class ScaleModelTest {

    private final Metering metering = Metering.billing();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-27T00:00:00Z"));
    private final ScaleModel model = ScaleModel.on(metering, 1_000, 1, clock);
    private DynamoDbClient dynamo;
    private String batches;
    private String sites;

    @BeforeEach
    void start(EmbeddedAws aws, StackResources resources) {
        // Without the SDK's retries, which would only wait: the clock does not move unless the test moves it.
        dynamo = DynamoDbClient.builder()
                .endpointOverride(aws.dynamoDb().serviceClientConfiguration().endpointOverride().orElseThrow())
                .region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(EmbeddedAws.ACCESS_KEY,
                        EmbeddedAws.SECRET_KEY)))
                .overrideConfiguration(c -> c.addExecutionInterceptor(model).addExecutionInterceptor(
                        metering.interceptor()).retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        batches = resources.table(Table.BATCHES);
        sites = resources.table(Table.SITES);
        metering.actAs(Account.function("fetch"));
    }

    @AfterEach
    void stop() {
        dynamo.close();
        metering.close();
    }

    @Test
    void hotKey_whenWrittenFasterThanItsScaledLimit_isThrottledAndTheColdOneIsNot() {
        add("B#hot");

        var refused = assertThrows(ProvisionedThroughputExceededException.class, () -> add("B#hot"));
        add("B#cold");

        assertEquals("TableWriteKeyRangeThroughputExceeded", refused.throttlingReasons().getFirst().reason());
        Map<Usage.Key, Long> throttles = model.throttles();
        assertTrue(throttles.get(new Usage.Key("batches", "B#hot")) >= 1, throttles.toString());
        assertEquals(null, throttles.get(new Usage.Key("batches", "B#cold")));
        assertTrue(model.report(Map.of()).contains("batches B#<batch>"), model.report(Map.of()));
    }

    @Test
    void hotKey_whenTheDebtIsPaidBack_isAdmittedAgain() {
        add("B#later");
        assertThrows(ProvisionedThroughputExceededException.class, () -> add("B#later"));

        clock.advance(Duration.ofSeconds(2));

        add("B#later");
    }

    @Test
    void siteBoundKey_whenWrittenAsFast_keepsItsRealLimit() {
        for (int i = 0; i < 5; i++) {
            dynamo.updateItem(b -> b.tableName(sites).key(Map.of("pk", AttributeValue.fromS("RATE#site.example"),
                    "sk", AttributeValue.fromS("rate"))).updateExpression("ADD n :one")
                    .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
        }

        assertEquals(Map.of(), model.throttles());
    }

    @Test
    void writeToTableWithLocalIndex_whenMade_countsItsItemCollectionsBytes() {
        Map<String, AttributeValue> item = Map.of("pk", AttributeValue.fromS("F#c.example"),
                "sk", AttributeValue.fromS("P#1"), "ord", AttributeValue.fromN("1"));
        dynamo.putItem(b -> b.tableName(sites).item(item));
        add("B#no-index");

        assertEquals(CapacityUnits.itemSize(item), model.collectionBytes(new Usage.Key("sites", "F#c.example"))
                .orElseThrow(), 1e-9);
        assertTrue(model.collectionBytes(new Usage.Key("batches", "B#no-index")).isEmpty());
    }

    @Test
    void transaction_whenOneActionsKeyIsHot_isCancelledWithThatActionsReason() {
        add("B#tx");

        var cancelled = assertThrows(TransactionCanceledException.class, () -> dynamo.transactWriteItems(b -> b
                .transactItems(update("B#tx#a"), update("B#tx"))));

        assertEquals(List.of("None", "ProvisionedThroughputExceeded"),
                cancelled.cancellationReasons().stream().map(r -> r.code()).toList());
    }

    @Test
    void batchWrite_whenOneItemsKeyIsHot_leavesItUnprocessed() {
        add("B#bw");

        BatchWriteItemResponse response = dynamo.batchWriteItem(b -> b.requestItems(Map.of(batches, List.of(
                put("B#bw", "x"), put("B#bw#a", "y")))));

        assertEquals(List.of(put("B#bw", "x")), response.unprocessedItems().get(batches));
    }

    /** An update of 1 WRU (2 in a transaction) on {@code pk}'s header-like item. */
    private void add(String pk) {
        dynamo.updateItem(b -> b.tableName(batches).key(key(pk)).updateExpression("ADD n :one")
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
    }

    private TransactWriteItem update(String pk) {
        return TransactWriteItem.builder().update(u -> u.tableName(batches).key(key(pk)).updateExpression("ADD n :one")
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1")))).build();
    }

    private static WriteRequest put(String pk, String sk) {
        return WriteRequest.builder().putRequest(p -> p.item(Map.of("pk", AttributeValue.fromS(pk), "sk",
                AttributeValue.fromS(sk)))).build();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS("H"));
    }

    /** A clock the test moves. */
    private static final class MovableClock extends Clock {
        private final AtomicReference<Instant> now;

        MovableClock(Instant start) {
            now = new AtomicReference<>(start);
        }

        void advance(Duration by) {
            now.updateAndGet(t -> t.plus(by));
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
