package io.spiderling.aws;

import io.spiderling.core.port.QuotaStore;
import io.spiderling.core.port.QuotaStoreContract;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import org.junit.jupiter.api.extension.ExtendWith;

/** The port's contract ({@link QuotaStoreContract}) on DynamoDB Local. */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbQuotaStoreTest extends QuotaStoreContract {

    private final EmbeddedAws aws;
    private final String table;

    DynamoDbQuotaStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.table = res.batchesTable();
    }

    @Override
    protected QuotaStore createStore() {
        return new DynamoDbQuotaStore(aws.dynamoDb(), table);
    }
}
