package io.spiderling.aws;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
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
                backOff(attempt);
            }
        }
    }

    private static void backOff(int attempt) {
        long ceiling = Math.min(1_000, 10L << attempt);
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying a conflicting transaction", e);
        }
    }
}
