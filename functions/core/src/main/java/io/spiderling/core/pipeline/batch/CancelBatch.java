package io.spiderling.core.pipeline.batch;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.port.BatchHeaderStore;
import io.spiderling.core.port.UploadPlanStore;
import java.time.Clock;
import java.time.Instant;

/**
 * Cancels a batch. Recording the cancellation is all it does: each of the batch's URLs that has not started yet ends
 * as {@code cancelled} when its fetch job comes up, without the site being contacted, so the cost does not grow with
 * the batch and the batch still completes through the usual path. URLs already being fetched finish normally.
 */
public final class CancelBatch {

    private final BatchHeaderStore batches;
    private final UploadPlanStore uploads;
    private final Clock clock;
    private final BatchTracker tracker;

    /**
     * @param uploads where an upload that never came is closed, with no chunks to plan
     * @param tracker records the completion a cancellation brings to a batch with no URLs
     */
    public CancelBatch(BatchHeaderStore batches, UploadPlanStore uploads, Clock clock, BatchTracker tracker) {
        this.batches = batches;
        this.uploads = uploads;
        this.clock = clock;
        this.tracker = tracker;
    }

    public sealed interface Result {
        /** @param at when the cancellation was first recorded (a repeated cancel answers the same) */
        record Cancelled(BatchStatus status, Instant at) implements Result {}

        record AlreadyComplete(BatchStatus status) implements Result {}

        record NotFound() implements Result {}
    }

    public Result cancel(String batchId) {
        var before = batches.status(batchId);
        if (before.isEmpty()) {
            return new Result.NotFound();
        }
        if (before.get().cancelledAt().isEmpty() && before.get().done()) {
            return new Result.AlreadyComplete(before.get());
        }
        Instant now = clock.instant();
        batches.markCancelled(batchId, now);
        if (before.get().planning().filter(p -> !p.uploaded()).isPresent()) {
            // An upload that never came: the batch has no URLs, so it is complete now. A late upload plans nothing.
            uploads.beginPlanning(batchId, 0, 0, now);
            tracker.checkCompletion(batchId, now);
        }
        BatchStatus after = batches.status(batchId).orElseThrow();
        return new Result.Cancelled(after, after.cancelledAt().orElseThrow());
    }
}
