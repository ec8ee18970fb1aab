package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.SitemapCounts;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.port.UploadPlanStore.SitemapBegin;
import io.spiderling.core.port.UploadPlanStore.SitemapCut;
import io.spiderling.core.port.UploadPlanStore.SitemapProgress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What {@link UploadPlanStore}'s javadoc promises, run against every implementation. The progress and the counts
 * chunks add are read with {@link BatchHeaderStore#status}.
 */
public abstract class UploadPlanStoreContract extends BatchPortsContract {

    private UploadPlanStore uploads() {
        return stores.uploads();
    }

    private BatchStatus status() {
        return stores.headers().status(batchId).orElseThrow();
    }

    @Test
    void chunkPlanned_whenEveryChunkRecordedOnceOrTwice_addsEachChunksCountsOnceAndThenIsPlanned() {
        stores.headers().createBatch(uploadHeader());

        assertTrue(uploads().beginPlanning(batchId, 2, 3_000_000, CREATED));
        assertFalse(uploads().beginPlanning(batchId, 7, 9, LATER), "the first cut stands");
        assertTrue(uploads().chunkPlanned(batchId, 0, new ChunkCounts(5, 1), CREATED));
        assertFalse(uploads().chunkPlanned(batchId, 0, new ChunkCounts(5, 1), LATER), "a chunk planned again");
        assertFalse(status().planned());
        assertTrue(uploads().chunkPlanned(batchId, 1, new ChunkCounts(7, 0), LATER));

        BatchStatus status = status();
        assertEquals(Optional.of(new PlanProgress(2, 2, 3_000_000)), status.planning());
        assertEquals(12, status.header().total());
        assertEquals(1, status.header().duplicates());
        assertEquals(Optional.of(UploadFormat.JSONL), status.header().upload());
        assertTrue(status.planned());
        assertTrue(uploads().isChunkPlanned(batchId, 1));
        assertFalse(uploads().isChunkPlanned(batchId, 2));
    }

    @Test
    void sitemapRead_whenASitemapOfABatchIsReadOnceOrTwice_addsItsCountsOnce() {
        stores.headers().createBatch(header(3));
        assertEquals(SitemapBegin.BEGUN, uploads().sitemapReading(batchId, "sitemap-a", 10, CREATED));
        assertEquals(SitemapBegin.BEGUN_BEFORE, uploads().sitemapReading(batchId, "sitemap-a", 10, CREATED),
                "begun once");
        assertEquals(SitemapBegin.BEGUN, uploads().sitemapReading(batchId, "sitemap-b", 10, CREATED));
        assertFalse(status().planned(), "the total is not final while a sitemap's list is taken in");
        assertEquals(2, status().sitemapsReading());

        assertTrue(uploads().sitemapRead(batchId, "sitemap-a", new ChunkCounts(40, 2), CREATED));
        assertFalse(uploads().sitemapRead(batchId, "sitemap-a", new ChunkCounts(40, 2), LATER), "read again");
        assertTrue(uploads().sitemapRead(batchId, "sitemap-b", new ChunkCounts(5, 0), LATER));

        BatchStatus status = status();
        assertTrue(status.planned(), "both sitemaps read");
        assertEquals(new SitemapCounts(0, 2), status.sitemaps(), "none reading, two read, each once");
        assertEquals(48, status.header().total(), "the 3 submitted and what the two sitemaps listed");
        assertEquals(2 + 2, status.header().duplicates(), "the header's 2 and the first sitemap's 2");
        assertFalse(uploads().sitemapRead("no-such-batch", "sitemap-a", new ChunkCounts(1, 0), LATER));
    }

    @Test
    void sitemapReading_whenTheBatchHasBegunItsLimit_refusesMoreButKeepsThePlaceOfOneBegunBefore() {
        stores.headers().createBatch(header(1));
        assertEquals(SitemapBegin.BEGUN, uploads().sitemapReading(batchId, "sitemap-a", 2, CREATED));
        assertTrue(uploads().sitemapRead(batchId, "sitemap-a", new ChunkCounts(3, 0), CREATED));
        assertEquals(SitemapBegin.BEGUN, uploads().sitemapReading(batchId, "sitemap-b", 2, CREATED));

        assertEquals(SitemapBegin.OVER_LIMIT, uploads().sitemapReading(batchId, "sitemap-c", 2, LATER));
        assertEquals(SitemapBegin.BEGUN_BEFORE, uploads().sitemapReading(batchId, "sitemap-b", 2, LATER),
                "a retry of one that began");
        assertEquals(SitemapBegin.OVER_LIMIT, uploads().sitemapReading("no-such-batch", "sitemap-a", 2, LATER));
        assertEquals(new SitemapCounts(1, 1), status().sitemaps(), "c took nothing");
    }

    @Test
    void sitemapReading_whenManyBeginAtOnce_letsExactlyTheLimitBegin() throws Exception {
        stores.headers().createBatch(header(1));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<SitemapBegin>> begins = new java.util.ArrayList<>();
            for (int i = 0; i < 24; i++) {
                String key = "sitemap-" + i;
                begins.add(pool.submit(() -> uploads().sitemapReading(batchId, key, 5, CREATED)));
            }
            long begun = 0;
            for (var begin : begins) {
                begun += begin.get() == SitemapBegin.BEGUN ? 1 : 0;
            }
            assertEquals(5, begun);
            assertEquals(5, status().sitemapsReading());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void sitemapChunkPlanned_whenEachChunkIsPlannedOnceOrTwice_countsEachOnceAndSaysWhenAllAre() {
        stores.headers().createBatch(header(1));
        assertEquals(SitemapBegin.BEGUN, uploads().sitemapReading(batchId, "sitemap-a", 10, CREATED));
        SitemapCut cut = uploads().sitemapCut(batchId, "sitemap-a", 2, "listed 30 URLs, 1 refused");
        assertEquals(new SitemapCut(2, "listed 30 URLs, 1 refused"), cut);
        assertEquals(cut, uploads().sitemapCut(batchId, "sitemap-a", 3, "listed 31 URLs"), "the first cut stands");

        SitemapProgress first = uploads().sitemapChunkPlanned(batchId, "sitemap-a", 1, new ChunkCounts(10, 1), LATER);
        SitemapProgress again = uploads().sitemapChunkPlanned(batchId, "sitemap-a", 1, new ChunkCounts(10, 1), LATER);
        SitemapProgress last = uploads().sitemapChunkPlanned(batchId, "sitemap-a", 0, new ChunkCounts(19, 0), LATER);

        assertEquals(new SitemapProgress(cut, 1, new ChunkCounts(10, 1)), first);
        assertFalse(first.done());
        assertEquals(first, again, "planned again: nothing added");
        assertEquals(new SitemapProgress(cut, 2, new ChunkCounts(29, 1)), last);
        assertTrue(last.done());
        assertEquals(1 + 29, status().header().total());
        assertEquals(last, uploads().sitemapChunkPlanned(batchId, "sitemap-a", 0, new ChunkCounts(19, 0), LATER),
                "a retry of the last chunk still says all are planned");
        assertFalse(status().planned(), "still reading until the sitemap is recorded read");
        assertTrue(uploads().sitemapRead(batchId, "sitemap-a", new ChunkCounts(0, 0), LATER));
        assertTrue(status().planned());
    }

    @Test
    void sitemapCut_whenTheSitemapWasNotBegun_isRefused() {
        stores.headers().createBatch(header(1));

        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> uploads().sitemapCut(batchId, "sitemap-a", 2, "listed 3 URLs"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> uploads().sitemapChunkPlanned(batchId, "sitemap-a", 0, new ChunkCounts(1, 0), CREATED));
    }

    @Test
    void chunkPlanned_whenPlanningHasNotBegun_recordsNothing() {
        stores.headers().createBatch(uploadHeader());

        assertFalse(uploads().chunkPlanned(batchId, 0, new ChunkCounts(5, 1), CREATED), "no cut recorded yet");

        assertFalse(uploads().isChunkPlanned(batchId, 0));
        BatchStatus status = status();
        assertEquals(Optional.of(PlanProgress.AWAITING_UPLOAD), status.planning());
        assertEquals(0, status.header().total());
    }

    @Test
    void beginPlanning_whenBatchUnknown_returnsFalseAndCreatesNoHeader() {
        assertFalse(uploads().beginPlanning(batchId, 2, 100, CREATED));

        assertEquals(Optional.empty(), stores.headers().status(batchId));
        assertFalse(uploads().isChunkPlanned(batchId, 0));
    }

    @Test
    void beginPlanning_whenTheUploadIsEmpty_leavesTheBatchPlannedWithNoChunks() {
        stores.headers().createBatch(uploadHeader());

        assertTrue(uploads().beginPlanning(batchId, 0, 0, CREATED));

        BatchStatus status = status();
        assertEquals(Optional.of(new PlanProgress(0, 0, 0)), status.planning());
        assertTrue(status.planned());
        assertTrue(status.done());
    }
}
