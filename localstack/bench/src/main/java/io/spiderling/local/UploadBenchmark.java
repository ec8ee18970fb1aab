package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.aws.DynamoDbFrontierStore;
import io.spiderling.core.sitemap.SitemapExpander;
import io.spiderling.core.url.SiteKey;
import io.spiderling.local.cost.Account;
import io.spiderling.local.cost.AwsPrices;
import io.spiderling.local.cost.CostReport;
import io.spiderling.local.cost.Metering;
import io.spiderling.local.cost.Usage;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.StackResources;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code ./spiderling bench-upload}: the harness for planning a large uploaded manifest end to end through
 * canonicalize, on the embedded stack. It writes a manifest (streamed to a file), opens an upload batch through the
 * local API, PUTs the file to the presigned URL, and times until every chunk is planned: each URL has its batch item,
 * its claim and its frontier entry. Nothing is fetched (no fetch pollers), so the number is planning alone. At the end
 * it checks the counts: the header's total and duplicates, and the frontier's entries summed over every site, and
 * reports what the planning would cost on AWS per planned URL ({@link CostReport}; the client's upload counts, the
 * harness's status polls do not).
 *
 * <p>With {@code --sitemap}, the same list is a sitemap instead (ADR 19): served by a local site, named by a batch
 * ({@code "sitemaps"}), fetched and cut by one invocation of the fetch function, and planned by the plan function in
 * chunks, as an upload's are. No fetch poller runs: the harness hands the sitemap's one fetch job to the fetch
 * function, so the pages it lists stay queued and the figure is planning alone here too. Compare it with an upload
 * of the same shape: {@code --sites 1}, since a sitemap lists the URLs of its own site.
 *
 * <p>Measured here, not asserted in a test: the numbers belong in docs/BENCHMARKS.md with the command.
 */
public final class UploadBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Long enough for the event sources to delete the last messages after the planning is done. */
    private static final Duration SETTLE = Duration.ofSeconds(2);

    private UploadBenchmark() {}

    /** What the generated manifest holds. */
    record Manifest(Path file, long bytes, long lines, long distinct, long duplicates, long invalid) {}

    public static void main(String[] argv) throws Exception {
        long urls = 1_000_000;
        int sites = 1_000;
        long chunkBytes = 1024 * 1024;
        boolean cost = true;
        boolean sitemap = false;
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--urls" -> urls = Long.parseLong(argv[++i]);
                case "--sites" -> sites = Integer.parseInt(argv[++i]);
                case "--chunk-bytes" -> chunkBytes = Long.parseLong(argv[++i]);
                case "--no-cost" -> cost = false;
                case "--sitemap" -> sitemap = true;
                default -> {
                    System.err.println("Usage: ./spiderling bench-upload [--urls N] [--sites S] [--chunk-bytes B]"
                            + " [--no-cost] [--sitemap]\n  --no-cost: the time only, without the meter's"
                            + " consumed-capacity requests and side reads of transactions' items\n  --sitemap: the"
                            + " URLs as one sitemap of one site (at most 50,000), read and planned by the pipeline");
                    System.exit(2);
                }
            }
        }
        if (sitemap && urls > SitemapExpander.Settings.PROTOCOL_MAX_URLS) {
            System.err.println("a sitemap lists at most " + SitemapExpander.Settings.PROTOCOL_MAX_URLS + " URLs");
            System.exit(2);
        }
        try (Metering metering = cost ? Metering.billing() : Metering.counting()) {
            metering.actAs(Account.HARNESS);
            if (sitemap) {
                SitemapRun.measure(urls, metering);
            } else {
                measure(urls, sites, chunkBytes, metering);
            }
        }
    }

    private static void measure(long urls, int sites, long chunkBytes, Metering metering) throws Exception {
        Path dir = Files.createTempDirectory("spiderling-bench-upload");
        Manifest manifest = write(dir.resolve("manifest.jsonl"), urls, sites);
        System.out.printf(Locale.ROOT, "manifest: %,d lines, %,d bytes: %,d distinct URLs over %,d sites, %,d respelled"
                + " duplicates, %,d invalid lines%n", manifest.lines(), manifest.bytes(), manifest.distinct(), sites,
                manifest.duplicates(), manifest.invalid());

        try (EmbeddedAws aws = EmbeddedAws.start()) {
            StackResources resources = aws.provision("bench-upload");
            LocalSpiderling.Options options = new LocalSpiderling.Options(0, 0, java.time.Clock.systemUTC())
                    .withConfig("spiderling.uploads.chunk-bytes", String.valueOf(chunkBytes))
                    // As EventBridge would run it on AWS; every second it would compete with planning for the stack.
                    .withSweepEvery(Duration.ofMinutes(1))
                    .withMetering(metering);
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, options)) {
                run(aws, resources, local, manifest, metering);
            }
        } finally {
            Files.deleteIfExists(manifest.file());
            Files.deleteIfExists(dir);
        }
    }

    private static void run(EmbeddedAws aws, StackResources resources, LocalSpiderling local, Manifest manifest,
            Metering metering) throws Exception {
        Usage before = metering.snapshot();
        HttpResponse<String> created = HTTP.send(local.apiRequest("/batches/uploads")
                .POST(HttpRequest.BodyPublishers.ofString("{\"format\":\"jsonl\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode upload = JSON.readTree(created.body());
        String batchId = upload.get("batchId").asText();
        long start = System.nanoTime();
        HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(URI.create(upload.get("uploadUrl").asText()))
                .header("Content-Type", upload.get("headers").get("Content-Type").asText())
                .PUT(HttpRequest.BodyPublishers.ofFile(manifest.file())).build(), HttpResponse.BodyHandlers.ofString());
        if (put.statusCode() != 200) {
            throw new IllegalStateException("upload refused: " + put.statusCode() + " " + put.body());
        }
        double uploadSeconds = (System.nanoTime() - start) / 1e9;
        metering.clientPut("uploads/", manifest.bytes());
        long peakHeap = 0;
        JsonNode status;
        long lastReport = 0;
        while (true) {
            status = get(local, "/batches/" + batchId);
            peakHeap = Math.max(peakHeap, heapUsed());
            JsonNode u = status.get("upload");
            long now = System.nanoTime();
            if ("planned".equals(u.get("state").asText())) {
                break;
            }
            if (now - lastReport > 30e9) {
                lastReport = now;
                System.out.printf(Locale.ROOT, "  %5.0f s: %s, chunks planned %d of %d, items %,d%n",
                        (now - start) / 1e9, u.get("state").asText(), u.path("chunksPlanned").asInt(),
                        u.path("chunks").asInt(), status.get("total").asLong());
            }
            Thread.sleep(500);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Thread.sleep(SETTLE.toMillis()); // the plan queue's event source deletes its last message
        Usage used = metering.snapshot().minus(before);
        long total = status.get("total").asLong();
        long duplicates = status.get("duplicates").asLong();
        long parked = frontierEntries(aws, resources);
        long heapMax = Runtime.getRuntime().maxMemory();

        System.out.printf(Locale.ROOT, "planned %,d lines in %.1f s (upload PUT %.1f s): %,.0f lines/s over %d chunks%n",
                manifest.lines(), seconds, uploadSeconds, manifest.lines() / seconds,
                status.get("upload").get("chunks").asInt());
        System.out.printf(Locale.ROOT, "items %,d (expected %,d), duplicates %,d (expected %,d), invalid %,d (expected"
                + " %,d), frontier entries %,d (expected %,d)%n", total, manifest.distinct() + manifest.invalid(),
                duplicates, manifest.duplicates(), status.get("counts").get("invalid").asLong(), manifest.invalid(),
                parked, manifest.distinct());
        System.out.printf(Locale.ROOT, "peak heap live after a collection %,d MiB of a %,d MiB maximum (whole"
                + " JVM, emulators included)%n", peakHeap >> 20, heapMax >> 20);
        boolean exact = total == manifest.distinct() + manifest.invalid() && duplicates == manifest.duplicates()
                && parked == manifest.distinct()
                && status.get("counts").get("invalid").asLong() == manifest.invalid();
        System.out.println(exact ? "counts: exact" : "counts: WRONG");
        if (metering.bills()) {
            System.out.print(new CostReport("planning an uploaded manifest", used, manifest.distinct(), "planned URL",
                    AwsPrices.US_EAST_1, AwsPrices.Architecture.ARM64).render());
        }
        if (!exact) {
            System.exit(1);
        }
    }

    /**
     * One URL per line, spread round-robin over the sites. Every 20th line respells the URL of the line 7 back
     * (upper-case scheme and host, a fragment), and every 1,000th is not a URL, so dedup and rejection are exercised.
     * Written as it goes, so the harness's own memory does not grow with the manifest.
     */
    static Manifest write(Path file, long lines, int sites) throws IOException {
        long distinct = 0;
        long duplicates = 0;
        long invalid = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (long i = 0; i < lines; i++) {
                if (i % 1000 == 999) {
                    out.write("{\"href\": \"not a url line " + i + "\"}\n");
                    invalid++;
                } else if (i % 20 == 19 && (i - 7) % 1000 != 999 && (i - 7) % 20 != 19) {
                    out.write("\"HTTPS://SITE-" + ((i - 7) % sites) + ".EXAMPLE/item/" + (i - 7) + "#again\"\n");
                    duplicates++;
                } else {
                    out.write("\"https://site-" + (i % sites) + ".example/item/" + i + "\"\n");
                    distinct++;
                }
            }
        }
        return new Manifest(file, Files.size(file), lines, distinct, duplicates, invalid);
    }

    /** Pending plus released entries, summed over the site counters. */
    static long frontierEntries(EmbeddedAws aws, StackResources resources) {
        DynamoDbFrontierStore store = new DynamoDbFrontierStore(aws.dynamoDb(), resources.sitesTable());
        long sum = 0;
        for (SiteKey site : store.activeSites()) {
            sum += store.state(site).map(s -> s.pending() + s.released()).orElse(0);
        }
        return sum;
    }

    /** Heap in use right after the last collection: the live data, not the garbage awaiting collection. */
    static long heapUsed() {
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                used += pool.getCollectionUsage().getUsed();
            }
        }
        return used;
    }

    static JsonNode get(LocalSpiderling local, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(local.apiRequest(path).header(Metering.HARNESS_HEADER, "status poll")
                .GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + ": " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
