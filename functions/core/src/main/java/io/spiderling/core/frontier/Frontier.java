package io.spiderling.core.frontier;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.politeness.Lanes;
import io.spiderling.core.port.FetchQueue;
import io.spiderling.core.port.FetchSwitch;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.port.FrontierStore.SiteState;
import io.spiderling.core.port.FrontierStore.SweepMark;
import io.spiderling.core.url.SiteKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The per-site park between planning and the FIFO fetch queue.
 *
 * <p>SQS FIFO hands out a message group's messages one at a time but scans only its first 120,000 messages for
 * available groups, so one site with a huge backlog would starve every other site queued behind it. The frontier keeps
 * each site's backlog in DynamoDB and lets at most {@code depthCap} of its jobs into the queue at a time. It releases
 * more when a fetch of that site finishes, and on a periodic sweep, which also re-sends jobs presumed lost (see
 * {@link #presumedLost}). The sweep reads the sites due for a look, never every site, so its work per run is bounded.
 *
 * <p><b>Fairness between clients.</b> Each batch's URLs of a site get release orders {@code park time + k × spacing}
 * for k = 0, 1, 2, …, and a site releases lowest order first. A batch submitted later therefore interleaves with an
 * earlier one instead of waiting behind its whole backlog: two batches parked a few seconds apart alternate on their
 * shared site, and a 10-URL batch behind a 5,000-URL batch of the same site starts within its first few releases.
 */
public final class Frontier {

    private static final System.Logger LOG = System.getLogger(Frontier.class.getName());

    /**
     * @param depthCap most jobs of one site in the fetch queue (or in flight) at once, for a site in the usual lanes
     * @param spacing the order step between consecutive URLs of one batch and site
     * @param lostAfter a released job is presumed lost once neither it nor any other job of its site has moved for
     *     this long (see {@link #presumedLost}); it must exceed the fetch queue's visibility × maxReceiveCount
     * @param lanes the sites' message groups: a site in more lanes than usual (an override allows it more) gets as
     *     much depth per lane ({@link Lanes#depthCap})
     * @param sweep how often the sweep looks at each site, and how many sites at most per sweep
     */
    public record Settings(int depthCap, Duration spacing, Duration lostAfter, Lanes lanes, Sweep sweep) {
        public static final Settings DEFAULTS = new Settings(10, Duration.ofSeconds(1), Duration.ofMinutes(15));

        public Settings {
            if (depthCap < 1) {
                throw new IllegalArgumentException("depthCap must be at least 1, was " + depthCap);
            }
            Objects.requireNonNull(lanes, "lanes");
            Objects.requireNonNull(sweep, "sweep");
        }

        /** Every site with the same cap; the sweep's period half of {@code lostAfter}, and its default bound. */
        public Settings(int depthCap, Duration spacing, Duration lostAfter) {
            this(depthCap, spacing, lostAfter, Lanes.fixed(1), Sweep.halfOf(lostAfter));
        }

        /** The same settings with these lanes. */
        public Settings withLanes(Lanes siteLanes) {
            return new Settings(depthCap, spacing, lostAfter, siteLanes, sweep);
        }

        /** The same settings with another sweep period and bound. */
        public Settings withSweep(Duration period, int sites) {
            return new Settings(depthCap, spacing, lostAfter, lanes, new Sweep(period, sites));
        }

        /** The sweep looks at every site with entries at least this often. */
        public Duration sweepPeriod() {
            return sweep.period();
        }

        /** The most sites one sweep looks at. */
        public int sweepSites() {
            return sweep.sites();
        }

        /** The cap of this site. */
        int depthCap(SiteKey site) {
            return lanes.depthCap(site, depthCap);
        }
    }

    /**
     * @param period the sweep looks at every site with entries at least this often (plus the schedule's interval
     *     when it runs late): it releases what nobody else released and finds lost jobs
     * @param sites the most sites one sweep looks at, over all shards: its bound on work per invocation
     */
    public record Sweep(Duration period, int sites) {
        /** Enough for 10⁶ sites with entries at a sweep a minute and the default period (10 minutes). */
        public static final int DEFAULT_SITES = 100_000;

        public Sweep {
            if (period.compareTo(Duration.ofMinutes(1)) < 0) {
                throw new IllegalArgumentException("sweepPeriod must be at least a minute, was " + period);
            }
            if (sites < 1) {
                throw new IllegalArgumentException("sweepSites must be at least 1, was " + sites);
            }
        }

        /** Half of {@code lostAfter} (at least a minute), and the default bound. */
        static Sweep halfOf(Duration lostAfter) {
            Duration half = lostAfter.dividedBy(2);
            return new Sweep(half.compareTo(Duration.ofMinutes(1)) >= 0 ? half : Duration.ofMinutes(1), DEFAULT_SITES);
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

    /**
     * One batch's parking in progress: its start time, per site how many URLs it has parked, and the sites where it
     * parked some to wait for a release.
     *
     * <p>A site's first URL ({@link #SENT_AT_ONCE}) goes to the store already released and to the queue, in one write
     * for the new sites of a call, if the site has nothing pending ({@link FrontierStore#parkReleased}); otherwise it
     * is parked and released as usual. The site's other URLs are parked, and released when its cap is reached in a
     * chunk's group or the parking ends.
     */
    public final class Parking {
        /**
         * A site's first URLs sent at once, already released, when it has nothing pending. One: that job fetches the
         * site's robots.txt, and its others follow at the release. Sent together, a site's first jobs met in their
         * lanes while robots.txt was being fetched, and a whole batch of new sites landed in the queue in a moment:
         * on the local stack's 2 cores that made 1,111 of 2,000 requests miss their send windows
         * (`bench-fetch --urls 2000 --sites 200`, ADR 6's amendment).
         */
        static final int SENT_AT_ONCE = 1;

        private final String batchId;
        private final Instant start;
        private final Map<SiteKey, Integer> rank = new LinkedHashMap<>();
        private final Set<SiteKey> waiting = new java.util.LinkedHashSet<>();

        private Parking(String batchId, Instant start) {
            this.batchId = batchId;
            this.start = start;
        }

        /**
         * Parks the URLs, in as few writes as the store allows; they wait for {@link #release()}, but for each new
         * site's first one, sent at once. A site whose parked URLs reach its depth cap in this call is released at
         * once too, so a large upload to one site starts fetching after its first group instead of its whole chunk; a
         * site with fewer URLs costs no extra release.
         */
        public void park(List<Hop> urls) {
            park(urls, true);
        }

        private void park(List<Hop> urls, boolean releaseFilled) {
            List<FrontierEntry> first = new ArrayList<>();
            List<FrontierEntry> toWait = new ArrayList<>();
            Set<SiteKey> filled = new java.util.LinkedHashSet<>();
            for (Hop url : urls) {
                SiteKey site = url.siteKey();
                long k = rank.merge(site, 1, Integer::sum) - 1;
                FrontierEntry entry = new FrontierEntry(batchId, url, 1,
                        start.toEpochMilli() + k * settings.spacing().toMillis(), start)
                        .spreadOver(settings.lanes().partitions(site));
                if (k < SENT_AT_ONCE) {
                    first.add(entry);
                } else {
                    toWait.add(entry);
                }
                if (releaseFilled && k + 1 == settings.depthCap(site)) {
                    filled.add(site);
                }
            }
            // The first URLs first: the later ones, parked to wait, would make their sites refuse them.
            toWait.addAll(sendAtOnce(first));
            toWait.forEach(e -> waiting.add(e.site()));
            if (!toWait.isEmpty()) {
                store.parkAll(toWait);
            }
            filled.stream().filter(waiting::contains).forEach(Frontier.this::release);
        }

        /**
         * Releases what the caps allow in every site where this parking parked URLs to wait (or found them parked
         * already: a planning delivered again releases what its first delivery parked).
         */
        public void release() {
            waiting.forEach(Frontier.this::release);
        }

        /**
         * Parks the entries already released and sends them, for each site with nothing pending and room for them
         * all: what a park and a release would do, in one write for many sites instead of a park, a read, a query and
         * a release each. Each site sent has its first look scheduled, as a first release does. Returns the other
         * sites' entries, unchanged, to be parked to wait: the switch is off, the site has a backlog or is at its cap,
         * or they were parked before (a planning delivered again).
         */
        private List<FrontierEntry> sendAtOnce(List<FrontierEntry> entries) {
            if (entries.isEmpty() || fetchSwitch.paused()) {
                return entries;
            }
            Instant now = clock.instant();
            Set<SiteKey> sent = store.parkReleased(entries, now, settings::depthCap);
            List<FetchJob> jobs = entries.stream().filter(e -> sent.contains(e.site())).map(FrontierEntry::job)
                    .toList();
            sendReleased(jobs, now);
            sent.forEach(site -> store.state(site).ifPresent(state -> scheduleFirstLook(site, state, now)));
            return entries.stream().filter(e -> !sent.contains(e.site())).toList();
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
        Optional<SiteState> read = store.state(site);
        if (read.isEmpty()) {
            return new Released(0, false);
        }
        SiteState state = read.get();
        Instant now = clock.instant();
        if (state.empty()) {
            forgetUnscheduled(site, state);
            return new Released(0, false);
        }
        if (state.pending() > 0 && fetchSwitch.paused()) {
            lookSoon(site, state, now);
            return new Released(0, true);
        }
        scheduleFirstLook(site, state, now);
        if (state.pending() == 0) {
            return new Released(0, false);
        }
        return releaseDue(site, state, now);
    }

    private Released releaseDue(SiteKey site, SiteState state, Instant now) {
        if (fetchSwitch.paused()) {
            return new Released(0, true);
        }
        int cap = settings.depthCap(site);
        int room = cap - state.released();
        if (room <= 0) {
            return new Released(0, true);
        }
        List<FrontierEntry> due = store.due(site, state.spread(), now, room);
        // An entry left out was taken by another releaser, or found the site's last place filled: skip it.
        List<FetchJob> jobs = store.releaseAll(site, due, now, cap).stream()
                .map(FrontierEntry::job).toList();
        sendReleased(jobs, now);
        return new Released(jobs.size(), due.size() >= room || jobs.size() < due.size());
    }

    /** Sends jobs just released; if the send fails, they go back to pending ({@link #unrelease}) and it throws. */
    private void sendReleased(List<FetchJob> jobs, Instant now) {
        try {
            queue.enqueue(jobs);
        } catch (RuntimeException e) {
            unrelease(jobs, now, e);
            throw e;
        }
    }

    /**
     * An emptied site's counter goes at once only if the sweep was never to look at it (no mark). One the sweep is to
     * look at stays until that look, which deletes it with its mark if it is still empty: a site that empties and fills
     * again within a sweep period, as its URLs arrive batch after batch, keeps its counter and its mark instead of a
     * delete, a new counter and a new first look each time (ADR 6's amendment of 2026-11-28).
     */
    private void forgetUnscheduled(SiteKey site, SiteState state) {
        if (state.checkAt().isEmpty()) {
            store.forget(site, state); // refused when a park raced it: that park's release comes next
        }
    }

    /** The site's first release since its counter was made: the sweep looks at it from now on. */
    /**
     * How soon the sweep looks again at a site whose entries the kill switch holds: they are released by the first
     * sweep after the switch is on again, not a sweep period (half of {@code lostAfter}) later. Each sweep then writes
     * one mark per held site, and only while fetching is paused.
     */
    static final Duration PAUSED_LOOK = Duration.ofSeconds(5);

    /** Moves the site's next look to {@link #PAUSED_LOOK} from now, unless it is due sooner. */
    private void lookSoon(SiteKey site, SiteState state, Instant now) {
        Instant soon = now.plus(PAUSED_LOOK).truncatedTo(ChronoUnit.MILLIS);
        if (state.checkAt().map(at -> at.isAfter(soon)).orElse(true)) {
            store.schedule(site, state.checkAt(), soon);
        }
    }

    private void scheduleFirstLook(SiteKey site, SiteState state, Instant now) {
        if (state.checkAt().isEmpty()) {
            store.schedule(site, Optional.empty(), nextCheck(now));
        }
    }

    private Instant nextCheck(Instant now) {
        return now.plus(settings.sweepPeriod()).truncatedTo(ChronoUnit.MILLIS);
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
                store.requeue(job, job.attempt(), now, now);
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
            store.requeue(job, attempt, notBefore, clock.instant());
            touched.add(job.siteKey());
        }

        /**
         * {@link Frontier#finished}: the place is freed at {@link #close}, with the site's other finished jobs in one
         * write, then the site's next entries are released. Until then the place still counts against the site, as
         * its message group is busy anyway; a crash before leaves the messages to be delivered again.
         */
        public void finished(FetchJob job) {
            finished.computeIfAbsent(job.siteKey(), s -> Collections.synchronizedList(new ArrayList<>()))
                    .add(FrontierStore.EntryKey.of(job));
            touched.add(job.siteKey());
        }

        /** Frees the finished jobs' places, then releases the due entries of every site touched. */
        @Override
        public void close() {
            Instant now = clock.instant();
            finished.forEach((site, keys) -> doneAndRelease(site, List.copyOf(keys), now));
            touched.removeAll(finished.keySet());
            finished.clear();
            for (SiteKey site : touched) {
                release(site);
            }
            touched.clear();
        }
    }

    /**
     * Frees a site's finished places and releases its next due entries into them in one write ({@link
     * FrontierStore#doneAndRelease}), when it has entries pending: the same as freeing them, then {@link #release}.
     * The room counts the finished places as free; should one not be released after all (a duplicate delivery), the
     * store's condition on the count refuses the write and it falls back to the two steps.
     */
    private void doneAndRelease(SiteKey site, List<FrontierStore.EntryKey> keys, Instant now) {
        Optional<SiteState> read = store.state(site);
        if (read.isEmpty() || read.get().pending() == 0 || fetchSwitch.paused()) {
            store.doneAll(site, keys, now);
            release(site);
            return;
        }
        SiteState state = read.get();
        scheduleFirstLook(site, state, now);
        int cap = settings.depthCap(site);
        int room = cap - Math.max(0, state.released() - keys.size());
        List<FrontierEntry> due = room > 0 ? store.due(site, state.spread(), now, room) : List.of();
        List<FetchJob> jobs = store.doneAndRelease(site, keys, due, now, cap).stream()
                .map(FrontierEntry::job).toList();
        sendReleased(jobs, now);
    }

    /**
     * A redirect led to another site: the rest of the job becomes an entry in that site's park (and so its message
     * group), due at once, ahead of that site's newer work. The redirecting job itself is then {@link #finished}.
     */
    public void follow(FetchJob job, Hop target) {
        Instant now = clock.instant();
        store.park(new FrontierEntry(job.batchId(), target, job.attempt(), now.toEpochMilli(), now)
                .spreadOver(settings.lanes().partitions(target.siteKey())));
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
                if (store.requeue(entry.sentJob(), entry.attempt(), now, now)) {
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
     * @param visited sites looked at (each mark read counts, a stale one too)
     * @param sent jobs sent to the fetch queue: lost ones sent again, and due ones released
     * @param failed sites whose visit failed; their marks stay, so the next sweep reads them first
     * @param lag how long the longest-waiting due entry of a visited site has been due and not released (zero when
     *     none waits): the backlog lives in the sites table, so the fetch queue's age cannot show it
     * @param behind how long the oldest mark the walk left due has been due (zero when it took every due mark): how
     *     late the sweep itself runs
     */
    public record SweepReport(int visited, int sent, int failed, Duration lag, Duration behind) {

        /** The worse of the two waits: what the lag alarm watches. */
        public Duration worstLag() {
            return lag.compareTo(behind) >= 0 ? lag : behind;
        }
    }

    /** The longest one sweep walks before it stops taking marks (a scheduled Lambda invocation has 60 s). */
    public static final Duration SWEEP_BUDGET = Duration.ofSeconds(40);

    /** {@link #sweep(Duration)} within {@link #SWEEP_BUDGET}. */
    public SweepReport sweep() {
        return sweep(SWEEP_BUDGET);
    }

    /**
     * The periodic sweep. It reads the sites due for a look from the store's marks, oldest first, up to
     * {@code sweepSites} in all (spread evenly over the shards, which it walks side by side), and stops taking more
     * once {@code budget} has passed. For each site it sends again the jobs presumed lost, releases what is due,
     * measures the lag of what is still due, and sets the site's next look a {@code sweepPeriod} later; a site
     * without entries loses its counter and its mark. What it leaves due is read first by the next sweep, so every
     * site is looked at in turn, and the report says how far behind the sweep runs.
     */
    public SweepReport sweep(Duration budget) {
        Instant now = clock.instant();
        Instant deadline = now.plus(budget);
        int shards = store.sweepShards();
        int perShard = Math.ceilDiv(settings.sweepSites(), shards);
        Walk walk = new Walk();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int shard = 0; shard < shards; shard++) {
                int s = shard;
                pool.execute(() -> walk.shard(s, now, deadline, perShard));
            }
        }
        return new SweepReport(walk.visited.get(), walk.sent.get(), walk.failed.get(), walk.lag(), walk.behind());
    }

    /**
     * Whether a site's released jobs that are older than {@code lostAfter} are lost: when none of its jobs was done
     * or put back to wait for {@code lostAfter} either. A live job leaves the fetch queue, handled or dead-lettered
     * (and then ended by the dead-letter handler), within visibility × maxReceiveCount of reaching its message group's
     * head; the jobs ahead of it are its site's, so while it is live its site records progress at least that often.
     * {@code lostAfter} exceeds that bound, so a job still live is never presumed lost; a site that keeps moving with
     * a lost job keeps it until the site goes quiet, holding one of its places meanwhile.
     */
    static boolean presumedLost(SiteState state, Instant now, Duration lostAfter) {
        Instant quietSince = now.minus(lostAfter);
        return state.released() > 0 && state.progressAt().map(at -> at.isBefore(quietSince)).orElse(true);
    }

    /** One sweep's walk over the shards: its tallies, shared by the shards' threads. */
    private final class Walk {
        private final AtomicInteger visited = new AtomicInteger();
        private final AtomicInteger sent = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private Duration lag = Duration.ZERO;
        private Duration behind = Duration.ZERO;

        /** Visits up to {@code limit} due marks; one more is read, to tell how late what is left waits. */
        void shard(int shard, Instant now, Instant deadline, int limit) {
            List<SweepMark> marks;
            try {
                marks = store.sweepDue(shard, now, limit + 1);
            } catch (RuntimeException e) {
                failed.incrementAndGet(); // the shard's marks stay for the next sweep
                LOG.log(System.Logger.Level.WARNING, "sweep: reading shard " + shard + " failed", e);
                return;
            }
            for (int i = 0; i < marks.size(); i++) {
                SweepMark mark = marks.get(i);
                if (i == limit || clock.instant().isAfter(deadline)) {
                    left(Duration.between(mark.at(), now));
                    return;
                }
                visited.incrementAndGet();
                try {
                    sent.addAndGet(visit(mark, now, this));
                } catch (RuntimeException e) {
                    failed.incrementAndGet(); // its mark stays: the next sweep reads it first
                    LOG.log(System.Logger.Level.WARNING, "sweep: visiting " + mark.site().value() + " failed", e);
                }
            }
        }

        synchronized void waited(Duration waited) {
            lag = longer(lag, waited);
        }

        synchronized Duration lag() {
            return lag;
        }

        synchronized void left(Duration waiting) {
            behind = longer(behind, waiting);
        }

        synchronized Duration behind() {
            return behind;
        }
    }

    /** Looks at one site whose mark is due; returns the jobs sent. */
    private int visit(SweepMark mark, Instant now, Walk walk) {
        SiteKey site = mark.site();
        Optional<SiteState> read = store.state(site);
        Optional<Instant> checkAt = read.flatMap(SiteState::checkAt);
        if (read.isEmpty() || checkAt.isPresent() && !checkAt.get().equals(mark.at())) {
            store.unmark(mark); // the site emptied, or its mark moved since this one was read
            return 0;
        }
        SiteState state = read.get();
        if (state.empty()) {
            if (!store.forget(site, state)) {
                return 0; // a park raced it: the mark stays, for the next look
            }
            if (checkAt.isEmpty()) {
                store.unmark(mark);
            }
            return 0;
        }
        int sent = resendLost(site, state, now);
        Released released = releaseDue(site, state, now);
        if (released.saturated()) {
            for (FrontierEntry waiting : store.due(site, state.spread(), now, 1)) {
                walk.waited(Duration.between(waiting.notBefore(), now));
            }
        }
        store.schedule(site, checkAt, state.pending() > 0 && fetchSwitch.paused() ? now.plus(PAUSED_LOOK)
                .truncatedTo(ChronoUnit.MILLIS) : nextCheck(now));
        if (checkAt.isEmpty()) {
            store.unmark(mark);
        }
        return sent + released.sent();
    }

    /** Sends the site's lost jobs again, each under a new send number, so a new deduplication id. */
    private int resendLost(SiteKey site, SiteState state, Instant now) {
        if (!presumedLost(state, now, settings.lostAfter())) {
            return 0;
        }
        List<FetchJob> jobs = new ArrayList<>();
        for (FrontierEntry lost : store.releasedBefore(site, now.minus(settings.lostAfter()))) {
            if (store.resend(lost, now)) {
                jobs.add(lost.job());
            }
        }
        if (!jobs.isEmpty()) {
            // A failed send leaves them released under the new send: presumed lost again after lostAfter.
            queue.enqueue(jobs);
        }
        return jobs.size();
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
