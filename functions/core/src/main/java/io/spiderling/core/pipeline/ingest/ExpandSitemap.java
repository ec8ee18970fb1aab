package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.port.PlanQueue;
import io.spiderling.core.port.UploadPlanStore;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.sitemap.LimitHit;
import io.spiderling.core.sitemap.RefusedEntry;
import io.spiderling.core.sitemap.SitemapEntry;
import io.spiderling.core.sitemap.SitemapExpander;
import io.spiderling.core.sitemap.SitemapOutcome;
import io.spiderling.core.sitemap.SitemapSource;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Takes what a fetched sitemap lists into its batch (ADR 19), in the fetch invocation that fetched it. The list of a
 * urlset, text sitemap or feed takes an uploaded manifest's path: cut into chunks under {@code planned/}, each planned
 * by the plan function ({@link PlanSitemap}) through {@link ManifestGroups}, so its URLs are normalized, deduplicated
 * by position and planned like any other, and the sitemap's item ends with its last chunk. A sitemap index's children
 * (a thousand at most) become sitemap items of the batch here, parked to be fetched in their turn. Entries the
 * sitemaps protocol refuses become {@code invalid} items that say why ({@code sitemap-other-site},
 * {@code sitemap-outside-path}); a listed URL's {@code lastmod} goes to the planner with it ({@code sitemap-lastmod}).
 * What the sitemap added is counted on the batch once, so a sitemap read again after a crash adds nothing; and the
 * batch's total is not final until every sitemap is read, so it cannot complete before.
 */
public final class ExpandSitemap {

    /**
     * @param expander the limits of one sitemap or index
     * @param maxUrlsPerBatch how many items a batch may hold, sitemaps' URLs included
     * @param maxSitemapsPerBatch how many sitemaps (indexes included) a batch may read
     */
    public record Settings(SitemapExpander.Settings expander, long maxUrlsPerBatch, long maxSitemapsPerBatch) {
        public static final Settings DEFAULTS = new Settings(SitemapExpander.Settings.DEFAULTS, 1_000_000, 10_000);

        public Settings {
            Objects.requireNonNull(expander, "expander");
            if (maxUrlsPerBatch < 1 || maxSitemapsPerBatch < 1) {
                throw new IllegalArgumentException("a batch's sitemap limits must be at least 1, were "
                        + maxUrlsPerBatch + " and " + maxSitemapsPerBatch);
            }
        }
    }

    /** What reading the sitemap came to. */
    public sealed interface Read {
        /** Its item ends now: an index read, or a sitemap unreadable or over the batch's limit. */
        record Ended(Reason reason, String detail) implements Read {}

        /** Its list goes to the planners; the item ends when the last chunk is planned ({@link PlanSitemap}). */
        record Planning(String detail) implements Read {}
    }

    /** Room for this many entries of one sitemap in the positions of its batch's items. */
    private static final int ENTRY_BITS = 24;

    private final PlanningParts parts;
    private final UrlNormalizer normalizer;
    private final PlanQueue queue;
    private final SitemapExpander expander;
    private final Settings settings;

    /** @param queue where a sitemap's list goes to be planned, a chunk a message */
    public ExpandSitemap(PlanningParts parts, UrlNormalizer normalizer, PlanQueue queue, Settings settings) {
        this.parts = Objects.requireNonNull(parts, "parts");
        this.normalizer = Objects.requireNonNull(normalizer, "normalizer");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.expander = SitemapExpander.create(settings.expander());
    }

    /**
     * The most bytes of a sitemap the fetcher keeps: one more than a sitemap may have, so that a larger one is
     * unreadable as too large, not cut and read as broken.
     */
    public int maxBodyBytes() {
        return settings.expander().maxBytes() + 1;
    }

