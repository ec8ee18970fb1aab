package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.batch.PlannedManifest;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.port.PendingPlans;
import io.spiderling.core.url.NormalizationResult.Accepted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Plans a stored manifest: one batch item per URL, then for each URL still queued one of three things. A URL with a
 * fresh stored copy (fetched within the batch's recrawl window) ends at once as {@code skipped}. A URL another batch
 * is already fetching joins that fetch, which will end this batch's item too. Any other URL is claimed and parked in
 * the {@link Frontier}, which sends its fetch job when the site has room. Safe to run again for the same manifest:
 * items are created once, a batch re-claims its own claims, and an entry already parked is not parked twice.
 */
public final class Canonicalize {

    private static final System.Logger LOG = System.getLogger(Canonicalize.class.getName());

    /** A watched manifest that is still not in the bucket this long after: its ingest died before writing it. */
    public static final Duration ABANDON_AFTER = Duration.ofDays(1);

    private final PlanningParts parts;

    public Canonicalize(PlanningParts parts) {
        this.parts = Objects.requireNonNull(parts, "parts");
    }

    /**
     * @param items how many URLs the manifest listed
     * @param parked URLs handed to the frontier to be fetched
     * @param skipped URLs ended at once because a fresh copy is stored
     * @param joined URLs left waiting on another batch's fetch of the same URL
     */
    public record Outcome(String batchId, int items, int parked, int skipped, int joined) {}

    /** Returns empty when the key is not a manifest or the manifest is gone; neither is worth a retry. */
    public Optional<Outcome> onManifest(String key) {
        var batchId = BucketKeys.batchIdOfManifest(key);
        if (batchId.isEmpty()) {
            return Optional.empty();
        }
        var blob = parts.blobs().get(key);
        if (blob.isEmpty()) {
            return Optional.empty();
        }
        String id = batchId.get();
        ItemPlanner.Batch batch = ItemPlanner.Batch.of(id, parts.batches().headers().status(id));
        List<Accepted> manifest = PlannedManifest.read(blob.get().bytes());
        Instant now = parts.clock().instant();
        List<Accepted> pending = ItemPlanner.inOrder(manifest,
                parts.batches().items().addItems(id, manifest.stream().map(Accepted::url).toList(), now));
        Frontier.Parking parking = parts.frontier().parking(id);
        ItemPlanner.Counts counts = ItemPlanner.Counts.NONE;
        for (int from = 0; from < pending.size(); from += ItemPlanner.GROUP) {
            counts = counts.plus(parts.planner().plan(batch,
                    pending.subList(from, Math.min(pending.size(), from + ItemPlanner.GROUP)), parking, now));
        }
        int sitemaps = parkSitemaps(id, PlannedManifest.readSitemaps(blob.get().bytes()),
                PlannedManifest.readRobots(blob.get().bytes()), parking);
        parking.release();
        parts.pendingPlans().planned(key);
        return Optional.of(new Outcome(id, manifest.size() + sitemaps, counts.parked() + sitemaps, counts.skipped(),
                counts.joined()));
    }

    /**
     * The batch's sitemaps, then its sites' robots.txt files read for the sitemaps they name, become items of their
     * own kind and are parked to be read (ADR 19): not claimed, and never answered by a page's stored copy. A sitemap
     * whose item already ended (the manifest planned again) is not parked again. Returns how many were parked.
     */
    private int parkSitemaps(String batchId, List<Accepted> sitemaps, List<Accepted> robots,
            Frontier.Parking parking) {
        List<SitemapItems.Named> named = new ArrayList<>();
        sitemaps.forEach(sitemap -> named.add(new SitemapItems.Named(sitemap, SitemapTask.named())));
        robots.forEach(robotsTxt -> named.add(new SitemapItems.Named(robotsTxt, SitemapTask.robotsTxtOfSite())));
        return (int) SitemapItems.addAndPark(parts, batchId, 0, named, parking).stream()
                .filter(BatchItemStore.Added::needsPlanning).count();
    }

    /**
     * Plans the manifests watched since before {@code cutoff}: their S3 event was lost, or every try of it failed.
     * Planning is safe to repeat, so one whose event is merely late is planned twice to no harm. A watched manifest
     * that never reached the bucket stops being watched after {@link #ABANDON_AFTER}. Returns how many it planned.
     */
    public int planStranded(Instant cutoff, int limit) {
        int planned = 0;
        Instant abandoned = parts.clock().instant().minus(ABANDON_AFTER);
        for (PendingPlans.Pending pending : parts.pendingPlans().waitingSince(BucketKeys.MANIFESTS, cutoff, limit)) {
            Optional<Outcome> outcome;
            try {
                outcome = onManifest(pending.key());
            } catch (RuntimeException e) {
                // One manifest's failure (a throttled table, a corrupt object) holds up neither the others nor the
                // sweep that called: it stays watched, and the next sweep tries it again.
                LOG.log(System.Logger.Level.WARNING, "stranded manifest " + pending.key() + " failed to plan; the"
                        + " next sweep tries it again", e);
                continue;
            }
            if (outcome.isPresent()) {
                planned++;
            } else if (pending.since().isBefore(abandoned)) {
                parts.pendingPlans().planned(pending.key());
            }
        }
        return planned;
    }
}
