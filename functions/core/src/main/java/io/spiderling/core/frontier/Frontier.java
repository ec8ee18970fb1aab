package io.spiderling.core.frontier;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.politeness.Lanes;
import io.spiderling.core.port.FetchQueue;
import io.spiderling.core.port.FetchSwitch;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.url.SiteKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-site park between planning and the FIFO fetch queue.
 *
 * <p>SQS FIFO hands out a message group's messages one at a time but scans only its first 120,000 messages for
 * available groups, so one site with a huge backlog would starve every other site queued behind it. The frontier keeps
 * each site's backlog in DynamoDB and lets at most {@code depthCap} of its jobs into the queue at a time. It releases
 * more when a fetch of that site finishes, and on a periodic sweep, which also re-sends jobs presumed lost (released
 * but neither finished nor seen for {@code lostAfter}).
 *
 * <p><b>Fairness between clients.</b> Each batch's URLs of a site get release orders {@code park time + k × spacing}
 * for k = 0, 1, 2, …, and a site releases lowest order first. A batch submitted later therefore interleaves with an
 * earlier one instead of waiting behind its whole backlog: two batches parked a few seconds apart alternate on their
 * shared site, and a 10-URL batch behind a 5,000-URL batch of the same site starts within its first few releases.
 */
public final class Frontier {

    /**
     * @param depthCap most jobs of one site in the fetch queue (or in flight) at once, for a site in the usual lanes
     * @param spacing the order step between consecutive URLs of one batch and site
     * @param lostAfter a released job not finished by then is sent again
     * @param lanes the sites' message groups: a site in more lanes than usual (an override allows it more) gets as
     *     much depth per lane ({@link Lanes#depthCap})
     */
    public record Settings(int depthCap, Duration spacing, Duration lostAfter, Lanes lanes) {
        public static final Settings DEFAULTS = new Settings(10, Duration.ofSeconds(1), Duration.ofMinutes(15));

        public Settings {
            if (depthCap < 1) {
                throw new IllegalArgumentException("depthCap must be at least 1, was " + depthCap);
            }
            Objects.requireNonNull(lanes, "lanes");
        }

        /** Every site with the same cap. */
        public Settings(int depthCap, Duration spacing, Duration lostAfter) {
            this(depthCap, spacing, lostAfter, Lanes.fixed(1));
        }

        /** The cap of this site. */
        int depthCap(SiteKey site) {
            return lanes.depthCap(site, depthCap);
        }
    }

    private final FrontierStore store;
    private final FetchQueue queue;
    private final Clock clock;
    private final Settings settings;
    private final FetchSwitch fetchSwitch;

    public Frontier(FrontierStore store, FetchQueue queue, Clock clock, Settings settings) {
        this(store, queue, clock, settings, FetchSwitch.ALWAYS_ON);
    }

    /** @param fetchSwitch while it says paused, nothing is released: the jobs would only come back */
    public Frontier(FrontierStore store, FetchQueue queue, Clock clock, Settings settings, FetchSwitch fetchSwitch) {
        this.fetchSwitch = fetchSwitch;
        this.store = store;
        this.queue = queue;
        this.clock = clock;
        this.settings = settings;
    }

    /**
     * Parks a batch's URLs, each at its first hop (already parked ones are left as they are), then releases what the
     * caps allow.
     */
    public void park(String batchId, List<Hop> urls) {
        Parking parking = parking(batchId);
        parking.park(urls, false);
        parking.release();
    }

    /**
     * Starts parking a batch's URLs in several calls (the groups of one manifest chunk), so that their orders continue
     * from one call to the next as if they were parked at once.
     */
    public Parking parking(String batchId) {
        return new Parking(batchId, clock.instant());
    }

    /** One batch's parking in progress: its start time, and per site how many URLs it has parked. */
    public final class Parking {
        private final String batchId;
        private final Instant start;
        private final Map<SiteKey, Integer> rank = new LinkedHashMap<>();

        private Parking(String batchId, Instant start) {
            this.batchId = batchId;
            this.start = start;
        }

        /**
         * Parks the URLs, in as few writes as the store allows; they wait for {@link #release()}. A site whose parked
         * URLs reach its depth cap in this call is released at once too, so a large upload to one site starts
         * fetching after its first group instead of its whole chunk; a site with fewer URLs costs no extra release.
         */
        public void park(List<Hop> urls) {
            park(urls, true);
        }

