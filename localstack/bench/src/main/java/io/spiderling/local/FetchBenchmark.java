package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.local.cost.Account;
import io.spiderling.local.cost.AwsPrices;
import io.spiderling.local.cost.CostReport;
import io.spiderling.local.cost.KeyLoadReport;
import io.spiderling.local.cost.Metering;
import io.spiderling.local.cost.ScaleModel;
import io.spiderling.local.cost.Usage;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.GeneratedPages;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.PolitenessReport;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.SiteLatency;
import io.spiderling.testkit.StackResources;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ./spiderling bench-fetch}: N URLs spread over M local sites at q requests per second each, fetched once and
 * then recrawled, each phase with its makespan against the politeness bound {@code max_s (n_s − 1) / q} (a site's n
 * requests need n − 1 intervals between them) and what it would cost on AWS ({@link CostReport}).
 *
 * <p>The sites serve generated article pages ({@link GeneratedPages}: 30–100 KiB, about 100 links, OpenGraph,
 * JSON-LD) after a time to first byte and at a transfer rate ({@code --ttfb-ms}, {@code --mbps}), with an ETag and a
 * Last-Modified. The recrawl submits the same URLs with {@code recrawlAfter: PT0S}, so every stored copy is due: the
 * even-numbered pages answer 304 to the fetcher's validators, the odd-numbered ones ignore them and answer 200 with the
 * same body, as many servers do. {@code --runs R} repeats the whole measurement on a fresh stack and prints the
 * median ratios. Metering reads each transaction's items on the side, which adds DynamoDB Local work;
 * {@code --no-cost} measures the makespan without it. {@code --capture} turns on wire captures for WARC
 * ({@code spiderling.capture.enabled}), so the cost figures include their S3 PUTs and the larger URL rows.
 * {@code --markdown} asks both batches for the Markdown of each page's main content ({@code "markdown": true}), so
 * they include its rendering, its S3 PUT and its row write.
 */
