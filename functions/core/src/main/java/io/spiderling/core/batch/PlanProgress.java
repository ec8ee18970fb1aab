package io.spiderling.core.batch;

/**
 * How far the planning of an uploaded manifest has got.
 *
 * @param chunks how many chunks the manifest was cut into; -1 while the upload has not arrived, 0 when the batch was
 *     cancelled before it did
 * @param chunksDone how many of them are planned
 * @param bytes the manifest's size
 */
public record PlanProgress(int chunks, int chunksDone, long bytes) {

    /** The upload has not arrived yet. */
    public static final PlanProgress AWAITING_UPLOAD = new PlanProgress(-1, 0, 0);

    public boolean uploaded() {
        return chunks >= 0;
    }

    /** Every line has an item (or was counted as a duplicate), so the header's total is final. */
    public boolean planned() {
        return uploaded() && chunksDone >= chunks;
    }
}
