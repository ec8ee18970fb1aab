package io.spiderling.aws;

import io.spiderling.core.port.PendingPlans;
import io.spiderling.core.port.PendingPlansContract;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import org.junit.jupiter.api.extension.ExtendWith;

/** The port's contract ({@link PendingPlansContract}) on the batches table; the adapter adds nothing of its own. */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbPendingPlansTest extends PendingPlansContract {

    private final EmbeddedAws aws;
    private final String table;

    DynamoDbPendingPlansTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.table = res.batchesTable();
    }

    @Override
    protected PendingPlans createPlans() {
        return new DynamoDbPendingPlans(aws.dynamoDb(), table);
    }
}