        private void park(List<Hop> urls, boolean releaseFilled) {
            List<FrontierEntry> entries = new ArrayList<>(urls.size());
            Set<SiteKey> filled = new java.util.LinkedHashSet<>();
            for (Hop url : urls) {
                SiteKey site = url.siteKey();
                long k = rank.merge(site, 1, Integer::sum) - 1;
                entries.add(new FrontierEntry(batchId, url, 1, start.toEpochMilli() + k * settings.spacing().toMillis(),
                        start));
                if (releaseFilled && k + 1 == settings.depthCap(site)) {
                    filled.add(site);
                }
            }
            if (!entries.isEmpty()) {
                store.parkAll(entries);
            }
            filled.forEach(Frontier.this::release);
        }

        /** Releases what the caps allow in every site this parking touched. */
        public void release() {
            rank.keySet().forEach(Frontier.this::release);
        }
    }

    /** Sends the site's due entries to the fetch queue, lowest order first, up to the cap. Returns how many. */
    public int release(SiteKey site) {
        return releaseDue(site).sent();
    }

    /**
     * @param sent jobs sent now
     * @param saturated whether due entries may remain: the site was at its cap, or took every place there was
     */
    private record Released(int sent, boolean saturated) {}

    private Released releaseDue(SiteKey site) {
        if (fetchSwitch.paused()) {
            return new Released(0, true);
        }
        int cap = settings.depthCap(site);
        int room = cap - store.released(site);
        if (room <= 0) {
            return new Released(0, true);
        }
        Instant now = clock.instant();
        List<FrontierEntry> due = store.due(site, now, room);
        // An entry left out was taken by another releaser, or found the site's last place filled: skip it.
        List<FetchJob> jobs = store.releaseAll(site, due, now, cap).stream()
                .map(FrontierEntry::job).toList();
        try {
            queue.enqueue(jobs);
        } catch (RuntimeException e) {
            unrelease(jobs, now, e);
            throw e;
        }
        return new Released(jobs.size(), due.size() >= room || jobs.size() < due.size());
    }

    /**
     * The send of released jobs failed: they go back to pending, due at once, for the next release, instead of staying
     * released with no message until the sweep presumes them lost ({@code lostAfter}, 20 minutes). A send that failed
     * may still have landed (its reply lost): the next release sends under a new send number, so a new deduplication
     * id that SQS FIFO does not drop, and a copy delivered twice finds its outcome recorded.
     */
    private void unrelease(List<FetchJob> jobs, Instant now, RuntimeException failure) {
        for (FetchJob job : jobs) {
            try {
                store.requeue(job, job.attempt(), now);
            } catch (RuntimeException e) {
                failure.addSuppressed(e); // left released: the sweep sends it again after lostAfter
            }
        }
    }

    /**
     * A job was not handled yet but must wait (a rate refusal, a robots wait, the kill switch) or be tried again after
     * an error: its entry goes back to pending until {@code notBefore}, its place is freed, and the site's next due
     * entries are released. Waits never use the queue's visibility timeout, which would block the site's whole message
     * group and count towards the dead-letter limit.
     */
    public void requeue(FetchJob job, int attempt, Instant notBefore) {
        try (Releases releases = releases()) {
            releases.requeue(job, attempt, notBefore);
        }
    }

    /** A job was handled (whatever its outcome): frees its place and releases the site's next entries. */
    public void finished(FetchJob job) {
        try (Releases releases = releases()) {
            releases.finished(job);
        }
    }

    /**
     * Frees places now and releases the sites' next entries once, at {@link Releases#close}: for an invocation that
     * handles several jobs of a site. Its site's message group is busy until the invocation ends anyway, so releasing
     * at its end sends the same jobs with one query and one send per site instead of one per job.
     */
    public Releases releases() {
        return new Releases();
    }

    /** Places freed during an invocation, and the sites to release once it ends. Safe for concurrent use. */
    public final class Releases implements AutoCloseable {
        private final Set<SiteKey> touched = ConcurrentHashMap.newKeySet();
        private final Map<SiteKey, List<FrontierStore.EntryKey>> finished = new ConcurrentHashMap<>();

        private Releases() {}

        /** {@link Frontier#requeue}, releasing at {@link #close}. */
        public void requeue(FetchJob job, int attempt, Instant notBefore) {
            store.requeue(job, attempt, notBefore);
            touched.add(job.siteKey());
        }

