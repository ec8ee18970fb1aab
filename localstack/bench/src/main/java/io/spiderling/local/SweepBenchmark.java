package io.spiderling.local;

import io.spiderling.aws.DynamoDbFrontierStore;
import io.spiderling.aws.FrontierBulkLoad;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.port.FetchQueue;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.StackResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * {@code ./spiderling bench-sweep}: the frontier's sweep over many sites in DynamoDB Local, through the real adapter.
 *
 * <p>It loads {@code --sites} sites (100,000) in the adapter's layout, with batch writes ({@link FrontierBulkLoad}),
 * their sweep marks spread over one period, as a steady state leaves them:
 * <ul>
 *   <li>waiting (most): one entry parked until hours from now (a long retry or robots.txt wait), nothing due;</li>
 *   <li>due ({@code --due-percent}, 5 %): one entry due since before the start, which nobody released (a lost
 *       wake-up);</li>
 *   <li>lost ({@code --lost-percent}, 1 %): one job released 30 minutes before the start, its site quiet since;</li>
 *   <li>emptied ({@code --emptied-percent}, 4 %): a counter at zero that was never deleted (its last fetch's
 *       invocation died first).</li>
 * </ul>
 * Then it runs one sweep per simulated minute ({@code --minutes}; by default one period and two minutes more), on a
 * clock it moves, through the real adapter, and prints each sweep's work (sites looked at, DynamoDB calls, items read,
 * wall time) and the coverage of the sites whose mark was due by the last sweep: how late each site's look came after
 * its mark, when each due entry was released, each lost job sent again (under which send), that no waiting site sent
 * anything, and that every emptied counter went.
 */
public final class SweepBenchmark {

    private static final Duration LOST_AFTER = Duration.ofMinutes(20);
    private static final Duration SWEEP_EVERY = Duration.ofMinutes(1);

    private SweepBenchmark() {}

    /** What a site is loaded as. */
    enum Kind { WAITING, DUE, LOST, EMPTIED }

