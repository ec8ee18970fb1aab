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

    /**
     * Records, once, how the list of a sitemap whose reading began is cut into chunks to be planned, and what the
     * sitemap listed, for its item's detail. Returns the cut recorded, this one or an earlier call's: a sitemap read
     * again after a crash keeps the first cut, which chunks may already be planned by.
     *
     * @param summary what the sitemap listed, refused and left out, e.g. {@code listed 3 URLs, 1 refused}
     */
    SitemapCut sitemapCut(String batchId, String sitemapKey, int chunks, String summary);

    /** How a sitemap's list is cut (ADR 19), and what it listed. */
    record SitemapCut(int chunks, String summary) {
        public SitemapCut {
            java.util.Objects.requireNonNull(summary, "summary");
            if (chunks < 1) {
                throw new IllegalArgumentException("a sitemap's list has at least one chunk, not " + chunks);
            }
        }
    }

    /**
     * Records that a chunk of a sitemap's list is planned and adds its counts to the batch's, atomically and once.
     * Returns the sitemap's progress after it, whether recorded now or before, so that the call that finds every
     * chunk planned (a retry, too) can end the sitemap's item.
     *
     * @throws IllegalStateException when the sitemap's list was not cut ({@link #sitemapCut})
     */
    SitemapProgress sitemapChunkPlanned(String batchId, String sitemapKey, int chunk, ChunkCounts counts,
            Instant at);

    /**
     * @param cut how the list was cut
     * @param chunksPlanned how many of its chunks are planned
     * @param planned what the planned chunks added: items and duplicates
     */
    record SitemapProgress(SitemapCut cut, int chunksPlanned, ChunkCounts planned) {
        /** Whether every chunk is planned. */
        public boolean done() {
            return chunksPlanned >= cut.chunks();
        }
    }
}
