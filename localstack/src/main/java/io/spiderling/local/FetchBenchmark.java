package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./spiderling bench-fetch}: the makespan of fetching N URLs spread over M local sites at q requests per
 * second each, against its lower bound {@code max_s (n_s − 1) / q} (a site's n requests need n − 1 intervals between
 * them), and the AWS requests per URL, counted by {@link RequestCounter} on every SDK client in the JVM.
 *
 * <p>The sites are local, so what remains is the politeness schedule plus the pipeline's own overhead: planning,
 * the frontier's releases, the FIFO queue's one-message-at-a-time per site, and DynamoDB Local on two cores.
 */
public final class FetchBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private FetchBenchmark() {}

    public static void main(String[] argv) throws Exception {
        int urls = 600;
        int siteCount = 6;
        int qps = 5;
        int pollers = 6;
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--urls" -> urls = Integer.parseInt(argv[++i]);
                case "--sites" -> siteCount = Integer.parseInt(argv[++i]);
                case "--qps" -> qps = Integer.parseInt(argv[++i]);
                case "--pollers" -> pollers = Integer.parseInt(argv[++i]);
                default -> {
                    System.err.println("Usage: ./spiderling bench-fetch [--urls N] [--sites M] [--qps Q] [--pollers P]");
                    System.exit(2);
                }
            }
        }
        Path dir = Files.createTempDirectory("spiderling-bench-fetch");
        try (EmbeddedAws aws = EmbeddedAws.start(); LocalSites sites = LocalSites.start(siteCount)) {
            StackResources resources = aws.provision("bench-fetch");
            var list = JSON.createArrayNode();
            Map<String, Integer> perSite = new HashMap<>();
            for (int i = 0; i < urls; i++) {
                LocalSite site = sites.site(i % siteCount);
                site.page("/item/" + i, "<html><head><title>item " + i + "</title></head><body>" + "x".repeat(2000)
                        + "</body></html>");
                list.add(site.url("/item/" + i));
                perSite.merge(site.host(), 1, Integer::sum);
            }
            Path rates = sites.rateOverrides(dir, qps);
            LocalSpiderling.Options options = new LocalSpiderling.Options(0, pollers, Clock.systemUTC())
                    .withConfig("spiderling.fetch.rate-overrides-file", rates.toString());
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, options)) {
                Map<String, Long> before = RequestCounter.snapshot();
                long start = System.nanoTime();
                HttpResponse<String> posted = HTTP.send(local.apiRequest("/batches")
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.createObjectNode().set("urls", list)
                                .toString())).build(), HttpResponse.BodyHandlers.ofString());
                String batchId = JSON.readTree(posted.body()).get("batchId").asText();
                JsonNode status;
                while (true) {
                    Thread.sleep(1000);
                    status = JSON.readTree(HTTP.send(local.apiRequest("/batches/"
                            + batchId).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
                    if (status.get("done").asBoolean() && status.has("completedAt")) {
                        break;
                    }
                }
                double makespan = (System.nanoTime() - start) / 1e9;
                local.awaitS3Events(Duration.ofMinutes(1)); // the extract events of the last pages
                Map<String, Long> after = RequestCounter.snapshot();
                int busiest = perSite.values().stream().mapToInt(Integer::intValue).max().orElse(0);
                double bound = (busiest - 1) / (double) qps;
                System.out.printf(Locale.ROOT, "%d URLs over %d sites at %d requests/s each, %d fetch pollers%n",
                        urls, siteCount, qps, pollers);
                System.out.printf(Locale.ROOT, "fetched %d; makespan %.1f s; lower bound max_s (n_s - 1)/q = %.1f s;"
                        + " ratio %.2f%n", status.at("/counts/fetched").asInt(), makespan, bound, makespan / bound);
                for (String service : new String[] {"DynamoDb", "Sqs", "S3"}) {
                    long calls = RequestCounter.total(after, service) - RequestCounter.total(before, service);
                    System.out.printf(Locale.ROOT, "%-8s %7d calls, %5.1f per URL%n", service, calls,
                            calls / (double) urls);
                }
                System.out.println("by operation (calls per URL):");
                int count = urls;
                after.forEach((op, n) -> {
                    long d = n - before.getOrDefault(op, 0L);
                    if (d > 0) {
                        System.out.printf(Locale.ROOT, "  %-40s %6.2f%n", op, d / (double) count);
                    }
                });
                System.out.println("(the harness's own status polls, one a second, are included)");
            }
        }
    }
}
