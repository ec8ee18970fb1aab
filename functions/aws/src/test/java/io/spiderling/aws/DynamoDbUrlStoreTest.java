package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.port.UrlStore;
import io.spiderling.core.port.UrlStoreContract;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The port's contract ({@link UrlStoreContract}) and what is the adapter's own: the conditions it sends and where it
 * keeps a claim. Tests share one table per class, so each test works on its own URL (named after the test).
 */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbUrlStoreTest extends UrlStoreContract {

    private final EmbeddedAws aws;
    private final String table;

    DynamoDbUrlStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.table = res.urlsTable();
    }

    @Override
    protected UrlStore createStore() {
        return new DynamoDbUrlStore(aws.dynamoDb(), table);
    }

    @Test
    void conditions_whenStoreWrites_areTheOnesItSends() {
        assertEquals("attribute_exists(claimedAt) AND claimedAt > :stale AND claimedBy <> :batch",
                DynamoDbUrlStore.JOIN_CONDITION);
        assertEquals("(attribute_not_exists(fetchedAt) OR fetchedAt <= :fetchedAt)"
                + " AND (attribute_not_exists(redirectedAt) OR redirectedAt <= :fetchedAt)",
                DynamoDbUrlStore.FETCH_CONDITION);
        assertEquals("(attribute_not_exists(extractedFrom) OR extractedFrom <= :from)"
                + " AND (attribute_not_exists(fetchedAt) OR fetchedAt <= :from OR contentSha256 = :sha)",
                DynamoDbUrlStore.EXTRACTION_CONDITION);
    }

    @Test
    void claim_whenUrlNeverFetched_leavesTheRowAloneInAnItemOfItsOwn() {
        store.claim(urlHash, url, "a", T1, T1.minusSeconds(1800));

        assertEquals(Optional.empty(), store.find(urlHash));
        assertEquals("a", aws.dynamoDb().getItem(b -> b.tableName(table).key(DynamoDbUrlStore.claimKey(urlHash)))
                .item().get("claimedBy").s());
    }
}
