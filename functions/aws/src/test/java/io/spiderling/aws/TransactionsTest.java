package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Which cancelled transactions {@link Transactions} tries again, with which backoff, and when it gives up: against
 * DynamoDB Local, with the cancellations real DynamoDB gives and the emulator does not ({@link ConflictingDynamoDb}).
 */
@ExtendWith(EmbeddedAwsExtension.class)
class TransactionsTest {

    private final DynamoDbClient dynamo;
    private final String table;
    private final List<Long> conflictPauses = new ArrayList<>();
    private final List<Long> throttlePauses = new ArrayList<>();
    private final Backoff conflicts = new Backoff(20, 1_000, conflictPauses::add);
    private final Backoff throttles = new Backoff(50, 2_000, throttlePauses::add);

    TransactionsTest(EmbeddedAws aws, StackResources res) {
        this.dynamo = aws.dynamoDb();
        this.table = res.batchesTable();
    }

    @ParameterizedTest
    @CsvSource({
        // reason,                     throttle pauses, conflict pauses
        "ProvisionedThroughputExceeded, 3,               0",
        "ThrottlingError,               3,               0",
        "TransactionConflict,           0,               3",
    })
    void write_whenCancelledThreeTimes_triesAgainWithItsBackoffAndApplies(String reason, int throttled,
            int conflicted, TestInfo test) {
        String pk = "T#" + test.getDisplayName();
        var cancelling = new ConflictingDynamoDb(dynamo, 3, reason);

        assertTrue(Transactions.write(cancelling, conflicts, throttles, put(pk, "pk")).isEmpty());

        assertEquals(4, cancelling.transactions.get());
        assertEquals(throttled, throttlePauses.size());
        assertEquals(conflicted, conflictPauses.size());
        assertTrue(dynamo.getItem(b -> b.tableName(table).key(key(pk)).consistentRead(true)).hasItem());
    }

    @Test
    void write_whenThrottledOnEveryAttempt_givesUpAfterEightWithTheThrottle() {
        var cancelling = new ConflictingDynamoDb(dynamo, Integer.MAX_VALUE, "ThrottlingError");

        TransactionCanceledException e = assertThrows(TransactionCanceledException.class,
                () -> Transactions.write(cancelling, conflicts, throttles, put("T#always", "pk")));

        assertEquals("ThrottlingError", e.cancellationReasons().get(1).code());
        assertEquals(8, cancelling.transactions.get());
        // 50 ms doubling, each pause between half its ceiling and the ceiling, the last ones at 2 s.
        assertEquals(7, throttlePauses.size());
        assertTrue(throttlePauses.getLast() >= 1_000 && throttlePauses.getLast() <= 2_000, throttlePauses::toString);
    }

    @Test
    void write_whenAConditionRefuses_returnsTheReasonsWithoutTryingAgain() {
        String pk = "T#refused";
        assertTrue(Transactions.write(dynamo, put(pk, "pk")).isEmpty());
        var counting = new ConflictingDynamoDb(dynamo, 0);

        var refused = Transactions.write(counting, conflicts, throttles, put(pk, "pk"));

        assertEquals(Transactions.CONDITION_FAILED, refused.orElseThrow().getFirst().code());
        assertEquals(1, counting.transactions.get());
        assertEquals(List.of(), throttlePauses);
        assertEquals(List.of(), conflictPauses);
    }

    /** A put of a new item only: refused by its condition when the item exists. */
    private TransactWriteItem put(String pk, String absent) {
        return TransactWriteItem.builder().put(p -> p.tableName(table).item(key(pk))
                .conditionExpression("attribute_not_exists(" + absent + ")")).build();
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS("t"));
    }
}
