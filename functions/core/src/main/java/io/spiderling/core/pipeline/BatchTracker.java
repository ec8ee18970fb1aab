package io.spiderling.core.pipeline;

import io.spiderling.core.batch.BatchOutline;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.port.BatchHeaderStore;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.port.BatchItemStore.Ending;
import java.time.Instant;
import java.util.Optional;

/** Ends batch items, records a batch's completion exactly once, and emits it. */
public final class BatchTracker {

    /** Told when a batch completes: queues its callback and tells the listeners. */
    @FunctionalInterface
    public interface Completions {
        Completions NONE = status -> {};

        void completed(BatchStatus status);
    }

    private final BatchHeaderStore headers;
    private final BatchItemStore items;
    private final Completions completions;

    public BatchTracker(BatchHeaderStore headers, BatchItemStore items) {
        this(headers, items, Completions.NONE);
    }

    /**
     * @param headers where completion is recorded, and the counts read
     * @param items the items ended, each counted on its header
     */
    public BatchTracker(BatchHeaderStore headers, BatchItemStore items, Completions completions) {
        this.headers = headers;
        this.items = items;
        this.completions = completions;
    }

    /**
     * Ends one item. Returns false when it had already ended (a duplicate delivery), in which case no count changes.
     *
     * <p>Whenever the item may have been the batch's last ({@link Ending#mayComplete}) and the batch is then complete
     * by its counts but has no completion recorded, completion is recorded. That covers the call that ends the last
     * item, and also a redelivery after a crash between ending the last item and recording completion. Concurrent
     * callers race on a conditional write, so completion is recorded once.
     */
    public boolean finish(String batchId, String urlHash, Reason reason, String detail, Instant at) {
        Ending ending = finishItem(batchId, urlHash, reason, detail, at);
        if (ending.mayComplete()) {
            checkCompletion(batchId, at);
        }
        return ending.ended();
    }

    /**
     * Ends one item without checking the batch's completion: for a caller that ends several items and then calls
     * {@link #checkCompletion} once for each batch where an ending {@link Ending#mayComplete}, before it reports its
     * work done (so a crash in between is retried, and the retry checks).
     */
    public Ending finishItem(String batchId, String urlHash, Reason reason, String detail, Instant at) {
        return items.finishItem(batchId, urlHash, reason, detail, at);
    }

    /**
     * Records completion if the batch is complete by its counts and has none recorded. Needed wherever the last
     * count may change: ending an item, and (for an upload) planning its last chunk after its items have all ended.
     */
    public void checkCompletion(String batchId, Instant at) {
        Optional<BatchStatus> done = headers.status(batchId).filter(BatchStatus::done);
        if (done.isEmpty()) {
            return;
        }
        BatchStatus status = done.get();
        if (status.completedAt().isEmpty()) {
            if (!headers.markCompleted(batchId, at)) {
                return; // another caller recorded it, and emits it
            }
            status = BatchStatus.builder().header(status.header()).terminalCounts(status.terminalCounts())
                    .completedAt(Optional.of(at)).cancelledAt(status.cancelledAt()).planning(status.planning())
                    .callback(status.callback()).sitemaps(status.sitemaps())
                    .noticeFailures(status.noticeFailures()).build();
        } else if (status.callback().completionEmittedAt().isPresent()) {
            return;
        }
        // Recorded just now, or recorded by a caller that died before emitting it: emit, then say so. A caller racing
        // in between emits it twice, under the same event id, which receivers and the notify stage drop.
        completions.completed(status);
        headers.markCompletionEmitted(batchId, at);
    }

    public Optional<BatchStatus> status(String batchId) {
        return headers.status(batchId);
    }

    /** The batch's header and cancellation, without its counts (see {@link BatchHeaderStore#outline}). */
    public Optional<BatchOutline> outline(String batchId) {
        return headers.outline(batchId);
    }

    /** Whether the client cancelled the batch; an unknown batch is not cancelled. */
    public boolean cancelled(String batchId) {
        return headers.outline(batchId).flatMap(BatchOutline::cancelledAt).isPresent();
    }
}
