package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.spiderling.core.port.BatchOriginStoreContract;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The port's contract ({@link BatchOriginStoreContract}) and where the adapter keeps a batch's list. */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbBatchOriginStoreTest extends BatchOriginStoreContract {

    private final EmbeddedAws aws;
    private final String table;

    DynamoDbBatchOriginStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.table = res.batchesTable();
    }

    @Override
    protected BatchStores createStores() {
        return BatchStores.of(new DynamoDbBatchStore(aws.dynamoDb(), table),
                new DynamoDbBatchOriginStore(aws.dynamoDb(), table));
    }

    @Test
    void addOrigins_whenListed_keepsThemInAnItemOfTheirOwnBesideTheHeader() {
        assertEquals("attribute_not_exists(origins) OR size(origins) <= :room", DynamoDbBatchOriginStore.ORIGINS_ROOM);
        stores.headers().createBatch(header(1));

        stores.origins().addOrigins(batchId, List.of(RobotsOrigin.of("https://a.example/")));

        Map<String, AttributeValue> list = aws.dynamoDb().getItem(b -> b.tableName(table).consistentRead(true)
                .key(DynamoDbBatchOriginStore.originsKey(batchId))).item();
        assertEquals(List.of("https://a.example:443"), list.get("origins").ss());
        Map<String, AttributeValue> header = aws.dynamoDb().getItem(b -> b.tableName(table).consistentRead(true)
                .key(DynamoDbBatchStore.headerKey(batchId))).item();
        assertFalse(header.containsKey("origins"), "the header, read at every item's end, stays small");
    }
}
