package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.lambda.Handlers;
import io.spiderling.local.cost.AwsPrices;
import io.spiderling.local.cost.CostReport;
import io.spiderling.local.cost.Metering;
import io.spiderling.local.cost.Usage;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * {@code ./spiderling bench-upload --sitemap}: a batch that names one sitemap of N URLs, planned end to end on the
 * embedded stack, metered as {@link UploadBenchmark} meters an upload (see its javadoc), so the two compare per
 * planned URL.
 */
final class SitemapRun {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration SETTLE = Duration.ofSeconds(2);

    private SitemapRun() {}

    /** What the generated sitemap lists. */
    record Listed(byte[] xml, long entries, long distinct, long duplicates) {}

    /**
     * One URL of the site per entry; every 20th entry respells the URL of the entry 7 back (a fragment), so the
     * deduplication is exercised as in the upload's manifest.
     */
    static Listed sitemap(LocalSite site, long entries) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        long distinct = 0;
        long duplicates = 0;
        for (long i = 0; i < entries; i++) {
            if (i % 20 == 19 && (i - 7) % 20 != 19) {
                xml.append("<url><loc>").append(site.url("/item/" + (i - 7))).append("#again</loc></url>\n");
                duplicates++;
            } else {
                xml.append("<url><loc>").append(site.url("/item/" + i)).append("</loc></url>\n");
                distinct++;
            }
        }
        xml.append("</urlset>\n");
        return new Listed(xml.toString().getBytes(StandardCharsets.UTF_8), entries, distinct, duplicates);
    }

    static void measure(long entries, Metering metering) throws Exception {
        try (EmbeddedAws aws = EmbeddedAws.start(); LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            Listed listed = sitemap(site, entries);
            site.respond("/robots.txt", 200, "text/plain", "User-agent: *\nAllow: /\n".getBytes(StandardCharsets.UTF_8));
            site.respond("/sitemap.xml", 200, "application/xml", listed.xml());
            System.out.printf(Locale.ROOT, "sitemap: %,d entries, %,d bytes: %,d distinct URLs of one site, %,d"
                    + " respelled duplicates%n", listed.entries(), listed.xml().length, listed.distinct(),
                    listed.duplicates());
            StackResources resources = aws.provision("bench-sitemap");
            // No fetch poller: the harness hands the sitemap's job to the fetch function, and the pages stay queued.
            LocalSpiderling.Options options = new LocalSpiderling.Options(0, 0, Clock.systemUTC())
                    .withSweepEvery(Duration.ofMinutes(1)).withMetering(metering);
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, options)) {
                run(aws, resources, local, site, listed, metering);
            }
        }
    }

    private static void run(EmbeddedAws aws, StackResources resources, LocalSpiderling local, LocalSite site,
            Listed listed, Metering metering) throws Exception {
        Usage before = metering.snapshot();
        long start = System.nanoTime();
        String body = JSON.createObjectNode().set("sitemaps", JSON.createArrayNode().add(site.url("/sitemap.xml")))
                .toString();
        HttpResponse<String> created = HTTP.send(local.apiRequest("/batches")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() != 202) {
            throw new IllegalStateException("batch refused: " + created.statusCode() + " " + created.body());
        }
        String batchId = JSON.readTree(created.body()).get("batchId").asText();
        fetchTheSitemap(aws, resources, local, metering);
        double fetchedAt = (System.nanoTime() - start) / 1e9;
        while (!sitemapEnded(local, batchId)) {
            Thread.sleep(250);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Thread.sleep(SETTLE.toMillis()); // the plan queue's event source deletes its last message
        Usage used = metering.snapshot().minus(before);
        JsonNode status = UploadBenchmark.get(local, "/batches/" + batchId);
        long total = status.get("total").asLong();
        long duplicates = status.get("duplicates").asLong();
        long parked = UploadBenchmark.frontierEntries(aws, resources);
        System.out.printf(Locale.ROOT, "planned %,d entries in %.1f s (the sitemap fetched and cut in %.1f s)%n",
                listed.entries(), seconds, fetchedAt);
        System.out.printf(Locale.ROOT, "items %,d (expected %,d: the sitemap and its URLs), duplicates %,d (expected"
                + " %,d), frontier entries %,d (expected %,d)%n", total, 1 + listed.distinct(), duplicates,
                listed.duplicates(), parked, listed.distinct());
        boolean exact = total == 1 + listed.distinct() && duplicates == listed.duplicates()
                && parked == listed.distinct();
        System.out.println(exact ? "counts: exact" : "counts: WRONG");
        if (metering.bills()) {
            System.out.print(new CostReport("planning a sitemap", used, listed.distinct(), "planned URL",
                    AwsPrices.US_EAST_1, AwsPrices.Architecture.ARM64).render());
        }
        if (!exact) {
            System.exit(1);
        }
    }

    /**
     * Receives the sitemap's job from the fetch queue and hands it to the fetch function, as its event source would:
     * the one fetch of the run. Its receive and delete are the harness's here, two calls the event source makes on
     * AWS.
     */
    private static void fetchTheSitemap(EmbeddedAws aws, StackResources resources, LocalSpiderling local,
            Metering metering) {
        String queue = resources.fetchQueueUrl();
        List<Message> messages = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (messages.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the sitemap's fetch job never came");
            }
            messages = aws.sqs().receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(1).waitTimeSeconds(5)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
        }
        RequestHandler<SQSEvent, SQSBatchResponse> fetch = metering.handler(Catalog.function(FunctionNames.FETCH),
                Handlers.create(FunctionNames.FETCH, local.pipeline()));
        SQSBatchResponse answer = fetch.handleRequest(LocalEvents.sqs("arn:aws:sqs:" + LocalEvents.REGION
                + ":000000000000:" + queue.substring(queue.lastIndexOf('/') + 1), messages), null);
        if (!answer.getBatchItemFailures().isEmpty()) {
            throw new IllegalStateException("the fetch function failed the sitemap's job");
        }
        String receipt = messages.getFirst().receiptHandle();
        aws.sqs().deleteMessage(b -> b.queueUrl(queue).receiptHandle(receipt));
    }

    /** Whether the sitemap's item ended: the only item of the batch that can, since no page is fetched. */
    private static boolean sitemapEnded(LocalSpiderling local, String batchId) throws Exception {
        JsonNode ended = UploadBenchmark.get(local, "/batches/" + batchId + "/urls?state=fetched&limit=5");
        for (JsonNode item : ended.get("items")) {
            if ("sitemap".equals(item.path("kind").asText())) {
                System.out.println("sitemap item: " + item.get("reason").asText() + ", " + item.get("detail").asText());
                return true;
            }
        }
        JsonNode failed = UploadBenchmark.get(local, "/batches/" + batchId + "/urls?state=failed&limit=5");
        if (!failed.get("items").isEmpty()) {
            throw new IllegalStateException("the sitemap failed: " + failed);
        }
        return false;
    }
}
