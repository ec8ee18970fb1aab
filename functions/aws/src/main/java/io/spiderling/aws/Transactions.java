package io.spiderling.aws;

import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * TransactWriteItems with the retries the SDK does not do. The SDK retries a throttled call, but never a cancelled
 * transaction, whatever the reasons of its cancellation. Two of them are worth trying again:
 * <ul>
 *   <li>a conflict: counters shared by many items (a batch's counter shard, a site's frontier counter) make concurrent
 *       transactions conflict on real DynamoDB (DynamoDB Local runs them one at a time);</li>
 *   <li>throttling: a key over its partition's throughput ({@code ProvisionedThroughputExceeded}) or a table over its
 *       quota ({@code ThrottlingError}) cancels the transaction too. Thrown at once, it failed a whole planning chunk
 *       or a fetched page's ending on the first throttled second (the scale model showed it, issue 22); AWS asks
 *       for a retry with exponential backoff, as for a throttled single call.</li>
 * </ul>
 * Re-running a cancelled transaction is safe: its conditions make it all-or-nothing.
 */
final class Transactions {

    static final String CONDITION_FAILED = "ConditionalCheckFailed";
    private static final int ATTEMPTS = 8;
    /** 20 ms after the first conflict, doubling up to a second. */
    private static final Backoff CONFLICT_BACKOFF = Backoff.sleeping(20, 1_000);
    /**
     * 50 ms after the first throttle, doubling up to 2 s: 2.6 to 5.2 s over the 7 pauses, longer than the conflicts'
     * since a throttled partition recovers by the second, not by the millisecond.
     */
    private static final Backoff THROTTLE_BACKOFF = Backoff.sleeping(50, 2_000);

    /** Why a transaction was cancelled, when it is worth trying again. */
    enum Retryable {
        CONFLICT("a conflicting transaction"),
        THROTTLED("a throttled transaction");

        private final String description;

        Retryable(String description) {
            this.description = description;
        }

        /**
         * The reason to try a transaction that no condition refused again, if any: a throttle before a conflict (its
         * backoff is the longer).
         */
        static Optional<Retryable> of(List<CancellationReason> reasons) {
            if (reasons.stream().anyMatch(r -> "ProvisionedThroughputExceeded".equals(r.code())
                    || "ThrottlingError".equals(r.code()))) {
                return Optional.of(THROTTLED);
            }
            if (reasons.stream().anyMatch(r -> "TransactionConflict".equals(r.code()))) {
                return Optional.of(CONFLICT);
            }
            return Optional.empty();
        }
    }

    private Transactions() {}

    /**
     * Returns empty when the transaction was applied, or the cancellation reasons (one per item, in order) when a
     * condition refused it, in which case nothing changed. Other cancellations, and conflicts or throttles that
     * outlast the retries, are thrown.
     */
    static Optional<List<CancellationReason>> write(DynamoDbClient dynamo, TransactWriteItem... items) {
        return write(dynamo, CONFLICT_BACKOFF, THROTTLE_BACKOFF, items);
    }

    /** {@link #write}, pausing with the given backoffs (a test's records instead of sleeping). */
    static Optional<List<CancellationReason>> write(DynamoDbClient dynamo, Backoff conflicts, Backoff throttles,
            TransactWriteItem... items) {
        for (int attempt = 1; ; attempt++) {
            try {
                dynamo.transactWriteItems(b -> b.transactItems(items));
                return Optional.empty();
            } catch (TransactionCanceledException e) {
                List<CancellationReason> reasons = e.cancellationReasons();
                if (reasons.stream().anyMatch(r -> CONDITION_FAILED.equals(r.code()))) {
                    return Optional.of(reasons);
                }
                Optional<Retryable> retry = Retryable.of(reasons);
                if (retry.isEmpty() || attempt >= ATTEMPTS) {
                    throw e;
                }
                (retry.get() == Retryable.THROTTLED ? throttles : conflicts).pause(attempt,
                        retry.get().description);
            }
        }
    }
}
