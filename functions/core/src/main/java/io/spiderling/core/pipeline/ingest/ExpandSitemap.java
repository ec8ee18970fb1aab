package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.fetch.SitemapTask;
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
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Takes what a fetched sitemap lists into its batch (ADR 19). Its URLs take an uploaded manifest's path
 * ({@link ManifestGroups}): normalized, deduplicated by position and planned like any other; a sitemap index's children
 * become sitemap items of the batch, parked to be fetched in their turn. Entries the sitemaps protocol refuses become
 * {@code invalid} items that say why. What the sitemap added is counted on the batch once ({@code sitemapRead}), so a
 * sitemap read again after a crash adds nothing; and the sitemap's own item ends only after all of it is in the batch,
 * so the batch cannot complete before its sitemaps are read.
 *
 * <p>Not yet: the {@code lastmod} skip ({@code LastmodSkip}), the count of sitemaps a batch has read as a limit (each
 * index is limited, not the batch), and reason codes of their own for refused entries.
 */
public final class ExpandSitemap {

    /**
     * @param maxUrlsPerBatch how many items a batch may hold, sitemaps' URLs included
     * @param maxSitemapsPerIndex how many sitemaps one index may name
     */
    public record Settings(SitemapExpander.Settings expander, long maxUrlsPerBatch, long maxSitemapsPerIndex) {
        public static final Settings DEFAULTS = new Settings(SitemapExpander.Settings.DEFAULTS, 1_000_000, 1_000);

        public Settings {
            Objects.requireNonNull(expander, "expander");
        }
    }

    /** How the sitemap's item ends: read, or not. */
    public record Read(Reason reason, String detail) {}

    /** Room for this many entries of one sitemap in the positions of its batch's items. */
    private static final int ENTRY_BITS = 24;

    private final PlanningParts parts;
    private final UrlNormalizer normalizer;
    private final SitemapExpander expander;
    private final Settings settings;

    public ExpandSitemap(PlanningParts parts, UrlNormalizer normalizer, Settings settings) {
        this.parts = Objects.requireNonNull(parts, "parts");
        this.normalizer = Objects.requireNonNull(normalizer, "normalizer");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.expander = SitemapExpander.create(settings.expander());
    }

    /** The most decoded bytes of a sitemap the fetcher keeps. */
    public int maxBodyBytes() {
        return settings.expander().maxBytes();
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
        SitemapExpander.Budget budget = new SitemapExpander.Budget(
                Math.max(0, settings.maxUrlsPerBatch() - status.header().total()), settings.maxSitemapsPerIndex());
        String key = ItemKind.SITEMAP.key(itemUrl);
        SitemapOutcome outcome = expander.expand(source, body, contentType == null ? "" : contentType, budget);
        if (!(outcome instanceof SitemapOutcome.Unreadable)) {
            // Until its list is counted, the batch's total is not final: an entry that ends at once (refused, or
            // skipped for a fresh copy) must not complete the batch before the rest are added.
            parts.batches().uploads().sitemapReading(batchId, key, parts.clock().instant());
        }
        return switch (outcome) {
            case SitemapOutcome.Urls urls -> urls(batchId, key, status, urls);
            case SitemapOutcome.Index index -> index(batchId, key, task, index);
            case SitemapOutcome.Unreadable bad -> new Read(Reason.SITEMAP_UNREADABLE,
                    bad.why().wireName() + ": " + bad.detail());
        };
    }

    private Read urls(String batchId, String key, BatchStatus status, SitemapOutcome.Urls urls) {
        Instant now = parts.clock().instant();
        ManifestGroups run = new ManifestGroups(parts, ItemPlanner.Batch.of(batchId, Optional.of(status)), now);
        long first = firstPosition(key);
        int at = 0;
        for (SitemapEntry entry : urls.accepted()) {
            long position = first + at++;
            switch (normalizer.normalize(entry.url())) {
                case NormalizationResult.Accepted accepted -> run.add(position, accepted);
                case NormalizationResult.Rejected rejected -> run.invalid(position, entry.url(), rejected.reason());
            }
        }
        for (RefusedEntry refused : urls.refused()) {
            run.invalid(first + at++, refused.url(), refused.reason().wireName());
        }
        ManifestGroups.Planned planned = run.finish();
        parts.batches().uploads().sitemapRead(batchId, key, planned.chunkCounts(), now);
        return new Read(Reason.SITEMAP_EXPANDED, "listed " + urls.accepted().size() + " URLs: "
                + (planned.items() - urls.refused().size()) + " items, " + planned.duplicates() + " duplicates, "
                + urls.refused().size() + " refused" + leftOut(urls.limit()));
    }

    private Read index(String batchId, String key, SitemapTask task, SitemapOutcome.Index index) {
        SitemapItems.Taken taken = new SitemapItems(parts, normalizer).take(batchId, key, index.sitemaps(),
                task.child());
        return new Read(Reason.SITEMAP_EXPANDED, "an index of " + index.sitemaps().size() + " sitemaps: "
                + taken.items() + " items, " + taken.duplicates() + " duplicates, "
                + (index.refused().size() + taken.invalid()) + " refused" + leftOut(index.limit()));
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