public final class FetchBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Long enough for the event sources to delete the last messages after the batch is done. */
    private static final Duration SETTLE = Duration.ofSeconds(2);
    private static final Instant LAST_MODIFIED = Instant.parse("2026-11-01T00:00:00Z");

    private FetchBenchmark() {}

    /**
     * @param cost whether to meter what AWS would bill (it reads transactions' items on the side; see cost)
     * @param capture whether the fetch stage stores wire captures (docs/warc.md)
     * @param markdown whether the batches ask for the Markdown of each page's main content
     */
    record Settings(int urls, int sites, int qps, int concurrency, int runs, long ttfbMs, double mbps, long seed,
            boolean cost, boolean capture, boolean markdown, double scaleModel) {}

    /** One phase: its batch's final status, makespan, bound and usage, and what the sites saw. */
    record Phase(String name, JsonNode status, double makespan, double bound, Usage usage,
            KeyLoadReport.Sites sites, List<SiteLog> logs) {
        int count(String state) {
            return status.at("/counts/" + state).asInt();
        }

        double ratio() {
            return makespan / bound;
        }

        CostReport report() {
            return new CostReport(name, usage, count("fetched") + count("not-modified"), "fetched URL",
                    AwsPrices.US_EAST_1, AwsPrices.Architecture.ARM64, Optional.of(sites));
        }
    }

    public static void main(String[] argv) throws Exception {
        Settings s = parse(argv);
        try (Metering metering = s.cost() || s.scaleModel() > 0 ? Metering.billing() : Metering.counting()) {
            metering.actAs(Account.HARNESS);
            Optional<ScaleModel> model = s.scaleModel() > 0
                    ? Optional.of(ScaleModel.on(metering, s.scaleModel(), Clock.systemUTC())) : Optional.empty();
            measure(s, metering, model);
        }
    }

    private static void measure(Settings s, Metering metering, Optional<ScaleModel> model) throws Exception {
        System.out.printf(Locale.ROOT, "%d URLs over %d sites at %d requests/s each, at most %d fetch invocations;"
                + " sites answer after %d ms at %s MB/s; pages seeded %d%n", s.urls(), s.sites(), s.qps(),
                s.concurrency(), s.ttfbMs(), s.mbps(), s.seed());
        List<Phase[]> runs = new ArrayList<>();
        for (int r = 1; r <= s.runs(); r++) {
            System.out.printf(Locale.ROOT, "%n######## run %d of %d%n", r, s.runs());
            runs.add(run(s, metering, model));
        }
        System.out.printf(Locale.ROOT, "%n######## %d run(s)%n", runs.size());
        for (int p = 0; p < 2; p++) {
            int i = p;
            List<Double> ratios = runs.stream().map(run -> run[i].ratio()).toList();
            List<Double> dollars = runs.stream().map(run -> run[i].report().perMillion().total()).toList();
            System.out.printf(Locale.ROOT, "%s: makespan/bound ratios %s, median %.2f%s%n", runs.getFirst()[i].name(),
                    format(ratios), median(ratios), !s.cost() ? " (not metered)" : String.format(Locale.ROOT,
                            "; $ per million fetched URLs %s, median %.2f", format(dollars), median(dollars)));
        }
    }

    /** A phase's figures, printed as soon as it ends (a run that hangs later keeps them). */
    private static Phase print(Settings s, Phase phase) {
        System.out.printf(Locale.ROOT, "%n%s: fetched %d, not-modified %d, other %d; makespan %.1f s; lower"
                + " bound max_s (n_s - 1)/q = %.1f s; ratio %.2f%n", phase.name(), phase.count("fetched"),
                phase.count("not-modified"), phase.status().get("total").asInt() - phase.count("fetched")
                - phase.count("not-modified"), phase.makespan(), phase.bound(), phase.ratio());
        phase.logs().stream().sorted(java.util.Comparator.comparingDouble(SiteLog::perSecond).reversed())
                .limit(5).forEach(site -> System.out.println("  " + site.render()));
        System.out.printf(Locale.ROOT, "  politeness: %d of %d sites over their rate in some 1 s%n",
                phase.logs().stream().filter(SiteLog::violated).count(), phase.logs().size());
        if (s.cost()) {
            System.out.print(phase.report().render());
        }
        System.out.flush();
        return phase;
    }

    private static Phase[] run(Settings s, Metering metering, Optional<ScaleModel> model) throws Exception {
        Path dir = Files.createTempDirectory("spiderling-bench-fetch");
        try (EmbeddedAws aws = EmbeddedAws.start();
                LocalSites sites = LocalSites.start(s.sites()).latency(SiteLatency.of(s.ttfbMs(), s.mbps()))) {
            StackResources resources = aws.provision("bench-fetch");
            List<String> bases = sites.sites().stream().map(LocalSite::baseUrl).toList();
            var list = JSON.createArrayNode();
            Map<String, Integer> perSite = new HashMap<>();
            long bytes = 0;
            for (int i = 0; i < s.urls(); i++) {
                LocalSite site = sites.site(i % s.sites());
                String url = site.url("/item/" + i);
                String html = GeneratedPages.page(s.seed(), i, url,
                        bases.stream().filter(b -> !b.equals(site.baseUrl())).toList());
                site.cacheablePage("/item/" + i, html, LAST_MODIFIED);
                bytes += html.getBytes(StandardCharsets.UTF_8).length;
                list.add(url);
                perSite.merge(site.host(), 1, Integer::sum);
            }
            // Many servers ignore validators; here the odd-numbered pages' do, so half the recrawl answers 200.
            sites.sites().forEach(site -> site.ignoreValidators(FetchBenchmark::oddPage));
            System.out.printf(Locale.ROOT, "pages: %,d bytes in all, %,d on average%n", bytes, bytes / s.urls());
            int busiest = perSite.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            double bound = (busiest - 1) / (double) s.qps();
            Path rates = sites.rateOverrides(dir, s.qps());
            LocalSpiderling.Options options = new LocalSpiderling.Options(0, s.concurrency(), Clock.systemUTC())
                    .withConfig("spiderling.fetch.rate-overrides-file", rates.toString())
                    .withConfig(ConfigKeys.CAPTURE_ENABLED.name(), Boolean.toString(s.capture()))
                    .withMetering(metering)
                    .withInterceptors(model.<List<software.amazon.awssdk.core.interceptor.ExecutionInterceptor>>map(
                            List::of).orElse(List.of()));
            Duration interval = RateOverrides.parse(Files.readString(rates)).intervalFor(sites.site(0).host(),
                    RateLimiter.Settings.DEFAULTS.spacing().defaultInterval());
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, options)) {
                ObjectNode first = JSON.createObjectNode();
                first.set("urls", list);
                if (s.markdown()) {
                    first.put("markdown", true);
                }
                KeyLoadReport.Sites siteLoad = new KeyLoadReport.Sites(busiest, s.qps());
                Phase fetch = print(s, phase(local, metering, model, "first fetch", first, bound, siteLoad,
                        sites, interval));
                ObjectNode again = JSON.createObjectNode();
                again.set("urls", list);
                again.put("recrawlAfter", "PT0S");
                if (s.markdown()) {
                    again.put("markdown", true);
                }
                Phase recrawl = print(s, phase(local, metering, model, "recrawl", again, bound, siteLoad,
                        sites, interval));
                return new Phase[] {fetch, recrawl};
            }
        } finally {
            Files.deleteIfExists(dir.resolve("rate-overrides.txt"));
            Files.deleteIfExists(dir);
        }
    }

    /** Submits the batch as a client would, and waits for it as the harness, polling once a second. */
    private static Phase phase(LocalSpiderling local, Metering metering, Optional<ScaleModel> model, String name,
            ObjectNode body, double bound, KeyLoadReport.Sites sites, LocalSites localSites, Duration interval)
            throws Exception {
        Usage before = metering.snapshot();
        int[] seen = localSites.sites().stream().mapToInt(site -> site.requests().size()).toArray();
        Map<Usage.Key, Long> throttledBefore = model.map(ScaleModel::throttles).orElse(Map.of());
        long start = System.nanoTime();
        HttpResponse<String> posted = HTTP.send(local.apiRequest("/batches")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        if (posted.statusCode() / 100 != 2) {
            throw new IllegalStateException("POST /batches: " + posted.statusCode() + " " + posted.body());
        }
        String batchId = JSON.readTree(posted.body()).get("batchId").asText();
        JsonNode status;
        while (true) {
            Thread.sleep(1000);
            status = JSON.readTree(HTTP.send(local.apiRequest("/batches/" + batchId)
                    .header(Metering.HARNESS_HEADER, "status poll").GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            if (status.get("done").asBoolean() && status.has("completedAt")) {
                break;
            }
        }
        double makespan = (System.nanoTime() - start) / 1e9;
        model.ifPresent(m -> System.out.printf(Locale.ROOT, "%n%s: %s", name, m.report(throttledBefore)));
        local.awaitS3Events(Duration.ofMinutes(1)); // the extract events of the last pages
        Thread.sleep(SETTLE);
        List<SiteLog> logs = new ArrayList<>();
        for (int i = 0; i < seen.length; i++) {
            LocalSite site = localSites.site(i);
            List<RecordedRequest> requests = site.requests();
            logs.add(SiteLog.of(site.host(), requests.subList(seen[i], requests.size()), interval));
        }
        return new Phase(name, status, makespan, bound, metering.snapshot().minus(before), sites, logs);
    }

    /**
     * One site's requests in a phase, as it recorded them: its load as the testkit's {@link PolitenessReport} judges it
     * (how fast they came, the most within any 1 s against the rate it was given), and the smallest gap between two
     * against its interval. The sites stamp arrivals on their own threads, so a gap a little below the interval can be
     * a stamp taken late; the count of such gaps is printed with the smallest, and the rate in any 1 s is the verdict.
     *
     * @param shortGaps gaps between consecutive arrivals below the interval
     */
    record SiteLog(PolitenessReport.SiteLoad load, Duration minGap, int shortGaps, Duration interval) {

        static SiteLog of(String host, List<RecordedRequest> requests, Duration interval) {
            List<Instant> at = requests.stream().map(RecordedRequest::receivedAt).sorted().toList();
            Duration minGap = null;
            int shortGaps = 0;
            for (int i = 1; i < at.size(); i++) {
                Duration gap = Duration.between(at.get(i - 1), at.get(i));
                minGap = minGap == null || gap.compareTo(minGap) < 0 ? gap : minGap;
                shortGaps += gap.compareTo(interval) < 0 ? 1 : 0;
            }
            return new SiteLog(PolitenessReport.load(host, at, (int) (1000 / interval.toMillis())),
                    minGap == null ? Duration.ZERO : minGap, shortGaps, interval);
        }

        double perSecond() {
            return load.ratePerSecond();
        }

        boolean violated() {
            return load.exceeded();
        }

        String render() {
            return String.format(Locale.ROOT, "%s: %d requests at %.1f/s; at most %d in any 1 s (allowed %d);"
                    + " smallest gap %.1f ms, %d gaps below the %d ms interval%s", load.host(), load.requests(),
                    perSecond(), load.maxInAnySecond(), load.allowedPerSecond(), minGap.toNanos() / 1e6, shortGaps,
                    interval.toMillis(), violated() ? "  RATE VIOLATION" : "");
        }
    }

    static boolean oddPage(String path) {
        int slash = path.lastIndexOf('/');
        try {
            return Integer.parseInt(path.substring(slash + 1)) % 2 == 1;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String format(List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).toList().toString();
    }

    private static Settings parse(String[] argv) {
        int urls = 600;
        int sites = 6;
        int qps = 5;
        int concurrency = LocalSpiderling.Options.DEFAULT_FETCH_CONCURRENCY;
        int runs = 1;
        long ttfbMs = 200;
        double mbps = 10;
        long seed = 20261124L;
        boolean cost = true;
        boolean capture = false;
        boolean markdown = false;
        double scaleModel = 0;
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--urls" -> urls = Integer.parseInt(argv[++i]);
                case "--sites" -> sites = Integer.parseInt(argv[++i]);
                case "--qps" -> qps = Integer.parseInt(argv[++i]);
                case "--concurrency" -> concurrency = Integer.parseInt(argv[++i]);
                case "--runs" -> runs = Integer.parseInt(argv[++i]);
                case "--ttfb-ms" -> ttfbMs = Long.parseLong(argv[++i]);
                case "--mbps" -> mbps = Double.parseDouble(argv[++i]);
                case "--seed" -> seed = Long.parseLong(argv[++i]);
                case "--no-cost" -> cost = false;
                case "--capture" -> capture = true;
                case "--markdown" -> markdown = true;
                case "--scale-model" -> scaleModel = Double.parseDouble(argv[++i]);
                default -> {
                    System.err.println("Usage: ./spiderling bench-fetch [--urls N] [--sites M] [--qps Q]"
                            + " [--concurrency C] [--runs R] [--ttfb-ms MS] [--mbps MB_PER_S] [--seed S] [--no-cost]"
                            + " [--capture] [--markdown] [--scale-model N]\n"
                            + "  --mbps is the sites' transfer rate in megabytes (10^6 bytes) a second; default 10;"
                            + " --ttfb-ms 200\n  --no-cost: makespan only, without the meter's consumed-capacity"
                            + " requests and side reads of transactions' items\n  --capture: store wire captures for WARC"
                            + " (spiderling.capture.enabled), so the cost includes them\n  --markdown: ask for the"
                            + " Markdown of each page's main content, so the cost includes it\n  --scale-model N: DynamoDB's"
                            + " throughput limits divided by N (ScaleModel), throttles per key printed per phase");
                    System.exit(2);
                }
            }
        }
        return new Settings(urls, sites, qps, concurrency, runs, ttfbMs, mbps, seed, cost, capture, markdown,
                scaleModel);
    }
}
