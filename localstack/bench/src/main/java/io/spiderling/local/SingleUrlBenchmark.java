package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./spiderling bench-single}: how long one URL takes from submit to metadata on a warm site, as SpiderDuck's
 * users asked for one URL at a time (issue 25). One local site allowed {@code --qps} requests a second (50 by
 * default); {@code --warmup} single-URL batches first (robots.txt read, connections open, code warm), then
 * {@code --batches} more, one after the other, each a URL not fetched before. Each is timed from the
 * {@code POST /batches} until {@code GET /urls} shows its extracted metadata, polled every 10 ms; then until the batch
 * is done (its status polled after the metadata was seen, so that a status read does not delay seeing the metadata).
 * The site's own log gives the shortest gap between two of its requests, which the send window keeps at or above the
 * site's interval. {@code --stages} also prints where the time went ({@link StageTrace}).
 */
public final class SingleUrlBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration POLL = Duration.ofMillis(10);
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private SingleUrlBenchmark() {}

    /** @param qps the site's allowed rate */
    record Settings(int batches, int warmup, int qps, boolean stages) {}

    public static void main(String[] argv) throws Exception {
        Settings s = settings(argv);
        Path dir = Files.createTempDirectory("spiderling-bench-single");
        try (EmbeddedAws aws = EmbeddedAws.start(); LocalSites sites = LocalSites.start(1)) {
            StackResources resources = aws.provision("bench-single");
            LocalSite site = sites.site(0);
            for (int i = 0; i < s.warmup() + s.batches(); i++) {
                site.page("/one/" + i, "<!DOCTYPE html><html lang='en'><head><title>One " + i + "</title></head>"
                        + "<body><h1>One " + i + "</h1><p>A page asked for alone.</p></body></html>");
            }
            Path rates = sites.rateOverrides(dir, s.qps());
            LocalSpiderling.Options options = new LocalSpiderling.Options(0,
                    LocalSpiderling.Options.DEFAULT_FETCH_CONCURRENCY, Clock.systemUTC())
                    .withConfig("spiderling.fetch.rate-overrides-file", rates.toString());
            StageTrace trace = new StageTrace();
            if (s.stages()) {
                options = options.withMetering(trace);
            }
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, options)) {
                for (int i = 0; i < s.warmup(); i++) {
                    time(local, site.url("/one/" + i));
                }
                List<long[]> timings = new ArrayList<>();
                List<Long> toRequest = new ArrayList<>();
                for (int i = s.warmup(); i < s.warmup() + s.batches(); i++) {
                    java.time.Instant submitted = java.time.Instant.now();
                    if (s.stages()) {
                        trace.start();
                    }
                    timings.add(time(local, site.url("/one/" + i)));
                    String path = "/one/" + i;
                    if (s.stages()) {
                        site.requests().stream().filter(r -> r.path().equals(path)).findFirst()
                                .ifPresent(r -> trace.markInstant("SITE RECEIVED THE REQUEST", r.receivedAt()));
                        trace.stop(timings.getLast()[0]);
                    }
                    site.requests().stream().filter(r -> r.path().equals(path)).findFirst().ifPresent(r ->
                            toRequest.add(Duration.between(submitted, r.receivedAt()).toMillis()));
                }
                report(s, timings, site);
                if (s.stages()) {
                    System.out.print(trace.report());
                }
                List<Long> sorted = toRequest.stream().sorted().toList();
                System.out.printf(Locale.ROOT, "submit -> the site's request: p50 %d ms, p90 %d ms, p99 %d ms%n",
                        percentile(sorted, 50), percentile(sorted, 90), percentile(sorted, 99));
            }
        } finally {
            Files.deleteIfExists(dir.resolve("rate-overrides.txt"));
            Files.deleteIfExists(dir);
        }
    }

    /** One single-URL batch: milliseconds from submit to metadata, and from submit to the batch done. */
    private static long[] time(LocalSpiderling local, String url) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> posted = HTTP.send(local.apiRequest("/batches").POST(HttpRequest.BodyPublishers
                .ofString("{\"urls\":[\"" + url + "\"]}")).build(), HttpResponse.BodyHandlers.ofString());
        if (posted.statusCode() != 202) {
            throw new IllegalStateException("POST /batches answered " + posted.statusCode() + ": " + posted.body());
        }
        String batchId = JSON.readTree(posted.body()).get("batchId").asText();
        String query = "/urls?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8);
        long metadata = -1;
        long done = -1;
        long deadline = start + PATIENCE.toNanos();
        // The metadata first, alone, as a client waiting for it polls: a status read in between would delay seeing it.
        while (metadata < 0 && System.nanoTime() < deadline) {
            HttpResponse<String> record = HTTP.send(local.apiRequest(query).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (record.statusCode() == 200 && JSON.readTree(record.body()).has("metadata")) {
                metadata = System.nanoTime();
            } else {
                Thread.sleep(POLL.toMillis());
            }
        }
        while (metadata >= 0 && done < 0 && System.nanoTime() < deadline) {
            JsonNode status = JSON.readTree(HTTP.send(local.apiRequest("/batches/" + batchId).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            if (status.path("done").asBoolean()) {
                done = System.nanoTime();
            } else {
                Thread.sleep(POLL.toMillis());
            }
        }
        if (metadata < 0 || done < 0) {
            throw new IllegalStateException(url + ": no metadata or not done after " + PATIENCE);
        }
        return new long[] {(metadata - start) / 1_000_000, (done - start) / 1_000_000};
    }

    private static void report(Settings s, List<long[]> timings, LocalSite site) {
        List<Long> toMetadata = timings.stream().map(t -> t[0]).sorted().toList();
        List<Long> toDone = timings.stream().map(t -> t[1]).sorted().toList();
        System.out.printf(Locale.ROOT, "%d single-URL batches after %d to warm up, one site at %d requests/s%n",
                s.batches(), s.warmup(), s.qps());
        System.out.printf(Locale.ROOT, "submit -> metadata: p50 %d ms, p90 %d ms, p99 %d ms, max %d ms%n",
                percentile(toMetadata, 50), percentile(toMetadata, 90), percentile(toMetadata, 99),
                toMetadata.getLast());
        System.out.printf(Locale.ROOT, "submit -> batch done: p50 %d ms, p90 %d ms, p99 %d ms, max %d ms%n",
                percentile(toDone, 50), percentile(toDone, 90), percentile(toDone, 99), toDone.getLast());
        List<RecordedRequest> log = site.requests();
        long shortest = Long.MAX_VALUE;
        for (int i = 1; i < log.size(); i++) {
            shortest = Math.min(shortest, Duration.between(log.get(i - 1).receivedAt(), log.get(i).receivedAt())
                    .toMillis());
        }
        System.out.printf(Locale.ROOT, "site: %d requests, shortest gap %d ms (interval %d ms)%n", log.size(),
                shortest, 1000 / s.qps());
    }

    /** The nearest-rank percentile of sorted values. */
    private static long percentile(List<Long> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static Settings settings(String[] argv) {
        int batches = 300;
        int warmup = 20;
        int qps = 50;
        boolean stages = false;
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--batches" -> batches = Integer.parseInt(argv[++i]);
                case "--warmup" -> warmup = Integer.parseInt(argv[++i]);
                case "--qps" -> qps = Integer.parseInt(argv[++i]);
                case "--stages" -> stages = true;
                default -> {
                    System.err.println("Usage: ./spiderling bench-single [--batches N] [--warmup W] [--qps Q] [--stages]");
                    System.exit(2);
                }
            }
        }
        return new Settings(batches, warmup, qps, stages);
    }
}
