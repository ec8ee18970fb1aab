package io.spiderling.core.port;

import io.spiderling.core.batch.ChunkCounts;
import java.time.Instant;

/**
 * The planning of a batch whose client uploads its manifest: how the upload is cut, and which chunks are planned.
 * The progress and the chunks' counts go on the batch's header and are read with {@link BatchHeaderStore#status}.
 */
public interface UploadPlanStore {

    /**
     * Records, once, that the batch's uploaded manifest arrived and how it is cut. Returns true for the call that
     * recorded it; false when it was recorded before (then {@link BatchHeaderStore#status} tells how) or the batch is
     * unknown.
     */
    boolean beginPlanning(String batchId, int chunks, long bytes, Instant at);

    /**
     * Records that a chunk is planned and adds its counts to the batch, atomically and once: a chunk planned again
     * after a crash adds nothing. Returns true when recorded now; false, recording nothing, when planning has not
     * begun.
     */
    boolean chunkPlanned(String batchId, int chunk, ChunkCounts counts, Instant at);

    /** Whether {@link #chunkPlanned} recorded the chunk. */
    boolean isChunkPlanned(String batchId, int chunk);

    /** What {@link #sitemapReading} did. */
    enum SitemapBegin {
        /** The sitemap took one of the batch's sitemaps now. */
        BEGUN,
        /** It had begun before (a sitemap read again after a crash): it keeps the place it took then. */
        BEGUN_BEFORE,
        /** The batch has begun as many sitemaps as it may (or does not exist): nothing recorded. */
        OVER_LIMIT;

        /** Whether the sitemap may be read. */
        public boolean begun() {
            return this != OVER_LIMIT;
        }
    }

    /**
     * Records, once, that the list of the sitemap whose item is {@code sitemapKey} is being taken into the batch (ADR
     * 19), if the batch has begun fewer than {@code maxSitemaps} sitemaps: exactly, whatever runs at the same time,
     * and a sitemap that began once keeps its place. Until {@link #sitemapRead} records it read, the batch's total is
     * not final ({@code BatchStatus#planned}), since what the list adds is counted as it is added.
     */
    SitemapBegin sitemapReading(String batchId, String sitemapKey, long maxSitemaps, Instant at);

    /**
     * Records that the sitemap whose item is {@code sitemapKey} was read (ADR 19) and adds what it listed to the
     * batch's counts, atomically and once: a sitemap read again after a crash adds nothing. It ends the reading
     * {@link #sitemapReading} began. Any batch may read sitemaps, uploaded or not. Returns true when recorded now;
     * false, recording nothing, when it was recorded before or the batch is unknown.
     */
    boolean sitemapRead(String batchId, String sitemapKey, ChunkCounts counts, Instant at);
}
