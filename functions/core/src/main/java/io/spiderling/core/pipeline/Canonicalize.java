package io.spiderling.core.pipeline;

import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.port.BatchStore;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.PendingPlans;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Plans a stored manifest: one batch item per URL, then for each URL still queued one of three things. A URL with a
 * fresh stored copy (fetched within the batch's recrawl window) ends at once as {@code skipped}. A URL another batch
 * is already fetching joins that fetch, which will end this batch's item too. Any other URL is claimed and parked in
 * the {@link Frontier}, which sends its fetch job when the site has room. Safe to run again for the same manifest:
 * items are created once, a batch re-claims its own claims, and an entry already parked is not parked twice.
 */
public final class Canonicalize {

    /** A claim older than this is taken over: its fetch job was lost (it is far past the queue's retries). */
    public static final Duration CLAIM_TIMEOUT = Duration.ofMinutes(30);
    /** URLs planned together: one read of their stored copies and one claim write per group. */
    static final int GROUP = 100;
    /** A watched manifest that is still not in the bucket this long after: its ingest died before writing it. */
    public static final Duration ABANDON_AFTER = Duration.ofDays(1);

    private final BlobStore blobs;
    private final BatchStore batches;
    private final ItemPlanner planner;
    private final Frontier frontier;
    private final Clock clock;
    private final PendingPlans pendingPlans;

    public Canonicalize(BlobStore blobs, BatchStore batches, UrlStore urls, Frontier frontier, Clock clock) {
        this(blobs, batches, urls, frontier, clock, new BatchTracker(batches), PendingPlans.NONE);
    }

    /**
     * @param tracker ends items that need no fetch, and emits the completion they may bring
     * @param pendingPlans the manifests waiting for planning: a planned one is no longer watched
     */
    public Canonicalize(BlobStore blobs, BatchStore batches, UrlStore urls, Frontier frontier, Clock clock,
            BatchTracker tracker, PendingPlans pendingPlans) {
        this.pendingPlans = pendingPlans;
        this.blobs = blobs;
        this.batches = batches;
        this.planner = new ItemPlanner(urls, tracker, batches);
        this.frontier = frontier;
        this.clock = clock;
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
        var batchId = Ingest.batchIdOfManifest(key);
        if (batchId.isEmpty()) {
            return Optional.empty();
        }
        var blob = blobs.get(key);
        if (blob.isEmpty()) {
            return Optional.empty();
        }
        String id = batchId.get();
        ItemPlanner.Batch batch = ItemPlanner.Batch.of(id, batches.status(id));
        List<NormalizedUrl> manifest = new String(blob.get().bytes(), StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank())
                .map(NormalizedUrl::parse)
                .toList();
        Instant now = clock.instant();
        List<NormalizedUrl> pending = batches.addItems(id, manifest, now);
        Frontier.Parking parking = frontier.parking(id);
        ItemPlanner.Counts counts = ItemPlanner.Counts.NONE;
        for (int from = 0; from < pending.size(); from += GROUP) {
            counts = counts.plus(planner.plan(batch,
                    pending.subList(from, Math.min(pending.size(), from + GROUP)), parking, now));
        }
        parking.release();
        pendingPlans.planned(key);
        return Optional.of(new Outcome(id, manifest.size(), counts.parked(), counts.skipped(), counts.joined()));
    }

    /**
     * Plans the manifests watched since before {@code cutoff}: their S3 event was lost, or every try of it failed.
     * Planning is safe to repeat, so one whose event is merely late is planned twice to no harm. A watched manifest
     * that never reached the bucket stops being watched after {@link #ABANDON_AFTER}. Returns how many it planned.
     */
    public int planStranded(Instant cutoff, int limit) {
        int planned = 0;
        Instant abandoned = clock.instant().minus(ABANDON_AFTER);
        for (PendingPlans.Pending pending : pendingPlans.waitingSince(Ingest.MANIFEST_PREFIX, cutoff, limit)) {
            if (onManifest(pending.key()).isPresent()) {
                planned++;
            } else if (pending.since().isBefore(abandoned)) {
                pendingPlans.planned(pending.key());
            }
        }
        return planned;
    }
}
