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
     * Ends one item. Returns false when it had already ended (a duplicate delivery), in which case nothing changes.
     * When this ends the batch's last item, completion is recorded; a concurrent finisher that also sees the batch
     * done loses the conditional write, so completion is recorded once.
     */
    public boolean finish(String batchId, String urlHash, ItemState state, String detail, Instant at) {
        if (!state.terminal()) {
            throw new IllegalArgumentException("not a terminal state: " + state);
        }
        if (!batches.finishItem(batchId, urlHash, state, detail, at)) {
            return false;
        }
        BatchStatus status = batches.status(batchId)
                .orElseThrow(() -> new IllegalStateException("batch header missing for " + batchId));
        if (status.done() && status.completedAt().isEmpty()) {
            batches.markCompleted(batchId, at);
        }
        return true;
    }
}