    public static void main(String[] argv) throws Exception {
        int sites = 100_000;
        double duePercent = 5;
        double lostPercent = 1;
        double emptiedPercent = 4;
        int sweepSites = Frontier.Sweep.DEFAULT_SITES;
        int loaders = 8;
        Duration period = LOST_AFTER.dividedBy(2);
        long minutes = 0;
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--sites" -> sites = Integer.parseInt(argv[++i]);
                case "--due-percent" -> duePercent = Double.parseDouble(argv[++i]);
                case "--lost-percent" -> lostPercent = Double.parseDouble(argv[++i]);
                case "--emptied-percent" -> emptiedPercent = Double.parseDouble(argv[++i]);
                case "--sweep-sites" -> sweepSites = Integer.parseInt(argv[++i]);
                case "--loaders" -> loaders = Integer.parseInt(argv[++i]);
                case "--period" -> period = Duration.ofMinutes(Long.parseLong(argv[++i]));
                case "--minutes" -> minutes = Long.parseLong(argv[++i]);
                default -> {
                    System.err.println("Usage: ./spiderling bench-sweep [--sites N] [--due-percent P]"
                            + " [--lost-percent P] [--emptied-percent P] [--sweep-sites N] [--period MINUTES]"
                            + " [--minutes M] [--loaders T]\n  --minutes: sweeps to run, one a simulated minute"
                            + " (default: a period and two more); coverage is judged on the marks due by the last");
                    System.exit(2);
                }
            }
        }
        Kind[] kinds = kinds(sites, duePercent, lostPercent, emptiedPercent);
        Calls calls = new Calls();
        try (EmbeddedAws aws = EmbeddedAws.start(); DynamoDbClient dynamo = aws.dynamoDb(calls)) {
            StackResources resources = aws.provision("bench-sweep");
            Frontier.Settings settings = new Frontier.Settings(10, Duration.ofSeconds(1), LOST_AFTER)
                    .withSweep(period, sweepSites);
            long sweeps = minutes > 0 ? minutes : period.dividedBy(SWEEP_EVERY) + 2;
            new Run(dynamo, resources.sitesTable(), kinds, settings, calls).load(loaders).sweep(sweeps).report();
        }
    }

    /** Each site's kind, shuffled with a fixed seed. */
    private static Kind[] kinds(int sites, double due, double lost, double emptied) {
        Kind[] kinds = new Kind[sites];
        SplittableRandom random = new SplittableRandom(22);
        for (int i = 0; i < sites; i++) {
            double r = random.nextDouble() * 100;
            kinds[i] = r < due ? Kind.DUE : r < due + lost ? Kind.LOST : r < due + lost + emptied ? Kind.EMPTIED
                    : Kind.WAITING;
        }
        return kinds;
    }

    /** One loaded table and the sweeps over it. */
    private static final class Run {
        private final DynamoDbClient dynamo;
        private final String table;
        private final Kind[] kinds;
        private final Calls calls;
        private final MovingClock clock;
        private final Instant start;
        private final Frontier.Settings settings;
        private final Recording store;
        private final SentJobs sent;
        private final Frontier frontier;
        private final Instant[] marks;
        private final List<String> rows = new ArrayList<>();
        private long minutes;

        Run(DynamoDbClient dynamo, String table, Kind[] kinds, Frontier.Settings settings, Calls calls) {
            this.dynamo = dynamo;
            this.table = table;
            this.kinds = kinds;
            this.calls = calls;
            this.start = Instant.now().truncatedTo(ChronoUnit.MINUTES);
            this.clock = new MovingClock(start);
            this.settings = settings;
            this.store = new Recording(new DynamoDbFrontierStore(dynamo, table), clock);
            this.sent = new SentJobs(clock);
            this.frontier = new Frontier(store, sent, clock, settings);
            this.marks = new Instant[kinds.length];
        }

        Run load(int loaders) throws InterruptedException {
            long began = System.nanoTime();
            SplittableRandom random = new SplittableRandom(7);
            long periodMs = settings.sweepPeriod().toMillis();
            for (int i = 0; i < marks.length; i++) {
                marks[i] = start.plusMillis(1 + random.nextLong(periodMs - 1));
            }
            LongAdder done = new LongAdder();
            Semaphore slots = new Semaphore(loaders);
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int from = 0; from < kinds.length; from += 100) {
                    int first = from;
                    slots.acquire();
                    pool.execute(() -> {
                        try {
                            loadSites(first, Math.min(kinds.length, first + 100));
                            done.add(Math.min(kinds.length, first + 100) - first);
                        } finally {
                            slots.release();
                        }
                    });
                    if (from % 10_000 == 0 && from > 0) {
                        System.out.printf(Locale.ROOT, "  loading: %,d sites in %.0f s%n", done.sum(),
                                (System.nanoTime() - began) / 1e9);
                    }
                }
            }
            Map<Kind, Integer> counts = new java.util.EnumMap<>(Kind.class);
            for (Kind k : kinds) {
                counts.merge(k, 1, Integer::sum);
            }
            System.out.printf(Locale.ROOT, "Loaded %,d sites in %.0f s (batch writes in the adapter's layout): %s%n", kinds.length,
                    (System.nanoTime() - began) / 1e9, counts);
            System.out.printf(Locale.ROOT, "Sweep: every %s (simulated), period %s, lost-after %s, at most %,d sites"
                    + " per sweep over %d shards%n%n", SWEEP_EVERY, settings.sweepPeriod(), LOST_AFTER,
                    settings.sweepSites(), store.sweepShards());
            return this;
        }

        /** Writes sites as the adapter lays them out, in batch writes (its transactions would take an hour here). */
        private void loadSites(int from, int to) {
            FrontierBulkLoad load = new FrontierBulkLoad(dynamo, table);
            Instant longAgo = start.minus(Duration.ofMinutes(30));
            for (int i = from; i < to; i++) {
                switch (kinds[i]) {
                    case WAITING -> load.site(entry(i, start.plus(Duration.ofHours(3))), Optional.empty(), marks[i]);
                    case DUE -> load.site(entry(i, start.minusSeconds(30)), Optional.empty(), marks[i]);
                    case LOST -> load.site(entry(i, longAgo), Optional.of(longAgo), marks[i]);
                    case EMPTIED -> load.emptied(site(i), marks[i]);
                }
            }
            load.write();
        }

        private static FrontierEntry entry(int i, Instant notBefore) {
            return new FrontierEntry("bench", url(i), 1, i, notBefore);
        }

        Run sweep(long minutes) {
            rows.add(String.format(Locale.ROOT, "| %6s | %7s | %5s | %6s | %8s | %10s | %8s | %8s |", "minute",
                    "visited", "sent", "failed", "calls", "items read", "wall ms", "behind"));
            rows.add("|--------|---------|-------|--------|----------|------------|----------|----------|");
            this.minutes = minutes;
            for (int m = 1; m <= minutes; m++) {
                clock.set(start.plus(SWEEP_EVERY.multipliedBy(m)));
                calls.reset();
                long began = System.nanoTime();
                // A budget the moved clock never uses up: the sweep's bound here is sweepSites.
                Frontier.SweepReport report = frontier.sweep(Duration.ofHours(1));
                long wall = (System.nanoTime() - began) / 1_000_000;
                rows.add(String.format(Locale.ROOT, "| %6d | %,7d | %,5d | %6d | %,8d | %,10d | %,8d | %8s |", m,
                        report.visited(), report.sent(), report.failed(), calls.calls.sum(), calls.items.sum(), wall,
                        report.behind()));
            }
            return this;
        }

        void report() {
            rows.forEach(System.out::println);
            System.out.printf(Locale.ROOT, "%nCalls per operation over all sweeps: %s%n", calls.total);
            long late = 0;
            Duration worst = Duration.ZERO;
            int looked = 0;
            int dueLate = 0;
            int dueMissing = 0;
            int lostWrong = 0;
            int waitingSent = 0;
            int emptiedLeft = 0;
            Duration coverage = settings.sweepPeriod().plus(SWEEP_EVERY);
            Instant last = start.plus(SWEEP_EVERY.multipliedBy(minutes));
            int inScope = 0;
            for (int i = 0; i < kinds.length; i++) {
                SiteKey site = site(i);
                List<Sent> jobs = sent.of(url(i));
                if (marks[i].isAfter(last)) {
                    waitingSent += kinds[i] == Kind.WAITING && !jobs.isEmpty() ? 1 : 0;
                    continue; // not due by the last sweep
                }
                inScope++;
                Instant lookedAt = store.firstLook.get(site);
                if (lookedAt != null) {
                    looked++;
                    Duration after = Duration.between(marks[i], lookedAt);
                    worst = after.compareTo(worst) > 0 ? after : worst;
                    late += after.compareTo(SWEEP_EVERY) > 0 ? 1 : 0;
                }
                switch (kinds[i]) {
                    case WAITING -> waitingSent += jobs.isEmpty() ? 0 : 1;
                    case DUE -> {
                        if (jobs.isEmpty()) {
                            dueMissing++;
                        } else if (Duration.between(start.minusSeconds(30), jobs.getFirst().at()).compareTo(coverage)
                                > 0) {
                            dueLate++;
                        }
                    }
                    case LOST -> lostWrong += jobs.size() == 1 && jobs.getFirst().job().send() == 2
                            && !jobs.getFirst().at().isAfter(start.plus(coverage)) ? 0 : 1;
                    case EMPTIED -> emptiedLeft += store.state(site).isPresent() ? 1 : 0;
                }
            }
            System.out.printf(Locale.ROOT, "Coverage of the %,d sites whose mark was due by the last sweep (minute %d):%n",
                    inScope, minutes);
            System.out.printf(Locale.ROOT, "  sites looked at: %,d of %,d; latest look %s after its mark; %,d later"
                    + " than one sweep interval (%s)%n", looked, inScope, worst, late, SWEEP_EVERY);
            System.out.printf(Locale.ROOT, "  due entries not released: %,d; released later than period + interval"
                    + " (%s) after due: %,d%n", dueMissing, coverage, dueLate);
            System.out.printf(Locale.ROOT, "  lost jobs not sent again exactly once under send 2 within %s: %,d%n",
                    coverage, lostWrong);
            System.out.printf(Locale.ROOT, "  waiting sites that sent anything: %,d; emptied counters left: %,d%n",
                    waitingSent, emptiedLeft);
            boolean covered = looked == inScope && late == 0 && dueMissing == 0 && dueLate == 0 && lostWrong == 0
                    && waitingSent == 0 && emptiedLeft == 0;
            System.out.println(covered ? "COVERED: every site due by the last sweep, within its period" : "NOT COVERED");
        }

        private static SiteKey site(int i) {
            return url(i).siteKey();
        }

        private static NormalizedUrl url(int i) {
            return NormalizedUrl.parse("https://site-" + i + ".example/page");
        }
    }

    /** A job sent, at the moved clock's time. */
    record Sent(FetchJob job, Instant at) {}

    /** The fetch queue, as a record of what was sent when. */
    private static final class SentJobs implements FetchQueue {
        private final Map<NormalizedUrl, List<Sent>> byUrl = new ConcurrentHashMap<>();
        private final Clock clock;

        SentJobs(Clock clock) {
            this.clock = clock;
        }

        @Override
        public void enqueue(List<FetchJob> jobs) {
            for (FetchJob job : jobs) {
                byUrl.computeIfAbsent(job.url(), u -> java.util.Collections.synchronizedList(new ArrayList<>()))
                        .add(new Sent(job, clock.instant()));
            }
        }

        List<Sent> of(NormalizedUrl url) {
            return byUrl.getOrDefault(url, List.of());
        }
    }

    /**
     * The adapter, noting each site's first look by the sweep (a schedule from a mark, or a counter forgotten): the
     * moved clock's time then.
     */
    private static final class Recording implements FrontierStore {
        private final FrontierStore store;
        private final Clock clock;
        private final Map<SiteKey, Instant> firstLook = new ConcurrentHashMap<>();

        Recording(FrontierStore store, Clock clock) {
            this.store = store;
            this.clock = clock;
        }

        private void looked(SiteKey site) {
            firstLook.putIfAbsent(site, clock.instant());
        }

        @Override
        public boolean schedule(SiteKey site, Optional<Instant> from, Instant to) {
            if (from.isPresent()) {
                looked(site);
            }
            return store.schedule(site, from, to);
        }

        @Override
        public boolean forget(SiteKey site, SiteState seen) {
            looked(site);
            return store.forget(site, seen);
        }

        @Override
        public boolean park(FrontierEntry entry) {
            return store.park(entry);
        }

        @Override
        public int parkAll(List<FrontierEntry> entries) {
            return store.parkAll(entries);
        }

        @Override
        public java.util.Set<SiteKey> parkReleased(List<FrontierEntry> entries, Instant now,
                java.util.function.ToIntFunction<SiteKey> cap) {
            return store.parkReleased(entries, now, cap);
        }

        @Override
        public List<FrontierEntry> due(SiteKey site, int spread, Instant now, int limit) {
            return store.due(site, spread, now, limit);
        }

        @Override
        public List<FrontierEntry> pendingOfBatch(SiteKey site, String batchId, int limit) {
            return store.pendingOfBatch(site, batchId, limit);
        }

        @Override
        public Optional<SiteState> state(SiteKey site) {
            return store.state(site);
        }

        @Override
        public int sweepShards() {
            return store.sweepShards();
        }

        @Override
        public List<SweepMark> sweepDue(int shard, Instant now, int limit) {
            return store.sweepDue(shard, now, limit);
        }

        @Override
        public void unmark(SweepMark mark) {
            store.unmark(mark);
        }

        @Override
        public boolean release(FrontierEntry entry, Instant now, int cap) {
            return store.release(entry, now, cap);
        }

        @Override
        public List<FrontierEntry> releaseAll(SiteKey site, List<FrontierEntry> entries, Instant now, int cap) {
            return store.releaseAll(site, entries, now, cap);
        }

        @Override
        public boolean requeue(FetchJob at, int attempt, Instant notBefore, Instant now) {
            return store.requeue(at, attempt, notBefore, now);
        }

        @Override
        public void done(SiteKey site, EntryKey entry, Instant now) {
            store.done(site, entry, now);
        }

        @Override
        public void doneAll(SiteKey site, List<EntryKey> entries, Instant now) {
            store.doneAll(site, entries, now);
        }

        @Override
        public List<SiteKey> activeSites() {
            return store.activeSites();
        }

        @Override
        public List<FrontierEntry> releasedBefore(SiteKey site, Instant cutoff) {
            return store.releasedBefore(site, cutoff);
        }

        @Override
        public boolean resend(FrontierEntry released, Instant now) {
            return store.resend(released, now);
        }
    }

    /** DynamoDB calls and the items they read, per sweep, and calls per operation over the run. */
    private static final class Calls implements ExecutionInterceptor {
        private final LongAdder calls = new LongAdder();
        private final LongAdder items = new LongAdder();
        private final Map<String, AtomicLong> total = new java.util.concurrent.ConcurrentSkipListMap<>();
        private volatile boolean counting;

        void reset() {
            counting = true;
            calls.reset();
            items.reset();
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (!counting) {
                return;
            }
            calls.increment();
            String operation = context.request().getClass().getSimpleName().replace("Request", "");
            total.computeIfAbsent(operation, k -> new AtomicLong()).incrementAndGet();
            Object response = context.response();
            switch (response) {
                case QueryResponse q -> items.add(q.count());
                case ScanResponse s -> items.add(s.scannedCount());
                case GetItemResponse g -> items.add(g.hasItem() && !g.item().isEmpty() ? 1 : 0);
                case BatchGetItemResponse b -> b.responses().values().forEach(list -> items.add(list.size()));
                default -> { }
            }
        }
    }

    /** A clock the benchmark moves: one sweep a simulated minute. */
    private static final class MovingClock extends Clock {
        private volatile Instant now;

        MovingClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
