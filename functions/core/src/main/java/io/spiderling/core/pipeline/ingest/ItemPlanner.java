package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.port.BatchOriginStore;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.recrawl.RecrawlPolicy;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.sitemap.LastmodSkip;
import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides, for a group of a batch's queued items, which need a fetch. A URL with a fresh stored copy ends at once as
 * {@code skipped}; a URL another batch is fetching joins that fetch; any other is claimed and parked. The stores are
 * asked once per group where they allow it (one read of the stored copies, one claim write), which is what makes a
 * million-line manifest plannable in minutes rather than hours.
 */
public final class ItemPlanner {

    /** URLs planned together: one read of their stored copies and one claim write per group. */
    static final int GROUP = 100;

    /**
     * @param claimTimeout a claim older than this is taken over: its fetch job was lost (it is far past the queue's
     *     retries)
     */
    public record Settings(Duration claimTimeout) {
        public static final Settings DEFAULTS = new Settings(Duration.ofMinutes(30));
    }

    /** What planning a group did. */
    record Counts(int parked, int skipped, int joined, int cancelled) {
        static final Counts NONE = new Counts(0, 0, 0, 0);

        Counts plus(Counts o) {
            return new Counts(parked + o.parked, skipped + o.skipped, joined + o.joined, cancelled + o.cancelled);
        }
    }

    /**
     * What planning needs of the batch.
     *
     * @param window its recrawl window
     * @param cancelled the client cancelled it: its items end as {@code cancelled} instead of being fetched
     * @param createdAt when it was created: a stored outcome recorded since answers its item
     * @param markdown it asked for the Markdown of each page: a fresh copy whose row lacks it is not skipped here,
     *     but goes to the fetch stage, which renders it from the stored copy without asking the site
     */
    record Batch(String id, Duration window, boolean cancelled, Instant createdAt, boolean markdown) {
        /** From the batch's status; a batch with none has no item to answer. */
        static Batch of(String id, Optional<BatchStatus> status) {
            return new Batch(id, status.flatMap(s -> s.header().options().recrawlAfter())
                    .orElse(RecrawlPolicy.DEFAULT_WINDOW), status.flatMap(BatchStatus::cancelledAt).isPresent(),
                    status.map(s -> s.header().createdAt()).orElse(Instant.MAX),
                    status.map(s -> s.header().options().markdown()).orElse(false));
        }

        /** Whether the stored copy {@code row} holds answers the batch's item here, Markdown included. */
        boolean answeredBy(UrlStore.UrlRecord row) {
            Optional<String> body = row.fetch().flatMap(FetchRecord::contentSha256);
            return !markdown || body.isEmpty() || row.markdownOf(body.get()).isPresent();
        }
    }

    private final UrlStore urls;
    private final BatchTracker tracker;
    private final BatchOriginStore origins;
    private final Settings settings;

    /**
     * @param tracker ends items that need no fetch, and emits the completion they may bring
     * @param origins where the origins a batch parked URLs on are listed, for its status to read
     */
    /** A planner of the default settings over {@code batches}, for a use case given only the URL table. */
    static ItemPlanner defaults(UrlStore urls, BatchStores batches) {
        return new ItemPlanner(urls, new BatchTracker(batches.headers(), batches.items()), batches.origins(),
                Settings.DEFAULTS);
    }

    public ItemPlanner(UrlStore urls, BatchTracker tracker, BatchOriginStore origins, Settings settings) {
        this.urls = urls;
        this.tracker = tracker;
        this.origins = origins;
        this.settings = settings;
    }

    /** The URLs of {@code planned} whose keys are {@code pending}, in {@code pending}'s order, as first spelled. */
    static List<Accepted> inOrder(List<Accepted> planned, List<NormalizedUrl> pending) {
        Map<String, Accepted> byKey = new java.util.HashMap<>();
        planned.forEach(url -> byKey.putIfAbsent(url.url().value(), url));
        return pending.stream().map(url -> byKey.get(url.value())).toList();
    }

