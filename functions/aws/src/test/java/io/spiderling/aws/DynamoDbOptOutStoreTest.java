package io.spiderling.aws;

import io.spiderling.core.port.OptOutStore;
import io.spiderling.core.port.OptOutStoreContract;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import org.junit.jupiter.api.extension.ExtendWith;

/** The port's contract ({@link OptOutStoreContract}) on DynamoDB Local. */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbOptOutStoreTest extends OptOutStoreContract {

    private final EmbeddedAws aws;
    private final String table;

    DynamoDbOptOutStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.table = res.sitesTable();
    }

    @Override
    protected OptOutStore createStore() {
        return new DynamoDbOptOutStore(aws.dynamoDb(), table);
    }
}