        /**
         * {@link Frontier#finished}: the place is freed at {@link #close}, with the site's other finished jobs in one
         * write, then the site's next entries are released. Until then the place still counts against the site, as
         * its message group is busy anyway; a crash before leaves the messages to be delivered again.
         */
        public void finished(FetchJob job) {
            finished.computeIfAbsent(job.siteKey(), s -> Collections.synchronizedList(new ArrayList<>()))
                    .add(new FrontierStore.EntryKey(job.batchId(), job.itemHash()));
            touched.add(job.siteKey());
        }

        /** Frees the finished jobs' places, then releases the due entries of every site touched. */
        @Override
        public void close() {
            finished.forEach((site, keys) -> store.doneAll(site, List.copyOf(keys)));
            finished.clear();
            for (SiteKey site : touched) {
                release(site);
            }
            touched.clear();
        }
    }

    /**
     * A redirect led to another site: the rest of the job becomes an entry in that site's park (and so its message
     * group), due at once, ahead of that site's newer work. The redirecting job itself is then {@link #finished}.
     */
    public void follow(FetchJob job, Hop target) {
        Instant now = clock.instant();
        store.park(new FrontierEntry(job.batchId(), target, job.attempt(), now.toEpochMilli(), now));
        release(target.siteKey());
    }

    /**
     * After a restart of the one process that consumed the fetch queue (the local stack on its locked data folder),
     * when no job released before can still be in anyone's hands: every released entry of every active site goes back
     * to pending, due now, and the sites' due entries are released at once, each under a new send and so a new
     * deduplication id. The {@link #sweep} would re-send them only after {@code lostAfter}.
     *
     * <p>The frontier is then the one source of the fetch queue's content: the caller empties the fetch queue first,
     * or a job still in it would be fetched twice, once under its old send and once under the new one.
     */
    public Resent resendReleased() {
        Instant now = clock.instant();
        // Every entry released so far: the process that released them is gone.
        Instant everything = now.plus(Duration.ofDays(366));
        int requeued = 0;
        Set<SiteKey> sites = new java.util.LinkedHashSet<>();
        for (SiteKey site : store.activeSites()) {
            for (FrontierEntry entry : store.releasedBefore(site, everything)) {
                if (store.requeue(entry.sentJob(), entry.attempt(), now)) {
                    requeued++;
                    sites.add(site);
                }
            }
            release(site);
        }
        return new Resent(requeued, sites);
    }

    /**
     * What {@link #resendReleased} did.
     *
     * @param entries released entries that went back to pending and were released again as the caps allowed
     * @param sites the sites they belong to: those the dead process may have been fetching from
     */
    public record Resent(int entries, Set<SiteKey> sites) {
        public Resent {
            sites = Set.copyOf(sites);
        }
    }

    /**
     * What a sweep did.
     *
     * @param sent jobs sent to the fetch queue: lost ones sent again, and due ones released
     * @param lag how long the longest-waiting due entry has been due and not released, over every active site
     *     (zero when none waits): the backlog lives in the sites table, so the fetch queue's age cannot show it
     */
    public record SweepReport(int sent, Duration lag) {}

    /**
     * The periodic sweep: re-sends jobs presumed lost (a crash between release and send, or a lost message), then
     * releases due entries of every active site, and measures the lag of what is still due. A site's lag costs one
     * more read only when the site has no room left, since otherwise releasing took every due entry.
     */
    public SweepReport sweep() {
        Instant now = clock.instant();
        int sent = 0;
        Duration lag = Duration.ZERO;
        for (SiteKey site : store.activeSites()) {
            List<FrontierEntry> lost = store.releasedBefore(site, now.minus(settings.lostAfter()));
            if (!lost.isEmpty()) {
                queue.enqueue(lost.stream().map(FrontierEntry::sentJob).toList());
                lost.forEach(entry -> store.resent(entry, now));
                sent += lost.size();
            }
            Released released = releaseDue(site);
            sent += released.sent();
            if (released.saturated()) {
                for (FrontierEntry waiting : store.due(site, now, 1)) {
                    Duration waited = Duration.between(waiting.notBefore(), now);
                    if (waited.compareTo(lag) > 0) {
                        lag = waited;
                    }
                }
            }
        }
        return new SweepReport(sent, lag);
    }
}
