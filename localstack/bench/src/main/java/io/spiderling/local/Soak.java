package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.core.batch.BatchPlanner;
import io.spiderling.local.cost.Account;
import io.spiderling.local.cost.AwsPrices;
import io.spiderling.local.cost.CostReport;
import io.spiderling.local.cost.KeyLoadReport;
import io.spiderling.local.cost.Metering;
import io.spiderling.local.cost.ScaleModel;
import io.spiderling.local.cost.Usage;
import io.spiderling.testkit.DataFolder;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.PolitenessReport;
import io.spiderling.testkit.StackResources;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * {@code ./spiderling soak}: N URLs over S local sites ({@link SoakSites}) through the whole pipeline on the embedded
 * stack, submitted as B batches through the HTTP API, followed through the API until every batch is done; then it
 * checks what a long run must keep true and prints a report, as text and as a markdown block for docs/BENCHMARKS.md,
 * and writes the memory samples as CSV.
 *
 * <ul>
 *   <li><b>Memory.</b> Live heap after a forced full GC every minute ({@link HeapSampler}); flat when every sample
 *       after the warm-up (10 minutes) is within 20 % of the first of them.</li>
 *   <li><b>Every URL terminal</b>, through {@code GET /batches/{id}} and paging {@code GET /batches/{id}/urls}.</li>
 *   <li><b>Counts exact</b>, per state: the batches' counts = the items' states tallied = what the sites served (from
 *       their logs) = what the plan says; and each URL's state = what its site served it.</li>
 *   <li><b>Listener events</b>: the soak listens on the events queue ({@link SoakEvents}), as a deployment's
 *       listener would, and checks one {@code url.fetched} per fetched URL and one {@code batch.completed} per
 *       batch.</li>
 *   <li><b>Politeness</b> from the sites' logs: the testkit's {@link PolitenessReport} (no disallowed path requested,
 *       nothing before robots.txt, no repeat of a final answer, robots.txt not again within its TTL, no site over its
 *       rate in any second), and each site's smallest gap between two requests against its interval.</li>
 *   <li><b>Makespan</b> (first submission to the last batch's {@code completedAt}) against the politeness bound,
 *       the busiest site's {@code (requests − 1) × interval} (robots.txt and the retries included), and
 *       throughput.</li>
 * </ul>
 *
 * <p>The stack keeps its data on disk (a {@link DataFolder} in a temporary directory, deleted at the end), as
 * {@code ./spiderling fetch} does, so the stored pages and rows do not count as heap; {@code --in-memory} keeps them
 * in the heap instead, where they grow with the run by design.
 */
public final class Soak {

    private static final Duration POLL_EVERY = Duration.ofSeconds(5);
    private static final double HEAP_TOLERANCE = 0.20;
    private static final int PAGE = 1000;
    private static final int FULL_URLS = 100_000;
    private static final Duration RATE_WINDOW = Duration.ofSeconds(10);

    private Soak() {}

    /**
     * @param gapTolerance how far below its interval a gap between two arrivals at a site may be and still pass.
     *     The requests go out at least an interval apart by construction (each within its slot's send window, the
     *     slots an interval plus the window apart), but a site stamps an arrival when its server thread gets to it,
     *     which a busy core can delay. 100 ms by default; {@code PT0S} checks the sends' spacing exactly
     */
    record Settings(int urls, int sites, int batches, int qps, int concurrency, Duration sampleEvery, Duration warmup,
            Duration robotsTtl, Duration deadline, Duration gapTolerance, long seed, Path out, boolean inMemory,
            double scaleModel, SoakSites.Pages pages, Duration submitEvery) {

        int batchSize() {
            return (urls + batches - 1) / batches;
        }

        /** Batches submitted in all: the last may be short. */
        int batchCount() {
            return (urls + batchSize() - 1) / batchSize();
        }

        Path csv() {
            String name = out.getFileName().toString();
            return out.resolveSibling((name.endsWith(".md") ? name.substring(0, name.length() - 3) : name)
                    + "-samples.csv");
        }
    }

    /** One check of the report. */
    record Check(String name, String result, boolean passed) {}

    public static void main(String[] argv) throws Exception {
        Settings s = parse(argv);
        Path dir = Files.createTempDirectory("spiderling-soak");
        int failed;
        try {
            failed = run(s, dir);
        } finally {
            deleteTree(dir);
        }
        // Some emulator threads are not daemons.
        System.exit(failed == 0 ? 0 : 1);
    }

    private static int run(Settings s, Path dir) throws Exception {
        printJvm(s);
        Optional<DataFolder> folder = s.inMemory() ? Optional.empty()
                : Optional.of(DataFolder.lock(dir.resolve("data")));
        AtomicInteger ended = new AtomicInteger();
        Optional<Metering> metering = s.scaleModel() > 0 ? Optional.of(Metering.billing()) : Optional.empty();
        Optional<ScaleModel> model = metering.map(m -> ScaleModel.on(m, s.scaleModel(), Clock.systemUTC()));
        metering.ifPresent(m -> m.actAs(Account.HARNESS));
        try (SoakSites sites = SoakSites.start(s.sites(), s.urls(), s.qps(), s.robotsTtl(), s.pages(),
                s.seed());
                EmbeddedAws aws = folder.map(EmbeddedAws::start).orElseGet(EmbeddedAws::start)) {
            System.out.printf(Locale.ROOT, "%,d sites up (%s): %s%n", s.sites(), sites.host(0) + " … "
                    + sites.host(s.sites() - 1), sites.roleCounts());
            StackResources resources = aws.provision("soak");
            Path rates = sites.rateOverrides(dir);
            Duration[] intervals = sites.intervals(rates);
            LocalSpiderling.Options options = new LocalSpiderling.Options(0, s.concurrency(), Clock.systemUTC())
                    .withConfig("spiderling.fetch.rate-overrides-file", rates.toString());
            if (model.isPresent()) {
                options = options.withMetering(metering.get()).withInterceptors(List.of(model.get()));
            }
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, options);
                    HeapSampler sampler = HeapSampler.start(s.sampleEvery(), () -> new HeapSampler.Progress(ended.get(),
                            sites.requestCount(), local.s3EventsWaiting()),
                            sample -> System.out.println(sample.line()))) {
                SoakEvents events = new SoakEvents(sites);
                local.listen(events);
                Instant submitted = Instant.now();
                AtomicReference<Map<Usage.Key, Long>> atWarmup = new AtomicReference<>();
                model.ifPresent(m -> Thread.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(s.warmup());
                        atWarmup.set(m.throttles());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
                List<String> batchIds = new CopyOnWriteArrayList<>();
                CompletableFuture<Void> submitting = CompletableFuture.runAsync(() -> {
                    submit(local, sites, s, submitted, batchIds);
                    System.out.printf(Locale.ROOT, "submitted %,d URLs as %d batches in %.1f s%n", s.urls(),
                            batchIds.size(), Duration.between(submitted, Instant.now()).toMillis() / 1000.0);
                }, task -> Thread.ofVirtual().start(task));
                Map<String, JsonNode> statuses = await(local, batchIds, submitting, ended, s.deadline());
                Instant lastCompleted = statuses.values().stream().filter(b -> b.has("completedAt"))
                        .map(b -> Instant.parse(b.get("completedAt").asText())).max(Comparator.naturalOrder())
                        .orElse(Instant.now());
                double makespan = Duration.between(submitted, lastCompleted).toMillis() / 1000.0;
                // The extract stage's events of the last pages, before anything closes.
                local.awaitS3Events(Duration.ofMinutes(2));
                // And the listener's last events (batch.completed goes out as the batch completes).
                events.await(batchIds.size(), sites.plannedCounts().getOrDefault("fetched", 0),
                        Duration.ofMinutes(1));
                sampler.sampleNow();
                List<HeapSampler.Sample> samples = sampler.samples();

                Map<String, String> items = new HashMap<>();
                for (String id : batchIds) {
                    items.putAll(FarmRun.states(local, id, PAGE));
                }
                List<Check> extra = new ArrayList<>();
                if (model.isPresent()) {
                    extra.add(scaleModel(s, sites, model.get(), metering.get(), atWarmup.get()));
                }
                return report(s, sites, intervals, statuses, items, samples, makespan,
                        events.check(items, batchIds), extra);
            }
        } finally {
            metering.ifPresent(Metering::close);
            if (folder.isPresent()) {
                folder.get().close();
            }
        }
    }

    /**
     * The scale model's throttles, over the whole run and after the warm-up, and the load per key that caused them;
     * passes when nothing was throttled after the warm-up.
     */
    private static Check scaleModel(Settings s, SoakSites sites, ScaleModel model, Metering metering,
            Map<Usage.Key, Long> atWarmup) {
        System.out.println();
        System.out.print("whole run: " + model.report(Map.of()));
        Usage used = metering.snapshot();
        System.out.print(siteLoadByRole(sites, used));
        // The whole bill per URL: the calls by key shape show which writes the load per key comes from.
        System.out.print(new CostReport("the whole soak", used, s.urls(), "URL", AwsPrices.US_EAST_1,
                AwsPrices.Architecture.ARM64, Optional.of(new KeyLoadReport.Sites(
                (s.urls() + s.sites() - 1) / s.sites(), s.qps()))).render());
        if (atWarmup == null) {
            return new Check("scale model (AWS / " + CostReport.num(s.scaleModel()) + "): 0 throttled calls after the"
                    + " warm-up", "the run ended within its warm-up of " + s.warmup(), false);
        }
        String after = model.report(atWarmup);
        System.out.print("after the warm-up: " + after);
        long throttled = model.throttles().entrySet().stream()
                .mapToLong(e -> e.getValue() - atWarmup.getOrDefault(e.getKey(), 0L)).sum();
        return new Check("scale model (AWS / " + CostReport.num(s.scaleModel()) + "): 0 throttled calls after the"
                + " warm-up", String.format(Locale.ROOT, "%,d throttled attempts after %s; %s", throttled, s.warmup(),
                after.lines().skip(1).map(String::strip).reduce((a, b) -> a + "; " + b).orElse("none")),
                throttled == 0);
    }

    /**
     * The site-bound keys' write units per URL, by the role of their site: which kind of site the load per site comes
     * from (a site's keys are named after its host).
     */
    static String siteLoadByRole(SoakSites sites, Usage used) {
        Map<SoakSites.Role, Integer> urlsOf = sites.urlsByRole();
        Map<SoakSites.Role, Map<String, Double>> wru = new TreeMap<>();
        used.keys().forEach((key, load) -> {
            if (!key.shape().siteBound()) {
                return;
            }
            String host = key.key().substring(key.key().indexOf('#') + 1).replaceFirst("^https?://", "")
                    .replaceFirst("[:#].*$", "");
            sites.roleOf(host).ifPresent(role -> wru.computeIfAbsent(role, r -> new TreeMap<>())
                    .merge(key.shape().label(), load.writeUnits(), Double::sum));
        });
        StringBuilder out = new StringBuilder("site-bound WRU per URL of the sites of each role:\n");
        wru.forEach((role, shapes) -> {
            out.append(String.format(Locale.ROOT, "  %-6s (%,d URLs)", role, urlsOf.get(role)));
            shapes.forEach((shape, units) -> out.append(String.format(Locale.ROOT, "  %s %.2f", shape,
                    units / urlsOf.get(role))));
            out.append('\n');
        });
        return out.toString();
    }

    /**
     * Submits the batches into {@code ids}, batch k at {@code start} + k × {@code --submit-every} (all at once when
     * that is zero): a steady intake, as a stack serving a steady rate sees, rather than the whole corpus at once.
     */
    private static void submit(LocalSpiderling local, SoakSites sites, Settings s, Instant start, List<String> ids) {
        try {
            for (int k = 0, from = 0; from < s.urls(); k++, from += s.batchSize()) {
                Duration wait = Duration.between(Instant.now(), start.plus(s.submitEvery().multipliedBy(k)));
                if (wait.isPositive()) {
                    Thread.sleep(wait);
                }
                List<String> urls = new ArrayList<>();
                for (int i = from; i < Math.min(s.urls(), from + s.batchSize()); i++) {
                    urls.add(sites.url(i));
                }
                ids.add(FarmRun.submit(local, urls));
            }
        } catch (Exception e) {
            throw new IllegalStateException("submitting batch " + (ids.size() + 1) + " failed", e);
        }
    }

    /**
     * Polls every batch's status until all are submitted and done, or the deadline (a safety net) passes; the last
     * statuses.
     */
    private static Map<String, JsonNode> await(LocalSpiderling local, List<String> batchIds,
            CompletableFuture<Void> submitting, AtomicInteger ended, Duration deadline) throws Exception {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            if (submitting.isCompletedExceptionally()) {
                submitting.join();
            }
            Map<String, JsonNode> statuses = new TreeMap<>();
            int terminal = 0;
            boolean done = submitting.isDone();
            for (String id : batchIds) {
                JsonNode status = FarmRun.batch(local, id);
                statuses.put(id, status);
                terminal += status.get("total").asInt() - status.at("/counts/queued").asInt();
                done &= status.get("done").asBoolean() && status.has("completedAt");
            }
            ended.set(terminal);
            if (done || System.nanoTime() > end) {
                return statuses;
            }
            Thread.sleep(POLL_EVERY.toMillis());
        }
    }

    private static int report(Settings s, SoakSites sites, Duration[] intervals, Map<String, JsonNode> statuses,
            Map<String, String> items, List<HeapSampler.Sample> samples, double makespan, Check listened,
            List<Check> extra) throws IOException {
        List<SoakSites.Hit> log = sites.hits();
        String[] served = sites.servedStates(log);
        List<Check> checks = new ArrayList<>(extra);

        // Every URL terminal, through the API.
        int total = statuses.values().stream().mapToInt(b -> b.get("total").asInt()).sum();
        long doneBatches = statuses.values().stream().filter(b -> b.get("done").asBoolean()).count();
        long queued = items.values().stream().filter("queued"::equals).count();
        boolean allListed = items.size() == s.urls() && total == s.urls();
        checks.add(new Check("every URL terminal (API)", String.format(Locale.ROOT,
                "%,d of %,d items listed, %,d queued; %d of %d batches done", items.size(), s.urls(), queued,
                doneBatches, s.batchCount()), allListed && queued == 0 && doneBatches == s.batchCount()));

        // Counts per state: batch counts, items tallied, served, planned; and URL by URL.
        Map<String, Integer> batchCounts = new TreeMap<>();
        statuses.values().forEach(b -> b.get("counts").fields().forEachRemaining(e -> {
            if (e.getValue().asInt() != 0) {
                batchCounts.merge(e.getKey(), e.getValue().asInt(), Integer::sum);
            }
        }));
        Map<String, Integer> itemCounts = new TreeMap<>();
        items.values().forEach(state -> itemCounts.merge(state, 1, Integer::sum));
        Map<String, Integer> servedCounts = new TreeMap<>();
        for (String state : served) {
            servedCounts.merge(state, 1, Integer::sum);
        }
        Map<String, Integer> planned = sites.plannedCounts();
        int urlMismatches = 0;
        List<String> examples = new ArrayList<>();
        for (int i = 0; i < s.urls(); i++) {
            String state = items.get(sites.url(i));
            if (!served[i].equals(state) || !sites.kind(i).expected.equals(state)) {
                urlMismatches++;
                if (examples.size() < 5) {
                    examples.add(sites.url(i) + " " + sites.kind(i) + ": API " + state + ", served " + served[i]);
                }
            }
        }
        boolean countsEqual = batchCounts.equals(itemCounts) && itemCounts.equals(servedCounts)
                && servedCounts.equals(planned);
        checks.add(new Check("counts exact (batches = items = served = planned, per state; each URL)",
                String.format(Locale.ROOT, "%s; %,d URLs differ%s", itemCounts, urlMismatches,
                        examples.isEmpty() ? "" : " e.g. " + examples), countsEqual && urlMismatches == 0));

        checks.add(listened);

        // Politeness from the sites' logs.
        PolitenessReport politeness = sites.report(log, intervals);
        checks.add(new Check("robots.txt obeyed (no disallowed path, nothing before robots.txt)",
                politeness.robotsViolations().size() + " violations" + first(politeness.robotsViolations()),
                politeness.robotsViolations().isEmpty()));
        int[] robots = new int[s.sites()];
        log.stream().filter(h -> h.url() < 0).forEach(h -> robots[h.site()]++);
        int minRobots = java.util.Arrays.stream(robots).min().orElse(0);
        int maxRobots = java.util.Arrays.stream(robots).max().orElse(0);
        checks.add(new Check("robots.txt once per site within its TTL; no page fetched twice",
                String.format(Locale.ROOT, "robots.txt requests per site %d to %d (TTL %s); %d duplicates%s",
                        minRobots, maxRobots, s.robotsTtl(), politeness.duplicates().size(),
                        first(politeness.duplicates())), politeness.duplicates().isEmpty() && minRobots >= 1));
        // A request goes out within its slot's send window or not at all, and slots are an interval plus the window
        // apart, so the sends are an interval apart; the sites stamp arrivals on their own threads, which a busy core
        // can delay: the smallest gap is judged with a tolerance for that, and the average rate over every window of
        // 10 s, allowing one request more than 10 s / interval for the window's edges.
        Gaps gaps = Gaps.of(log, intervals, s.gapTolerance());
        String busiestSecond = politeness.load().values().stream()
                .max(Comparator.comparingDouble(l -> l.maxInAnySecond() / (double) l.allowedPerSecond()))
                .map(l -> String.format(Locale.ROOT, "busiest 1 s: %d requests at %s (allowed %d/s); %d sites over"
                        + " their rate in some 1 s", l.maxInAnySecond(), l.host(), l.allowedPerSecond(),
                        politeness.rateExcesses().size())).orElse("no requests");
        Windows windows = Windows.of(log, intervals, RATE_WINDOW);
        checks.add(new Check("rate: min gap between requests per site vs its interval", gaps.text(sites),
                gaps.below().isEmpty()));
        checks.add(new Check("rate: requests per site in any 10 s <= 10 s / interval + 1", windows.text(sites)
                + "; " + busiestSecond, windows.over() == 0));
        List<String> strays = sites.strays().stream().map(r -> r.host() + r.path()).toList();
        checks.add(new Check("no request for a path never submitted", strays.size() + " stray requests"
                + (strays.isEmpty() ? "" : " e.g. " + strays.subList(0, Math.min(3, strays.size()))),
                strays.isEmpty()));

        // Memory.
        HeapSampler.Judgement heap = HeapSampler.judge(samples, s.warmup(), HEAP_TOLERANCE);
        checks.add(new Check("live heap after GC within 20 % of its value at " + s.warmup().toMinutes() + " min, after",
                heap.verdict() + ": " + heap.detail(), !(heap instanceof HeapSampler.NotFlat)));

        // Makespan.
        int[] plannedRequests = sites.plannedRequests();
        double bound = 0;
        int busiest = 0;
        for (int site = 0; site < s.sites(); site++) {
            double b = (plannedRequests[site] - 1) * intervals[site].toMillis() / 1000.0;
            if (b > bound) {
                bound = b;
                busiest = site;
            }
        }
        double throughput = s.urls() / makespan;
        String makespanText = String.format(Locale.ROOT, "%.1f s against a politeness bound of %.1f s (%s, %s: %d"
                + " requests at %d ms); ratio %.1f; %.1f URLs/s", makespan, bound, sites.host(busiest),
                sites.role(busiest).label(), plannedRequests[busiest], intervals[busiest].toMillis(), makespan / bound,
                throughput);
        String estimate = String.format(Locale.ROOT, "at %.1f URLs/s, %,d URLs would take about %s", throughput,
                FULL_URLS, hoursMinutes(FULL_URLS / throughput));

        String markdown = markdown(s, checks, makespanText, estimate, batchCounts, itemCounts, servedCounts, planned,
                samples, log.size());
        System.out.println();
        System.out.println(markdown);
        Files.writeString(s.out(), markdown);
        StringBuilder csv = new StringBuilder(HeapSampler.Sample.csvHeader()).append('\n');
        samples.forEach(sample -> csv.append(sample.csv()).append('\n'));
        Files.writeString(s.csv(), csv);
        System.out.println("report written to " + s.out().toAbsolutePath() + ", samples to "
                + s.csv().toAbsolutePath());
        long failed = checks.stream().filter(c -> !c.passed()).count();
        System.out.println(failed == 0 ? "ALL CHECKS PASSED" : failed + " CHECK(S) FAILED");
        return (int) failed;
    }

    private static String markdown(Settings s, List<Check> checks, String makespan, String estimate,
            Map<String, Integer> batchCounts, Map<String, Integer> itemCounts, Map<String, Integer> served,
            Map<String, Integer> planned, List<HeapSampler.Sample> samples, int requests) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "`./spiderling soak --urls %d --sites %d --batches %d --qps %d"
                + " --concurrency %d --seed %d%s` (-Xmx %,d MiB, %s; %s)%n%n", s.urls(), s.sites(), s.batches(),
                s.qps(), s.concurrency(), s.seed(), flags(s), Runtime.getRuntime().maxMemory() >> 20, gcNames(),
                s.inMemory() ? "stack in memory" : "stack on disk"));
        md.append("| check | result | verdict |\n|---|---|---|\n");
        checks.forEach(c -> md.append("| ").append(c.name()).append(" | ").append(c.result().replace("|", "\\|"))
                .append(" | ").append(c.passed() ? "ok" : "**FAILED**").append(" |\n"));
        md.append("| makespan | ").append(makespan).append(" | – |\n");
        md.append("| full run (").append(String.format(Locale.ROOT, "%,d", FULL_URLS)).append(" URLs) | ")
                .append(estimate).append(" | estimate |\n");
        md.append(String.format(Locale.ROOT, "| site requests | %,d | – |%n%n", requests));
        md.append("| state | planned | served (site logs) | items (API) | batch counts (API) |\n")
                .append("|---|---|---|---|---|\n");
        TreeSet<String> states = new TreeSet<>();
        Stream.of(batchCounts, itemCounts, served, planned).forEach(m -> states.addAll(m.keySet()));
        for (String state : states) {
            md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d |%n", state,
                    planned.getOrDefault(state, 0), served.getOrDefault(state, 0), itemCounts.getOrDefault(state, 0),
                    batchCounts.getOrDefault(state, 0)));
        }
        md.append("\n| minute | live heap (MiB) | committed (MiB) | GC (ms) | threads | open files | URLs ended |"
                + " S3 events waiting |\n").append("|---|---|---|---|---|---|---|---|\n");
        for (HeapSampler.Sample sample : samples) {
            md.append(String.format(Locale.ROOT, "| %.1f | %,.0f | %,.0f | %d | %,d | %,d | %,d | %,d |%n",
                    sample.at().toMillis() / 60_000.0, sample.liveHeap() / 1048576.0,
                    sample.committedHeap() / 1048576.0, sample.gcMillis(), sample.threads(), sample.openFiles(),
                    sample.progress().ended(), sample.progress().eventsWaiting()));
        }
        return md.toString();
    }

    /**
     * The smallest gap between two arrivals at each site against its interval.
     *
     * @param below the sites whose smallest gap is shorter than their interval less the tolerance, each with the two
     *     requests that made it
     */
    record Gaps(List<Pair> below, int worstSite, long worstGapMicros, Duration worstInterval, Duration tolerance) {

        /** Two requests in a row at one site. */
        record Pair(SoakSites.Hit before, SoakSites.Hit after) {
            long micros() {
                return after.epochMicros() - before.epochMicros();
            }
        }

        static Gaps of(List<SoakSites.Hit> log, Duration[] intervals, Duration tolerance) {
            SoakSites.Hit[] last = new SoakSites.Hit[intervals.length];
            Pair[] min = new Pair[intervals.length];
            for (SoakSites.Hit hit : log) {
                int site = hit.site();
                if (last[site] != null) {
                    Pair pair = new Pair(last[site], hit);
                    if (min[site] == null || pair.micros() < min[site].micros()) {
                        min[site] = pair;
                    }
                }
                last[site] = hit;
            }
            List<Pair> below = new ArrayList<>();
            int worst = -1;
            double worstRatio = Double.MAX_VALUE;
            for (int site = 0; site < intervals.length; site++) {
                if (min[site] == null) {
                    continue;
                }
                long interval = intervals[site].toNanos() / 1000;
                if (min[site].micros() < interval - tolerance.toNanos() / 1000) {
                    below.add(min[site]);
                }
                double ratio = min[site].micros() / (double) interval;
                if (ratio < worstRatio) {
                    worstRatio = ratio;
                    worst = site;
                }
            }
            return new Gaps(below, worst, worst < 0 ? 0 : min[worst].micros(), worst < 0 ? Duration.ZERO
                    : intervals[worst], tolerance);
        }

        String text(SoakSites sites) {
            if (worstSite < 0) {
                return "no site got two requests";
            }
            String pairs = below.stream().limit(5).map(p -> String.format(Locale.ROOT, "%s (%s) %s then %s %.1f ms"
                    + " later", sites.host(p.after().site()), sites.role(p.after().site()).label(),
                    what(sites, p.before()), what(sites, p.after()), p.micros() / 1000.0)).toList().toString();
            return String.format(Locale.ROOT, "%d sites with a gap below interval − %d ms%s; smallest gap %.1f ms at"
                    + " %s (%s, interval %d ms, %.2f × interval)", below.size(), tolerance.toMillis(),
                    below.isEmpty() ? "" : " " + pairs, worstGapMicros / 1000.0, sites.host(worstSite),
                    sites.role(worstSite).label(), worstInterval.toMillis(),
                    worstGapMicros / 1000.0 / worstInterval.toMillis());
        }

        private static String what(SoakSites sites, SoakSites.Hit hit) {
            return (hit.url() < 0 ? SoakSites.ROBOTS : sites.path(hit.url())) + "#" + hit.ordinal() + " ("
                    + sites.status(hit) + ")";
        }
    }

    /**
     * The most requests each site got within any window, against {@code window / interval + 1}.
     *
     * @param over how many sites got more
     * @param worstSite the site with the highest share of its allowance
     */
    record Windows(int over, int worstSite, int worstCount, int worstAllowed, Duration window) {

        static Windows of(List<SoakSites.Hit> log, Duration[] intervals, Duration window) {
            List<List<Long>> times = new ArrayList<>();
            for (int site = 0; site < intervals.length; site++) {
                times.add(new ArrayList<>());
            }
            log.forEach(hit -> times.get(hit.site()).add(hit.epochMicros()));
            long windowMicros = window.toNanos() / 1000;
            int over = 0;
            int worst = -1;
            int worstCount = 0;
            int worstAllowed = 1;
            for (int site = 0; site < intervals.length; site++) {
                List<Long> t = times.get(site);
                int max = 0;
                for (int start = 0, end = 0; start < t.size(); start++) {
                    while (end < t.size() && t.get(end) < t.get(start) + windowMicros) {
                        end++;
                    }
                    max = Math.max(max, end - start);
                }
                int allowed = (int) (window.toMillis() / intervals[site].toMillis()) + 1;
                if (max > allowed) {
                    over++;
                }
                if (worst < 0 || max * (long) worstAllowed > worstCount * (long) allowed) {
                    worst = site;
                    worstCount = max;
                    worstAllowed = allowed;
                }
            }
            return new Windows(over, worst, worstCount, worstAllowed, window);
        }

        String text(SoakSites sites) {
            return worstSite < 0 ? "no requests" : String.format(Locale.ROOT, "%d sites over; busiest %d requests"
                    + " in %d s at %s (%s, allowed %d)", over, worstCount, window.toSeconds(), sites.host(worstSite),
                    sites.role(worstSite).label(), worstAllowed);
        }
    }

    private static String first(List<?> list) {
        return list.isEmpty() ? "" : " e.g. " + list.getFirst();
    }

    private static String hoursMinutes(double seconds) {
        long minutes = Math.round(seconds / 60);
        return minutes >= 60 ? String.format(Locale.ROOT, "%d h %02d min", minutes / 60, minutes % 60)
                : minutes + " min";
    }

    /** The options that change what the run measures, as given on the command line. */
    private static String flags(Settings s) {
        return (s.scaleModel() > 0 ? " --scale-model " + CostReport.num(s.scaleModel()) : "")
                + (s.pages() == SoakSites.Pages.REALISTIC ? " --realistic-pages" : "")
                + (s.submitEvery().isPositive() ? " --submit-every " + s.submitEvery() : "");
    }

    private static String gcNames() {
        return String.join(" + ", ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).toList());
    }

    private static void printJvm(Settings s) {
        System.out.printf(Locale.ROOT, "soak: %,d URLs over %,d sites in %d batches of up to %,d; fast sites at %d"
                + " requests/s; at most %d fetch invocations; %s pages; seed %d%n", s.urls(), s.sites(), s.batches(),
                s.batchSize(), s.qps(), s.concurrency(), s.pages().name().toLowerCase(Locale.ROOT), s.seed());
        System.out.printf(Locale.ROOT, "JVM: max heap %,d MiB; GC %s; flags %s%n",
                Runtime.getRuntime().maxMemory() >> 20, gcNames(),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        System.out.printf(Locale.ROOT, "memory: live heap after a forced full GC (System.gc()) every %s; flat when"
                + " each sample within %.0f %% of the first after %s%n", s.sampleEvery(), 100 * HEAP_TOLERANCE,
                s.warmup());
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static Settings parse(String[] argv) {
        int urls = FULL_URLS;
        int sites = 1000;
        int batches = 10;
        int qps = 10;
        int concurrency = LocalSpiderling.Options.DEFAULT_FETCH_CONCURRENCY;
        Duration sampleEvery = Duration.ofMinutes(1);
        Duration warmup = Duration.ofMinutes(10);
        Duration robotsTtl = Duration.ofHours(1);
        Duration deadline = Duration.ofHours(6);
        Duration gapTolerance = Duration.ofMillis(100);
        long seed = 20261124L;
        Path out = Path.of("soak-report.md");
        boolean inMemory = false;
        double scaleModel = 0;
        SoakSites.Pages pages = SoakSites.Pages.SMALL;
        Duration submitEvery = Duration.ZERO;
        try {
            for (int i = 0; i < argv.length; i++) {
                switch (argv[i]) {
                    case "--urls" -> urls = Integer.parseInt(argv[++i]);
                    case "--sites" -> sites = Integer.parseInt(argv[++i]);
                    case "--batches" -> batches = Integer.parseInt(argv[++i]);
                    case "--qps" -> qps = Integer.parseInt(argv[++i]);
                    case "--concurrency" -> concurrency = Integer.parseInt(argv[++i]);
                    case "--sample-every" -> sampleEvery = Duration.parse(argv[++i]);
                    case "--warmup" -> warmup = Duration.parse(argv[++i]);
                    case "--robots-ttl" -> robotsTtl = Duration.parse(argv[++i]);
                    case "--deadline" -> deadline = Duration.parse(argv[++i]);
                    case "--gap-tolerance" -> gapTolerance = Duration.parse(argv[++i]);
                    case "--seed" -> seed = Long.parseLong(argv[++i]);
                    case "--out" -> out = Path.of(argv[++i]);
                    case "--in-memory" -> inMemory = true;
                    case "--scale-model" -> scaleModel = Double.parseDouble(argv[++i]);
                    case "--realistic-pages" -> pages = SoakSites.Pages.REALISTIC;
                    case "--submit-every" -> submitEvery = Duration.parse(argv[++i]);
                    default -> throw new IllegalArgumentException(argv[i]);
                }
            }
            Settings settings = new Settings(urls, sites, batches, qps, concurrency, sampleEvery, warmup, robotsTtl,
                    deadline, gapTolerance, seed, out, inMemory, scaleModel, pages, submitEvery);
            if (settings.batchSize() > BatchPlanner.MAX_URLS || sites < 1 || urls < sites || batches < 1
                    || submitEvery.isNegative()) {
                throw new IllegalArgumentException("need urls >= sites >= 1, at most " + BatchPlanner.MAX_URLS
                        + " URLs a batch and --submit-every >= 0");
            }
            return settings;
        } catch (RuntimeException e) {
            System.err.println("soak: " + e.getMessage() + "\nUsage: ./spiderling soak [--urls N] [--sites S]"
                    + " [--batches B] [--qps Q] [--concurrency C] [--out FILE] [--sample-every PT1M] [--warmup PT10M]"
                    + " [--robots-ttl PT1H] [--deadline PT6H] [--gap-tolerance PT0.1S] [--seed N] [--in-memory]"
                    + " [--scale-model N] [--realistic-pages] [--submit-every PT0S]\n"
                    + "  defaults: 100,000 URLs, 1,000 sites, 10 batches, 10 requests/s on all but the slow sites,"
                    + " report in soak-report.md and soak-report-samples.csv\n  --scale-model N: DynamoDB's throughput"
                    + " limits divided by N (ScaleModel; N = 10,000 / the soak's URLs/s stands for 10,000 URLs/s),"
                    + " metered, with a check of 0 throttles after the warm-up\n  --realistic-pages: bench-fetch's"
                    + " 30-100 KiB article pages instead of small ones, so rows and extraction cost what real pages'"
                    + " cost\n  --submit-every D: batch k goes in at k × D (by default all at once), a steady"
                    + " intake for the scale model's steady rate");
            System.exit(2);
            throw e;
        }
    }
}
