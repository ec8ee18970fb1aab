package io.spiderling.core.port;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOutline;
import io.spiderling.core.batch.BatchStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * A batch's header and the marks of its life, each recorded once: created, completed, completion emitted, callback
 * delivered or given up, progress reports posted, cancelled; and a count of the change notices given up. {@link #status} reads them back together with what the
 * other batch ports count on the header: the items ended by state ({@link BatchItemStore}) and the upload's planning
 * ({@link UploadPlanStore}).
 */
public interface BatchHeaderStore {

    /**
     * Creates the header unless the batch exists. Returns true when it was created now, false when a batch with that
     * id already existed; the existing one is left unchanged.
     */
    boolean createBatch(BatchHeader header);

    /** The header, its counts and its marks; empty for an unknown batch. */
    Optional<BatchStatus> status(String batchId);

    /**
     * The header and its cancellation, without the counts: for a caller that needs a batch's options, creation time
     * or cancellation, not its progress, and reads it often (the fetcher). It may be read eventually consistently, so
     * a cancellation may show a second late; a batch that exists is never reported unknown. Empty for an unknown
     * batch.
     */
    Optional<BatchOutline> outline(String batchId);

    /** Records completion once. Returns true only for the call that recorded it; false for an unknown batch. */
    boolean markCompleted(String batchId, Instant at);

    /**
     * Records that the completion was emitted (queued for the callback and published to listeners). Returns true only
     * for the call that recorded it; false for an unknown batch.
     */
    boolean markCompletionEmitted(String batchId, Instant at);

    /**
     * Records that the completion callback was delivered, on its {@code attempts}-th attempt; the first record wins.
     * Nothing happens for an unknown batch.
     */
    void recordCallbackDelivered(String batchId, Instant at, int attempts);

    /**
     * Records that the completion callback was given up, with why; a delivery recorded earlier is kept. Nothing
     * happens for an unknown batch.
     */
    void recordCallbackFailed(String batchId, String reason, int attempts, Instant at);

    /**
     * Counts a change notice ({@code url.changed} to the callback) given up, and keeps {@code reason} as the latest
     * failure; concurrent calls each count. Nothing happens for an unknown batch.
     */
    void recordChangeNoticeFailed(String batchId, String reason, Instant at);

    /**
     * Records that progress report {@code sequence} is being posted. Returns false when that report (or a later one)
     * already was: a duplicate message, which must not post again; false too for an unknown batch.
     */
    boolean markProgressSent(String batchId, long sequence);

    /** Records a cancellation once. Returns true only for the call that recorded it; false for an unknown batch. */
    boolean markCancelled(String batchId, Instant at);
}
