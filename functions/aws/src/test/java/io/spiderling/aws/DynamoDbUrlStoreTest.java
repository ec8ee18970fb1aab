package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.port.UrlStore;
import io.spiderling.core.port.UrlStore.Claim;
import io.spiderling.core.port.UrlStoreContract;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.StackResources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

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
        assertEquals("attribute_exists(claimedAt) AND attribute_not_exists(waiters)", DynamoDbUrlStore.UNJOINED);
        assertEquals("claimedAt = :at AND claimedBy = :by AND size(waiters) = :n", DynamoDbUrlStore.AS_READ);
        assertEquals("(attribute_not_exists(fetchedAt) OR fetchedAt <= :fetchedAt)"
                + " AND (attribute_not_exists(redirectedAt) OR redirectedAt <= :fetchedAt)",
                DynamoDbUrlStore.FETCH_CONDITION);
        assertEquals("(attribute_not_exists(extractedFrom) OR extractedFrom < :from"
                + " OR (extractedFrom = :from AND extractedSha256 <> :sha))"
                + " AND (attribute_not_exists(fetchedAt) OR fetchedAt <= :from OR contentSha256 = :sha)",
                DynamoDbUrlStore.NEW_EXTRACTION_CONDITION);
        assertEquals("extractedFrom = :from AND extractedSha256 = :sha"
                + " AND (attribute_not_exists(fetchedAt) OR fetchedAt <= :from OR contentSha256 = :sha)",
                DynamoDbUrlStore.SAME_EXTRACTION_CONDITION);
        assertEquals("fetchedAt = :at AND noticeFrom = :at AND size(noticeTo) < :max",
                DynamoDbUrlStore.MORE_REQUESTS_CONDITION);
        assertEquals("fetchedAt = :at AND (attribute_not_exists(noticeFrom) OR noticeFrom < :at)",
                DynamoDbUrlStore.FIRST_REQUESTS_CONDITION);
    }

    /**
     * A release whose write landed and whose answer was lost: the SDK's repeat must still return the batches that
     * joined the claim, or their items stay queued. The delete of a claim nobody joined is repeated with nothing to
     * lose; a joined claim goes in a transaction, whose repeat DynamoDB recognises by its client request token.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // case,                    joined, operation
            "nobody-joined,             '',    DeleteItem",
            "two-joined,                'b c', TransactWriteItems",
            "two-joined-delete-retried, 'b c', DeleteItem",
    })
    void releaseClaim_whenItLandedButItsAnswerWasA500_returnsTheBatchesThatJoined(String name, String joined,
            String operation) {
        Instant stale = T1.minusSeconds(1800);
        store.claim(urlHash, url, "a", T1, stale);
        List<String> waiters = joined.isBlank() ? List.of() : List.of(joined.split(" "));
        waiters.forEach(batch -> store.claim(urlHash, url, batch, T1, stale));
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("release answered 500",
                FaultInjector.Call.dynamoDb(operation), FaultInjector.When.matches(1),
                FaultInjector.dynamoDbReply(500, "InternalServerError")));

        List<String> released;
        try (DynamoDbClient flaky = aws.dynamoDb(faults)) {
            released = new DynamoDbUrlStore(flaky, table).releaseClaim(urlHash);
        }

        assertEquals(2, faults.matched("release answered 500"), "answered 500 once, the SDK sent it again");
        assertEquals(waiters, released.stream().sorted().toList());
        assertEquals(List.of(), store.releaseClaim(urlHash), "released once");
        assertEquals(Claim.CLAIMED, store.claim(urlHash, url, "d", T2, T2.minusSeconds(1800)), "and free");
    }

    @Test
    void releaseClaim_whenABatchJoinsBetweenTheReadAndTheRelease_returnsItToo() {
        Instant stale = T1.minusSeconds(1800);
        store.claim(urlHash, url, "a", T1, stale);
        store.claim(urlHash, url, "b", T1, stale);
        // "c" joins right after the release's first delete is refused and before its transaction.
        AtomicBoolean joined = new AtomicBoolean();
        ExecutionInterceptor joinsMeanwhile = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                if (context.request() instanceof TransactWriteItemsRequest && joined.compareAndSet(false, true)) {
                    store.claim(urlHash, url, "c", T1, stale);
                }
            }
        };

        List<String> released;
        try (DynamoDbClient racing = aws.dynamoDb(joinsMeanwhile)) {
            released = new DynamoDbUrlStore(racing, table).releaseClaim(urlHash);
        }

        assertEquals(List.of("b", "c"), released.stream().sorted().toList());
        assertEquals(List.of(), store.releaseClaim(urlHash), "released once");
    }

    @Test
    void releaseClaim_whenAnotherCallReleasedItAndABatchClaimedItSince_leavesThatClaimAlone() {
        Instant stale = T1.minusSeconds(1800);
        store.claim(urlHash, url, "a", T1, stale);
        store.claim(urlHash, url, "b", T1, stale);
        List<String> servedByTheOther = new ArrayList<>();
        // Right before this release's transaction: a duplicate delivery releases the claim (and serves "b"), then
        // "c" claims the URL afresh and "d" joins it.
        AtomicBoolean raced = new AtomicBoolean();
        ExecutionInterceptor duplicate = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                if (context.request() instanceof TransactWriteItemsRequest && raced.compareAndSet(false, true)) {
                    servedByTheOther.addAll(store.releaseClaim(urlHash));
                    store.claim(urlHash, url, "c", T2, T2.minusSeconds(1800));
                    store.claim(urlHash, url, "d", T2, T2.minusSeconds(1800));
                }
            }
        };

        List<String> released;
        try (DynamoDbClient racing = aws.dynamoDb(duplicate)) {
            released = new DynamoDbUrlStore(racing, table).releaseClaim(urlHash);
        }

        assertEquals(List.of("b"), servedByTheOther);
        assertEquals(List.of(), released, "the claim it read is gone");
        assertEquals(List.of("d"), store.releaseClaim(urlHash), "c's claim, with d joined, was left alone");
    }

    @Test
    void claim_whenUrlNeverFetched_leavesTheRowAloneInAnItemOfItsOwn() {
        store.claim(urlHash, url, "a", T1, T1.minusSeconds(1800));

        assertEquals(Optional.empty(), store.find(urlHash));
        assertEquals("a", aws.dynamoDb().getItem(b -> b.tableName(table).key(DynamoDbUrlStore.claimKey(urlHash)))
                .item().get("claimedBy").s());
    }
}