    /**
     * A planning that runs again (its event retried after a failure part-way) finds URLs the batch already fetched
     * while their items are still queued, because the fetch's invocation failed before ending them: the recorded
     * outcome ends those items ({@link RecrawlPolicy#recordedSince}), not a fresh-copy skip.
     *
     * @param spelled distinct URLs whose items are queued, each in the spelling to request
     */
    Counts plan(Batch batch, List<Accepted> spelled, Frontier.Parking parking, Instant now) {
        return plan(batch, spelled, Map.of(), parking, now);
    }

    /**
     * As {@link #plan(Batch, List, Frontier.Parking, Instant)}, for URLs a sitemap listed with a {@code lastmod}
     * (ADR 19): a fresh copy fetched at or after its URL's {@code lastmod} ends the item as {@code sitemap-lastmod};
     * one fetched before it does not stand, and the URL is fetched again ({@link LastmodSkip}).
     *
     * @param lastmods the {@code lastmod} of each URL that has one, by URL hash
     */
    Counts plan(Batch batch, List<Accepted> spelled, Map<String, Instant> lastmods, Frontier.Parking parking,
            Instant now) {
        String batchId = batch.id();
        if (spelled.isEmpty()) {
            return Counts.NONE;
        }
        List<NormalizedUrl> urls = spelled.stream().map(Accepted::url).toList();
        if (batch.cancelled()) {
            for (NormalizedUrl url : urls) {
                tracker.finish(batchId, url.urlHash(), Reason.BATCH_CANCELLED, "batch cancelled", now);
            }
            return new Counts(0, 0, 0, urls.size());
        }
        Map<String, UrlStore.UrlRecord> stored = this.urls.findAll(urls.stream().map(NormalizedUrl::urlHash).toList());
        List<Accepted> toClaim = new ArrayList<>();
        int skipped = 0;
        for (Accepted a : spelled) {
            NormalizedUrl url = a.url();
            Optional<FetchRecord> last = Optional.ofNullable(stored.get(url.urlHash())).flatMap(UrlStore.UrlRecord::fetch);
            Optional<FetchRecord> own = RecrawlPolicy.recordedSince(last, batch.createdAt());
            if (own.isPresent()) {
                // Counted nowhere: neither planned now nor skipped, it ended with the batch's own fetch.
                tracker.finish(batchId, url.urlHash(), own.get().reason(), "recorded at " + own.get().fetchedAt(), now);
            } else if (RecrawlPolicy.fresh(last, batch.window(), now) && batch.answeredBy(stored.get(url.urlHash()))) {
                Optional<Instant> lastmod = Optional.ofNullable(lastmods.get(url.urlHash()));
                if (lastmod.isEmpty()) {
                    tracker.finish(batchId, url.urlHash(), Reason.FRESH_COPY,
                            "fresh copy fetched at " + last.get().fetchedAt(), now);
                    skipped++;
                } else if (LastmodSkip.skip(lastmod, last, Optional.of(batch.window()), now)) {
                    tracker.finish(batchId, url.urlHash(), Reason.SITEMAP_LASTMOD, "fresh copy fetched at "
                            + last.get().fetchedAt() + ", not before the sitemap's lastmod " + lastmod.get(), now);
                    skipped++;
                } else {
                    toClaim.add(a); // the site says the page changed since the copy: a lastmod only brings a fetch on
                }
            } else {
                toClaim.add(a);
            }
        }
        List<UrlStore.Claim> claims = this.urls.claimAll(
                toClaim.stream().map(u -> new UrlStore.ClaimRequest(u.url().urlHash(), u.url().value())).toList(),
                batchId, now, now.minus(settings.claimTimeout()));
        List<Hop> toPark = new ArrayList<>();
        for (int i = 0; i < toClaim.size(); i++) {
            if (claims.get(i) == UrlStore.Claim.CLAIMED) {
                Accepted claimed = toClaim.get(i);
                // The fetch stage decides freshness again, and must know what the sitemap said.
                toPark.add(Hop.listed(claimed, Optional.ofNullable(lastmods.get(claimed.url().urlHash()))));
            }
        }
        parking.park(toPark);
        if (!toPark.isEmpty()) {
            Set<RobotsOrigin> origins = new LinkedHashSet<>();
            toPark.forEach(hop -> origins.add(RobotsOrigin.of(hop.url())));
            this.origins.addOrigins(batchId, origins);
        }
        return new Counts(toPark.size(), skipped, toClaim.size() - toPark.size(), 0);
    }
}
