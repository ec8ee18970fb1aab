package io.spiderling.aws;

import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * TransactWriteItems with the retry the SDK does not do. Counters shared by many items (a batch's header, a site's
 * frontier counter) make concurrent transactions conflict on real DynamoDB (DynamoDB Local runs them one at a time).
 * Re-running a conflicted transaction is safe: its conditions make it all-or-nothing.
 */
final class Transactions {

    static final String CONDITION_FAILED = "ConditionalCheckFailed";
    private static final int CONFLICT_ATTEMPTS = 8;
    /** 20 ms after the first conflict, doubling up to a second. */
    private static final Backoff CONFLICT_BACKOFF = Backoff.sleeping(20, 1_000);

    private Transactions() {}

    /**
     * Returns empty when the transaction was applied, or the cancellation reasons (one per item, in order) when a
     * condition refused it, in which case nothing changed. Other cancellations, and conflicts that outlast the
     * retries, are thrown.
     */
    static Optional<List<CancellationReason>> write(DynamoDbClient dynamo, TransactWriteItem... items) {
        for (int attempt = 1; ; attempt++) {
            try {
                dynamo.transactWriteItems(b -> b.transactItems(items));
                return Optional.empty();
            } catch (TransactionCanceledException e) {
                List<CancellationReason> reasons = e.cancellationReasons();
                if (reasons.stream().anyMatch(r -> CONDITION_FAILED.equals(r.code()))) {
                    return Optional.of(reasons);
                }
                boolean conflict = reasons.stream().anyMatch(r -> "TransactionConflict".equals(r.code()));
                if (!conflict || attempt >= CONFLICT_ATTEMPTS) {
                    throw e;
                }
                CONFLICT_BACKOFF.pause(attempt, "a conflicting transaction");
            }
        }
    }
}
