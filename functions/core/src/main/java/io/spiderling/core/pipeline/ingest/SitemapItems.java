package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.sitemap.SitemapSource;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes sitemaps that a fetched list names into its batch (ADR 19): the sitemaps of an index, and those a site's
 * robots.txt names. Each becomes a sitemap item, parked to be read in its turn (not claimed: a sitemap is read afresh
 * for its batch); what was added is counted on the batch once, under the key of the item that listed them
 * ({@code sitemapRead}), so a list read again after a crash adds nothing.
 */
final class SitemapItems {

    /**
     * What a list added.
     *
     * @param items sitemap items of the batch, new or this list's own from an earlier attempt
     * @param duplicates sitemaps the batch already had from elsewhere
     * @param invalid sitemaps whose URL the normalizer refused: not added
     */
    record Taken(int items, int duplicates, int invalid) {}

    private final PlanningParts parts;
    private final UrlNormalizer normalizer;

    SitemapItems(PlanningParts parts, UrlNormalizer normalizer) {
        this.parts = parts;
        this.normalizer = normalizer;
    }

    /**
     * Adds {@code sitemaps}, each to be read as {@code task} says, to {@code batchId} for the item keyed
     * {@code listedBy}, and counts them on the batch. Their positions start at {@link ExpandSitemap#firstPosition},
     * apart from those of any other list of the batch.
     */
    Taken take(String batchId, String listedBy, List<SitemapSource> sitemaps, SitemapTask task) {
        Instant now = parts.clock().instant();
        long first = ExpandSitemap.firstPosition(listedBy);
        List<ManifestEntry> entries = new ArrayList<>();
        List<Hop> hops = new ArrayList<>();
        int invalid = 0;
        for (SitemapSource sitemap : sitemaps) {
            switch (normalizer.normalize(sitemap.url().value())) {
                case NormalizationResult.Accepted accepted -> {
                    entries.add(new ManifestEntry(first + entries.size(), accepted.url(), ItemKind.SITEMAP));
                    hops.add(Hop.sitemap(accepted, task));
                }
                case NormalizationResult.Rejected rejected -> invalid++;
            }
        }
        int items = 0;
        int duplicates = 0;
        List<Hop> toPark = new ArrayList<>();
        List<BatchItemStore.Added> added = entries.isEmpty() ? List.of()
                : parts.batches().items().addEntries(batchId, entries, now);
        for (int i = 0; i < added.size(); i++) {
            switch (added.get(i)) {
                case DUPLICATE -> duplicates++;
                case ENDED -> items++;
                case CREATED, PENDING -> {
                    items++;
                    toPark.add(hops.get(i));
                }
            }
        }
        var parking = parts.frontier().parking(batchId);
        parking.park(toPark);
        parking.release();
        parts.batches().uploads().sitemapRead(batchId, listedBy, new ChunkCounts(items, duplicates), now);
        return new Taken(items, duplicates, invalid);
    }
}
