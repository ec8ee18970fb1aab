package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.port.RobotsStoreContract;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The port's contract ({@link RobotsStoreContract}) and the conditions the adapter sends. */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbRobotsStoreTest extends RobotsStoreContract {

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
        assertEquals("attribute_not_exists(pk) OR #until <= :now", DynamoDbRobotsStore.CLAIM_CONDITION);
        assertEquals("sk = :fetching AND #until > :now", DynamoDbRobotsStore.HELD_CLAIMS);
    }
}
