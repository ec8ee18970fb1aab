package io.spiderling.core.pipeline;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.port.BatchStore;
import java.time.Instant;

/** Ends batch items and records a batch's completion exactly once. */
public final class BatchTracker {

    private final BatchStore batches;

    public BatchTracker(BatchStore batches) {
        this.batches = batches;
    }

    /**
     * Ends one item. Returns false when it had already ended (a duplicate delivery), in which case no count changes.
     *
     * <p>Whenever the batch is then complete by its counts but has no completion recorded, completion is recorded.
     * That covers the call that ends the last item, and also a redelivery after a crash between ending the last item
     * and recording completion. Concurrent callers race on a conditional write, so completion is recorded once.
     */
    public boolean finish(String batchId, String urlHash, ItemState state, String detail, Instant at) {
        if (!state.terminal()) {
            throw new IllegalArgumentException("not a terminal state: " + state);
        }
        boolean moved = batches.finishItem(batchId, urlHash, state, detail, at);
        checkCompletion(batchId, at);
        return moved;
    }

    /**
     * Records completion if the batch is complete by its counts and has none recorded. Needed wherever the last
     * count may change: ending an item, and (for an upload) planning its last chunk after its items have all ended.
     */
    public void checkCompletion(String batchId, Instant at) {
        batches.status(batchId)
                .filter(status -> status.done() && status.completedAt().isEmpty())
                .ifPresent(status -> batches.markCompleted(batchId, at));
    }

    public java.util.Optional<BatchStatus> status(String batchId) {
        return batches.status(batchId);
    }

    /** Whether the client cancelled the batch; an unknown batch is not cancelled. */
    public boolean cancelled(String batchId) {
        return batches.status(batchId).flatMap(BatchStatus::cancelledAt).isPresent();
    }
}
