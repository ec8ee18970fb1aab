package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The whole pipeline on the embedded stack against three local sites: a batch goes in through the sample
 * {@code POST /batches} event, and the test checks what the sites saw, what S3 and DynamoDB hold, and what
 * {@code GET /batches/{id}} reports.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class PipelineEndToEndTest {

    /** Read events the way the Lambda runtime does: unknown fields ignored, property case ignored. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(com.fasterxml.jackson.databind.MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES, true);
    private static final int SITES = 3;
    private static final int PAGES = 21;

    @Test
    void postBatches_whenSixtyPagesOnThreeHostsWithRespelledDuplicates_expectEachFetchedOnceStoredAndBatchDone(
            EmbeddedAws aws, StackResources resources) throws Exception {
        try (LocalSites sites = LocalSites.start(SITES);
                LocalSpiderling local = LocalSpiderling.start(aws, resources, fast(sites))) {
            Map<String, String> pages = new LinkedHashMap<>(); // normalized URL -> html
            List<String> submitted = new ArrayList<>();
            for (int s = 0; s < SITES; s++) {
                LocalSite site = sites.site(s);
                for (int p = 1; p <= PAGES; p++) {
                    String html = "<html><head><title>Host " + s + " page " + p + "</title></head><body>"
                            + "x".repeat(p * 100) + "</body></html>";
                    site.page("/p/" + p, html);
                    pages.put(site.url("/p/" + p), html);
                    submitted.add(site.url("/p/" + p));
                }
                // The same pages again, spelled differently: upper-case scheme, dot segments, a fragment.
                submitted.add("HTTP://" + site.host() + ":" + site.port() + "/p/1");
                submitted.add(site.url("/q/../p/2"));
                submitted.add(site.url("/p/3#section"));
            }
            LocalSite first = sites.site(0);
            submitted.add(first.url("/gone"));
            submitted.add("ftp://" + first.host() + "/p/1");

            APIGatewayV2HTTPEvent post = postBatches(submitted, "e2e-sixty-pages");
            JsonNode accepted = body(local.http(post), 202);
            assertEquals(accepted, body(local.http(post), 202), "a retry with the same Idempotency-Key is the same batch");
            assertEquals(SITES * PAGES + 1, accepted.get("accepted").asInt());
            assertEquals(SITES * 3, accepted.get("duplicates").asInt());
            assertEquals(1, accepted.get("rejected").size());
            String batchId = accepted.get("batchId").asText();

            JsonNode status = awaitDone(local, batchId, Duration.ofSeconds(120));
            assertTrue(local.awaitS3Events(Duration.ofSeconds(30)), "extraction did not finish");

            // GET /batches/{id}: every URL terminal, the batch done.
            assertTrue(status.get("done").asBoolean(), status.toString());
            assertEquals(0, status.at("/counts/queued").asInt());
            assertEquals(SITES * PAGES, status.at("/counts/fetched").asInt());
            assertEquals(1, status.at("/counts/failed").asInt());
            assertTrue(status.has("completedAt"));

            // What the sites saw: each distinct page exactly once, and nothing else but the missing page.
            Map<String, Long> perPath = sites.allRequests().stream()
                    .filter(PipelineEndToEndTest::page)
                    .collect(Collectors.groupingBy(r -> "http://" + r.host() + ":" + port(sites, r) + r.path(),
                            Collectors.counting()));
            pages.keySet().forEach(url -> assertEquals(1L, perPath.get(url), url));
            assertEquals(1L, perPath.get(first.url("/gone")));
            assertEquals(pages.size() + 1, perPath.size(), perPath.keySet().toString());

            // Bytes in S3 under their content hash, and the title in DynamoDB.
            var urls = new DynamoDbUrlStore(aws.dynamoDb(), resources.urlsTable());
            for (var page : pages.entrySet()) {
                String urlHash = NormalizedUrl.parse(page.getKey()).urlHash();
                byte[] stored = aws.s3().getObjectAsBytes(b -> b.bucket(resources.bucket())
                        .key(BucketKeys.content(io.spiderling.core.content.Hashing.sha256Hex(
                                page.getValue().getBytes(StandardCharsets.UTF_8))))).asByteArray();
                assertArrayEquals(page.getValue().getBytes(StandardCharsets.UTF_8), stored, page.getKey());
                var record = urls.find(urlHash).orElseThrow();
                String title = page.getValue().substring(page.getValue().indexOf("<title>") + 7,
                        page.getValue().indexOf("</title>"));
                assertEquals(title, record.extraction().orElseThrow().page().title(), page.getKey());
                assertEquals(200, record.fetch().orElseThrow().httpStatus().orElseThrow());
            }
        }
    }

    private static int port(LocalSites sites, RecordedRequest request) {
        return sites.sites().stream().filter(s -> s.host().equals(request.host())).findFirst().orElseThrow().port();
    }

    @Test
    void deleteBatch_whenCancelledWhileItsFirstPageIsBeingFetched_expectTheRestCancelledUnfetchedAndBatchDone(
            EmbeddedAws aws, StackResources resources) throws Exception {
        try (LocalSites sites = LocalSites.start(1);
                LocalSpiderling local = LocalSpiderling.start(aws, resources, fast(sites))) {
            LocalSite site = sites.site(0);
            List<String> urls = new ArrayList<>();
            for (int p = 1; p <= 30; p++) {
                site.page("/c/" + p, "<title>c" + p + "</title>");
                urls.add(site.url("/c/" + p));
            }
            // The client cancels while /c/1 is in flight. A site's pages go to two FIFO groups, so pages of the other
            // group may be fetched before or alongside /c/1; every page asked for before the cancellation is seen
            // finishes normally, and none is asked for after.
            CompletableFuture<String> batchId = new CompletableFuture<>();
            site.beforeResponding("/c/1", () -> {
                try {
                    ObjectNode delete = sample("api-delete-batch.json");
                    delete.put("rawPath", "/batches/" + batchId.get(30, TimeUnit.SECONDS));
                    assertEquals(202, local.http(JSON.treeToValue(delete, APIGatewayV2HTTPEvent.class)).getStatusCode());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            batchId.complete(body(local.http(postBatches(urls, "e2e-cancel")), 202).get("batchId").asText());
            JsonNode status = awaitDone(local, batchId.get(), Duration.ofSeconds(60));

            assertTrue(status.get("done").asBoolean(), status.toString());
            assertTrue(status.has("cancelledAt"));
            int fetched = status.at("/counts/fetched").asInt();
            assertTrue(fetched >= 1, "the page in flight finishes normally: " + status);
            assertEquals(30 - fetched, status.at("/counts/cancelled").asInt(), status.toString());
            assertEquals(fetched, site.requests().stream().filter(PipelineEndToEndTest::page).count(),
                    "no cancelled page was requested");
        }
    }

    @Test
    void postBatches_whenTwoBatchesShareUrlsSecondsApart_expectBothDoneEachSharedPageFetchedOnceAndALaterBatchSkipped(
            EmbeddedAws aws, StackResources resources) throws Exception {
        try (LocalSites sites = LocalSites.start(2);
                LocalSpiderling local = LocalSpiderling.start(aws, resources, fast(sites))) {
            LocalSite shared = sites.site(0);
            LocalSite own = sites.site(1);
            List<String> sharedUrls = new ArrayList<>();
            List<String> first = new ArrayList<>();
            List<String> second = new ArrayList<>();
            for (int p = 1; p <= 10; p++) {
                shared.page("/s/" + p, "<title>shared " + p + "</title>");
                sharedUrls.add(shared.url("/s/" + p));
            }
            for (int p = 1; p <= 5; p++) {
                own.page("/a/" + p, "<title>a " + p + "</title>");
                own.page("/b/" + p, "<title>b " + p + "</title>");
                first.add(own.url("/a/" + p));
                second.add(own.url("/b/" + p));
            }
            first.addAll(sharedUrls);
            second.addAll(sharedUrls.stream().map(u -> u + "#again").toList()); // the same pages, spelled differently
            // The first batch's fetch of /s/1 waits until the second batch has been planned, so the second batch
            // finds all ten shared pages claimed by the first.
            CompletableFuture<String> secondId = new CompletableFuture<>();
            shared.beforeResponding("/s/1", () -> {
                try {
                    secondId.get(30, TimeUnit.SECONDS);
                    local.awaitS3Events(Duration.ofSeconds(30));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            String firstId = body(local.http(postBatches(first, "e2e-share-1")), 202).get("batchId").asText();
            secondId.complete(body(local.http(postBatches(second, "e2e-share-2")), 202).get("batchId").asText());
            JsonNode one = awaitDone(local, firstId, Duration.ofSeconds(60));
            JsonNode two = awaitDone(local, secondId.get(), Duration.ofSeconds(60));

            assertEquals(15, one.at("/counts/fetched").asInt(), one.toString());
            assertEquals(15, two.at("/counts/fetched").asInt(), two.toString());
            for (int p = 1; p <= 10; p++) {
                assertEquals(1, shared.requestCount("/s/" + p), "/s/" + p);
            }

            String thirdId = body(local.http(postBatches(sharedUrls, "e2e-share-3")), 202).get("batchId").asText();
            JsonNode three = awaitDone(local, thirdId, Duration.ofSeconds(60));

            assertEquals(10, three.at("/counts/skipped").asInt(), "fetched minutes ago: fresh within the hour");
            assertEquals(10, shared.requests().stream().filter(PipelineEndToEndTest::page).count(),
                    "nothing fetched again");
        }
    }

    private static APIGatewayV2HTTPEvent postBatches(List<String> urls, String idempotencyKey) throws Exception {
        ObjectNode event = sample("api-post-batches.json");
        ((ObjectNode) event.get("headers")).put("idempotency-key", idempotencyKey);
        ArrayNode array = JSON.createArrayNode();
        urls.forEach(array::add);
        event.put("body", JSON.createObjectNode().set("urls", array).toString());
        return JSON.treeToValue(event, APIGatewayV2HTTPEvent.class);
    }

    private static JsonNode awaitDone(LocalSpiderling local, String batchId, Duration timeout) throws Exception {
        ObjectNode event = sample("api-get-batch.json");
        event.put("rawPath", "/batches/" + batchId);
        ((ObjectNode) event.at("/requestContext/http")).put("path", "/batches/" + batchId);
        APIGatewayV2HTTPEvent get = JSON.treeToValue(event, APIGatewayV2HTTPEvent.class);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode status = body(local.http(get), 200);
            // "done" follows from the counts; completedAt is written right after the last count, so wait for both.
            if ((status.get("done").asBoolean() && status.has("completedAt")) || System.nanoTime() > deadline) {
                return status;
            }
            Thread.sleep(200);
        }
    }

    private static JsonNode body(com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse response,
            int expectedStatus) throws Exception {
        assertEquals(expectedStatus, response.getStatusCode(), response.getBody());
        return JSON.readTree(response.getBody());
    }

    /**
     * The default options with the test sites at 10 requests per second (Aragog's rate for its own sites): these
     * tests are about the pipeline, and the default 1 per second would only make them slower.
     */
    static LocalSpiderling.Options fast(LocalSites sites) throws java.io.IOException {
        Path dir = Files.createTempDirectory("spiderling-rates");
        dir.toFile().deleteOnExit();
        Path file = sites.rateOverrides(dir, 10);
        file.toFile().deleteOnExit();
        return LocalApi.withSampleClients(LocalSpiderling.Options.defaults()).withConfig("spiderling.fetch.rate-overrides-file", file.toString());
    }

    /** A request for a page, not for robots.txt (which the fetch stage asks once per site before its pages). */
    static boolean page(io.spiderling.testkit.RecordedRequest request) {
        return !request.path().equals("/robots.txt");
    }

    /** The one copy of each sample event lives in the repository's events/ folder. */
    static ObjectNode sample(String name) throws Exception {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve("events").resolve(name);
            if (Files.exists(file)) {
                return (ObjectNode) JSON.readTree(Files.readString(file));
            }
        }
        throw new IllegalStateException("events/" + name + " not found");
    }
}