    /**
     * Reads the sitemap at {@code requested} (its item's URL, as requested), fetched for {@code batchId}.
     *
     * @throws IllegalArgumentException for a batch that does not exist
     */
    public Read read(String batchId, NormalizedUrl itemUrl, String requested, SitemapTask task, byte[] body,
            String contentType) {
        BatchStatus status = parts.batches().headers().status(batchId)
                .orElseThrow(() -> new IllegalArgumentException("no batch " + batchId));
        SitemapSource source = new SitemapSource(RequestUrl.parse(requested),
                task.namedBy().stream().map(RobotsOrigin::of).collect(Collectors.toSet()), task.indexDepth());
        String key = ItemKind.SITEMAP.key(itemUrl);
        // Taking one of the batch's sitemaps is exact; and until its list is counted, the batch's total is not
        // final: an entry that ends at once (refused, or skipped for a fresh copy) must not complete the batch
        // before the rest are added.
        UploadPlanStore.SitemapBegin begin = parts.batches().uploads().sitemapReading(batchId, key,
                settings.maxSitemapsPerBatch(), parts.clock().instant());
        if (!begin.begun()) {
            return new Read.Ended(Reason.SITEMAP_LIMIT, "the batch has begun " + settings.maxSitemapsPerBatch()
                    + " sitemaps, its limit; this one's list was not taken in");
        }
        // The room for URLs and for an index's sitemaps is read from the counts, not reserved: sitemaps read at the
        // same moment each see the same room, so the URLs may pass the limit by what those list, and an index may
        // name sitemaps that end as sitemap-limit when read.
        long sitemapsBegun = status.sitemaps().reading() + status.sitemaps().read()
                + (begin == UploadPlanStore.SitemapBegin.BEGUN ? 1 : 0);
        SitemapExpander.Budget budget = new SitemapExpander.Budget(
                Math.max(0, settings.maxUrlsPerBatch() - status.header().total()),
                Math.max(0, settings.maxSitemapsPerBatch() - sitemapsBegun));
        return switch (expander.expand(source, body, contentType == null ? "" : contentType, budget)) {
            case SitemapOutcome.Urls urls -> urls(batchId, key, source, urls);
            case SitemapOutcome.Index index -> index(batchId, key, task, index);
            case SitemapOutcome.Unreadable bad -> {
                parts.batches().uploads().sitemapRead(batchId, key, new ChunkCounts(0, 0), parts.clock().instant());
                yield new Read.Ended(Reason.SITEMAP_UNREADABLE, bad.why().wireName() + ": " + bad.detail());
            }
        };
    }

    /**
     * The list of a urlset, text sitemap or feed goes to the planners as an upload's chunks do: stored in chunks under
     * {@code planned/}, a plan message each. A sitemap of 50,000 URLs is then planned by several invocations of the
     * plan function, each with its 15 minutes, rather than in this fetch invocation's minute.
     */
    private Read urls(String batchId, String key, SitemapSource source, SitemapOutcome.Urls urls) {
        List<SitemapListing.Entry> entries = new ArrayList<>(urls.accepted().size() + urls.refused().size());
        urls.accepted().forEach(entry -> entries.add(new SitemapListing.Entry.Listed(entry.url(), entry.lastmod())));
        urls.refused().forEach(refused -> entries.add(refusal(source, refused)));
        String summary = "listed " + urls.accepted().size() + " URLs, " + urls.refused().size() + " refused"
                + urls.limit().map(l -> ", " + l.leftOut() + " left out (" + l.limit().wireName() + ")").orElse("");
        UploadPlanStore.SitemapCut cut = parts.batches().uploads().sitemapCut(batchId, key,
                SitemapListing.chunkCount(entries.size()), summary);
        List<Integer> chunks = java.util.stream.IntStream.range(0, cut.chunks()).boxed().toList();
        for (int chunk : chunks) {
            parts.blobs().put(BucketKeys.sitemapList(batchId, key, chunk), SitemapListing.chunk(entries, chunk),
                    "application/x-ndjson", java.util.Map.of());
        }
        queue.enqueueSitemap(batchId, key, chunks);
        return new Read.Planning(cut.summary() + "; planning in " + cut.chunks() + " chunks");
    }

    private Read index(String batchId, String key, SitemapTask task, SitemapOutcome.Index index) {
        SitemapItems.Taken taken = new SitemapItems(parts, normalizer).take(batchId, key, index.sitemaps(),
                task.child());
        return new Read.Ended(Reason.SITEMAP_EXPANDED, "an index of " + index.sitemaps().size() + " sitemaps: "
                + taken.items() + " items, " + taken.duplicates() + " duplicates, "
                + (index.refused().size() + taken.invalid()) + " refused" + leftOut(index.limit()));
    }

    /** An entry the sitemaps protocol refuses, with the reason and detail of its item. */
    static SitemapListing.Entry.Refused refusal(SitemapSource source, RefusedEntry refused) {
        String sitemap = source.url().value();
        return switch (refused.reason()) {
            case INVALID_URL -> new SitemapListing.Entry.Refused(refused.url(), Reason.INVALID_URL,
                    "listed by " + sitemap + ": not an absolute http(s) URL without user info");
            case OTHER_SITE -> new SitemapListing.Entry.Refused(refused.url(), Reason.SITEMAP_OTHER_SITE,
                    "listed by " + sitemap + ", of another site, whose robots.txt does not name the sitemap");
            case OUTSIDE_PATH -> new SitemapListing.Entry.Refused(refused.url(), Reason.SITEMAP_OUTSIDE_PATH,
                    "listed by " + sitemap + ", outside its directory " + source.directory());
        };
    }

    /**
     * The position of the sitemap's first entry among its batch's items: its key's first 32 bits, shifted past room
     * for {@code 2^24} entries, so that the entries of two sitemaps of one batch do not share positions.
     */
    static long firstPosition(String sitemapKey) {
        return Long.parseLong(sitemapKey.substring(0, 8), 16) << ENTRY_BITS;
    }

    static String leftOut(Optional<LimitHit> limit) {
        return limit.map(l -> "; " + l.leftOut() + " left out (" + l.limit().wireName() + ")").orElse("");
    }
}
