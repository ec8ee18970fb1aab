package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.sitemap.SitemapSource;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.UrlNormalizer;
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
        List<Named> named = new ArrayList<>();
        int invalid = 0;
        for (SitemapSource sitemap : sitemaps) {
            switch (normalizer.normalize(sitemap.url().value())) {
                case NormalizationResult.Accepted accepted -> named.add(new Named(accepted, task));
                case NormalizationResult.Rejected rejected -> invalid++;
            }
        }
        var parking = parts.frontier().parking(batchId);
        List<BatchItemStore.Added> added = addAndPark(parts, batchId, ExpandSitemap.firstPosition(listedBy), named,
                parking);
        parking.release();
        int duplicates = (int) added.stream().filter(a -> a == BatchItemStore.Added.DUPLICATE).count();
        int items = added.size() - duplicates;
        parts.batches().uploads().sitemapRead(batchId, listedBy, new ChunkCounts(items, duplicates),
                parts.clock().instant());
        return new Taken(items, duplicates, invalid);
    }

    /** A sitemap to add to a batch, and what reading it is. */
    record Named(NormalizationResult.Accepted url, SitemapTask task) {}

    /**
     * Adds {@code sitemaps} to {@code batchId} as sitemap items, at positions from {@code first} on, and parks those
     * still to be read: not claimed, since a sitemap is read afresh for its batch, and never answered by a page's
     * stored copy. Returns what each addition came to, in order. Both ways sitemaps join a batch go through here:
     * those its request named ({@link Canonicalize}) and those a list names (an index, a robots.txt).
     */
    static List<BatchItemStore.Added> addAndPark(PlanningParts parts, String batchId, long first, List<Named> sitemaps,
            Frontier.Parking parking) {
        if (sitemaps.isEmpty()) {
            return List.of();
        }
        List<ManifestEntry> entries = new ArrayList<>();
        for (Named sitemap : sitemaps) {
            entries.add(new ManifestEntry(first + entries.size(), sitemap.url().url(), ItemKind.SITEMAP));
        }
        List<BatchItemStore.Added> added = parts.batches().items().addEntries(batchId, entries,
                parts.clock().instant());
        List<Hop> toPark = new ArrayList<>();
        for (int i = 0; i < added.size(); i++) {
            if (added.get(i).needsPlanning()) {
                toPark.add(Hop.sitemap(sitemaps.get(i).url(), sitemaps.get(i).task()));
            }
        }
        parking.park(toPark);
        return added;
    }
}
