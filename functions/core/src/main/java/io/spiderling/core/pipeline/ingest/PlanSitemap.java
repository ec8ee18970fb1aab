package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.port.BatchItemStore.Invalid;
import io.spiderling.core.port.UploadPlanStore;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Plans one chunk of a read sitemap's list (ADR 19), in the plan function, as {@link PlanUpload} plans a chunk of an
 * uploaded manifest: through {@link ManifestGroups}, so a sitemap's URL costs what an uploaded one does. The chunk's
 * counts are added to the batch once; the call that finds every chunk of the list planned (the last, or its retry)
 * records the sitemap read and ends its item, {@code sitemap-expanded}, with what it listed and what became of it.
 */
public final class PlanSitemap {

    /** What planning one chunk did. */
    public record ChunkOutcome(String batchId, String sitemapKey, int chunk, ChunkCounts counts, boolean lastChunk) {}

    private final PlanningParts parts;
    private final UrlNormalizer normalizer;
    private final BatchTracker tracker;

    /** @param tracker ends the sitemap's item and emits the completion it may bring */
    public PlanSitemap(PlanningParts parts, UrlNormalizer normalizer, BatchTracker tracker) {
        this.parts = Objects.requireNonNull(parts, "parts");
        this.normalizer = Objects.requireNonNull(normalizer, "normalizer");
        this.tracker = Objects.requireNonNull(tracker, "tracker");
    }

    /**
     * Plans chunk {@code chunk} of the list of the sitemap whose item is {@code sitemapKey}. Throws on an
     * infrastructure failure, so the message is retried and the chunk planned again, which adds nothing twice.
     *
     * @throws IllegalArgumentException for a batch or a chunk that does not exist; retrying cannot help
     */
    public ChunkOutcome onChunk(String batchId, String sitemapKey, int chunk) {
        BatchStatus status = parts.batches().headers().status(batchId)
                .orElseThrow(() -> new IllegalArgumentException("no batch " + batchId));
        String key = BucketKeys.sitemapList(batchId, sitemapKey, chunk);
        List<SitemapListing.Entry> entries = SitemapListing.read(parts.blobs().get(key)
                .orElseThrow(() -> new IllegalArgumentException("no sitemap list chunk " + key)).bytes());
        Instant now = parts.clock().instant();
        ManifestGroups run = new ManifestGroups(parts, ItemPlanner.Batch.of(batchId, Optional.of(status)), now);
        long first = ExpandSitemap.firstPosition(sitemapKey) + SitemapListing.firstIndex(chunk);
        for (int i = 0; i < entries.size(); i++) {
            long position = first + i;
            switch (entries.get(i)) {
                case SitemapListing.Entry.Listed listed -> {
                    switch (normalizer.normalize(listed.url())) {
                        case NormalizationResult.Accepted accepted -> run.add(position, accepted, listed.lastmod());
                        case NormalizationResult.Rejected rejected ->
                                run.invalid(Invalid.url(position, listed.url(), rejected.reason()));
                    }
                }
                case SitemapListing.Entry.Refused refused ->
                        run.invalid(new Invalid(position, refused.url(), refused.reason(), refused.detail()));
            }
        }
        ManifestGroups.Planned planned = run.finish();
        UploadPlanStore.SitemapProgress progress = parts.batches().uploads().sitemapChunkPlanned(batchId, sitemapKey,
                chunk, planned.chunkCounts(), now);
        if (progress.done()) {
            // Read now: the batch's total is final once no other sitemap is being read, and the item may end it.
            parts.batches().uploads().sitemapRead(batchId, sitemapKey, new ChunkCounts(0, 0), now);
            tracker.finish(batchId, sitemapKey, Reason.SITEMAP_EXPANDED, progress.cut().summary() + ": "
                    + progress.planned().items() + " items, " + progress.planned().duplicates() + " duplicates",
                    parts.clock().instant());
            // Also when the item had ended before (a retry), whose ending checks nothing. Before the last chunk
            // the batch cannot complete: the sitemap is still being read.
            tracker.checkCompletion(batchId, parts.clock().instant());
        }
        return new ChunkOutcome(batchId, sitemapKey, chunk, planned.chunkCounts(), progress.done());
    }
}
