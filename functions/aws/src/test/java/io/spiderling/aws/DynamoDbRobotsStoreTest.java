package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.port.RobotsStoreContract;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.StackResources;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The port's contract ({@link RobotsStoreContract}), the conditions the adapter sends, and its retried claim. */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbRobotsStoreTest extends RobotsStoreContract {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    private final EmbeddedAws aws;
    private final String table;

    DynamoDbRobotsStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.table = res.sitesTable();
    }

    @Override
    protected RobotsStore createStore() {
        return new DynamoDbRobotsStore(aws.dynamoDb(), table);
    }

    @Test
    void conditions_whenStoreClaimsOrReleases_areTheOnesItSends() {
        assertEquals("(attribute_not_exists(pk) OR #until <= :now) OR writer = :writer",
                DynamoDbRobotsStore.CLAIM_CONDITION);
        assertEquals("sk = :fetching AND #until > :now", DynamoDbRobotsStore.HELD_CLAIMS);
    }

    @Test
    void claimFetch_whenTheClaimLandedButItsAnswerWasA500_theSdksRetryFindsItsOwnClaimGranted() {
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("claim answered 500",
                FaultInjector.Call.dynamoDb("PutItem"), FaultInjector.When.matches(1),
                FaultInjector.dynamoDbReply(500, "InternalServerError")));
        RobotsOrigin origin = RobotsOrigin.of("https://answer-lost.example/");
        try (DynamoDbClient dynamo = aws.dynamoDb(faults)) {
            DynamoDbRobotsStore flaky = new DynamoDbRobotsStore(dynamo, table);

            assertTrue(flaky.claimFetch(origin, NOW, NOW.plusSeconds(45)), "its own claim, found by the retry");
        }
        assertEquals(2, faults.matched("claim answered 500"),
                "the claim landed, its answer was lost, the SDK sent it again");
        assertFalse(createStore().claimFetch(origin, NOW.plusSeconds(1), NOW.plusSeconds(46)),
                "and it holds against others");
    }
}
