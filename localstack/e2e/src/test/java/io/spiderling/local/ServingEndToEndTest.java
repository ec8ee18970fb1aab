package io.spiderling.local;

import static io.spiderling.local.LocalApi.awaitDone;
import static io.spiderling.local.LocalApi.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.spiderling.aws.SqsNotifyQueue;
import io.spiderling.core.notify.WebhookSignature;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.SampleClients;
import io.spiderling.testkit.StackResources;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 5 end to end, on the local stack: what the extractor records for awkward pages, canonical and redirect
 * aliases, the serving API (batchGet, presigned content), application fields across a re-extraction, tenancy, and
 * the signed completion and progress webhooks as a local receiver gets them.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class ServingEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    /** One webhook delivery as the receiver saw it. */
    record Delivery(Instant at, Map<String, String> headers, byte[] body) {
        JsonNode json() throws Exception {
            return JSON.readTree(body);
        }
    }

    /** A webhook receiver on 127.0.0.1 that answers 503 to the first completion it gets, then 204. */
    static final class Receiver implements AutoCloseable {
        final List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());
        private final AtomicInteger completions = new AtomicInteger();
        private final HttpServer server;

        Receiver() throws Exception {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/hook", exchange -> {
                byte[] body = exchange.getRequestBody().readAllBytes();
                Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, v.getFirst()));
                deliveries.add(new Delivery(Instant.now(), headers, body));
                boolean completion = headers.getOrDefault(WebhookSignature.EVENT_ID_HEADER, "").endsWith(":completed");
                int status = completion && completions.getAndIncrement() == 0 ? 503 : 204;
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
        }

        List<Delivery> of(String type) throws Exception {
            List<Delivery> matching = new ArrayList<>();
            for (Delivery d : List.copyOf(deliveries)) {
                if (d.json().get("type").asText().equals(type)) {
                    matching.add(d);
                }
            }
            return matching;
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Test
    void batch_whenPagesAreAwkwardAndTheClientListens_expectRightMetadataAndSignedCallbacks(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(1);
                Receiver receiver = new Receiver();
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, 1).toString())
                                .withConfig("spiderling.links.enabled", "true"))) {
            List<JsonNode> events = new java.util.concurrent.CopyOnWriteArrayList<>();
            local.listen(event -> {
                try {
                    events.add(JSON.readTree(event));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            LocalSite site = sites.site(0);
            // charset only in the meta tag, bytes in latin1 (0x93/0x94 are windows-1252 curly quotes)
            site.respond("/latin1", 200, "text/html", ("<html><head><meta charset=\"iso-8859-1\">"
                    + "<title>Caf\u00e9 \u201cnoir\u201d</title></head><body><a href='/bom'>b</a></body></html>")
                    .getBytes(WINDOWS_1252));
            // a UTF-8 BOM, and a header that says otherwise
            byte[] utf8 = "<html><head><title>Gr\u00fc\u00dfe \u2014 BOM wins</title></head></html>"
                    .getBytes(StandardCharsets.UTF_8);
            byte[] bom = new byte[utf8.length + 3];
            bom[0] = (byte) 0xEF;
            bom[1] = (byte) 0xBB;
            bom[2] = (byte) 0xBF;
            System.arraycopy(utf8, 0, bom, 3, utf8.length);
            site.respond("/bom", 200, "text/html; charset=iso-8859-1", bom);
            // a page whose canonical link names another page of the site
            site.page("/product/7-red", "<html><head><title>Red shoe</title><link rel=canonical href=\""
                    + site.url("/shoes/7") + "\"><meta property=og:image content=/img/7.jpg></head>"
                    + "<body><a href='/latin1'>home</a></body></html>");
            for (int i = 0; i < 6; i++) {
                site.page("/filler/" + i, "<title>Filler " + i + "</title><a href='/latin1'>l</a>");
            }

            // A callback at the metadata endpoint is refused at submit, and nothing is created.
            HttpResponse<String> refused = post(local, "/batches", "{\"urls\":[\"" + site.url("/latin1")
                    + "\"],\"callbackUrl\":\"http://169.254.169.254/latest/meta-data/\"}", SampleClients.TOKEN_A);
            assertEquals(400, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("169.254.169.254"), refused.body());

            List<String> urls = new ArrayList<>(List.of(site.url("/latin1"), site.url("/bom"),
                    site.url("/product/7-red")));
            for (int i = 0; i < 6; i++) {
                urls.add(site.url("/filler/" + i));
            }
            ObjectNode body = JSON.createObjectNode().put("callbackUrl", receiver.url()).put("progressEvery", "PT2S");
            urls.forEach(body.putArray("urls")::add);
            HttpResponse<String> accepted = post(local, "/batches", body.toString(), SampleClients.TOKEN_A);
            assertEquals(202, accepted.statusCode(), accepted.body());
            String batchId = JSON.readTree(accepted.body()).get("batchId").asText();
            Instant submitted = Instant.now();

            // Tenancy: no credentials, and another client, learn nothing about the batch.
            assertEquals(401, send(local, "/batches/" + batchId, null).statusCode());
            assertEquals(404, send(local, "/batches/" + batchId, SampleClients.TOKEN_B).statusCode());

            JsonNode status = awaitDone(local, batchId, Duration.ofSeconds(120));
            assertEquals(urls.size(), status.at("/counts/fetched").asInt(), status.toString());
            local.awaitS3Events(Duration.ofSeconds(30));

            // The completion: refused once by the receiver (503), delivered on the retry, same event id both times,
            // each signed with client A's secret.
            List<Delivery> completions = await(receiver, "batch.completed", 2, Duration.ofSeconds(60));
            for (Delivery d : completions) {
                var verified = WebhookSignature.verify(d.headers(), d.body(), SampleClients.SECRET_A, Instant.now(),
                        Duration.ofMinutes(5));
                assertEquals(batchId + ":completed", assertInstanceOf(WebhookSignature.Verification.Valid.class,
                        verified).eventId());
                assertEquals(batchId + ":completed", d.json().get("eventId").asText());
                assertEquals(urls.size(), d.json().at("/counts/fetched").asInt());
            }
            JsonNode delivered = awaitCallback(local, batchId, "delivered");
            assertEquals(2, delivered.at("/callback/attempts").asInt(), delivered.toString());
            // The completion emitted again (a racing caller, a redelivered message): nothing more is posted.
            new SqsNotifyQueue(aws.sqs(), resources.notifyQueueUrl()).send(NotifyQueue.Message.completed(batchId),
                    Duration.ZERO);
            Thread.sleep(3000);
            assertEquals(2, receiver.of("batch.completed").size());

            // Progress: every 2 s from the batch's creation while it ran, each report once.
            List<Delivery> progress = receiver.of("batch.progress");
            // Ten requests at one a second take at least 9 s: reports 1 to 4 fall inside the run.
            assertTrue(progress.size() >= 3, "the batch ran for over 9 s: " + progress.size() + " reports");
            // In order, each once, none before its time; after a stall (a report handled late on a busy machine)
            // the next is the first still ahead, so a number may be skipped, never repeated (NotifyBatch). How late
            // a report arrives is the machine's: NotifyBatchTest checks the schedule on a scripted clock, and an
            // upper bound here failed CI with report 3 at 9.8 s against 9.
            long last = 0;
            for (Delivery report : progress) {
                String eventId = report.json().get("eventId").asText();
                assertTrue(eventId.startsWith(batchId + ":progress:"), eventId);
                long sequence = Long.parseLong(eventId.substring((batchId + ":progress:").length()));
                assertTrue(sequence > last, "report " + sequence + " after " + last);
                last = sequence;
                Duration sinceSubmit = Duration.between(submitted, report.at());
                assertTrue(sinceSubmit.compareTo(Duration.ofSeconds(2L * sequence).minusMillis(1500)) >= 0,
                        "report " + sequence + " at " + sinceSubmit + ", before its time");
            }

            // Listeners: a url.fetched event per fetched URL and a batch.completed event, on the events queue.
            for (int i = 0; i < 80 && events.size() < urls.size() + 1; i++) {
                Thread.sleep(250);
            }
            assertEquals(urls.size(), events.stream().filter(e -> e.get("type").asText().equals("url.fetched")
                    && e.get("batchIds").toString().contains(batchId)).count(), events.toString());
            assertEquals(1, events.stream().filter(e -> e.get("eventId").asText().equals(batchId + ":completed"))
                    .count());

            // Metadata: latin1 declared only in a meta tag; a BOM against its header; a canonical link elsewhere.
            JsonNode latin1 = url(local, site.url("/latin1"));
            assertEquals("Caf\u00e9 \u201cnoir\u201d", latin1.at("/metadata/title").asText());
            assertEquals("windows-1252", latin1.at("/metadata/encoding").asText());
            JsonNode withBom = url(local, site.url("/bom"));
            assertEquals("Gr\u00fc\u00dfe \u2014 BOM wins", withBom.at("/metadata/title").asText());
            JsonNode product = url(local, site.url("/product/7-red"));
            assertEquals(site.url("/shoes/7"), product.get("url").asText(), "the alias resolves");
            assertEquals("canonical", product.get("aliasReason").asText());
            assertEquals("Red shoe", product.at("/metadata/title").asText());
            assertEquals(site.url("/img/7.jpg"), product.at("/metadata/image").asText());

            // batchGet, and the bytes behind a presigned URL are the origin's bytes.
            HttpResponse<String> many = post(local, "/urls/batchGet", "{\"urls\":[\"" + site.url("/bom") + "\",\""
                    + site.url("/nowhere") + "\"]}", SampleClients.TOKEN_A);
            JsonNode results = JSON.readTree(many.body()).get("results");
            assertEquals("Gr\u00fc\u00dfe \u2014 BOM wins", results.get(0).at("/metadata/title").asText());
            assertEquals(404, results.get(1).get("status").asInt());
            JsonNode link = get(local, "/urls/content?url=" + encode(site.url("/bom")));
            HttpResponse<byte[]> content = HTTP.send(HttpRequest.newBuilder(URI.create(link.get("contentUrl")
                    .asText())).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertArrayEquals(bom, content.body());

            // Inlinks: the pages that link to /latin1.
            JsonNode inlinks = get(local, "/urls/inlinks?url=" + encode(site.url("/latin1")));
            assertTrue(inlinks.findValuesAsText("url").contains(site.url("/filler/3")), inlinks.toString());

            // Application fields survive a re-extraction of changed content.
            HttpResponse<String> patched = send(local, "/urls/fields?url=" + encode(site.url("/bom")),
                    SampleClients.TOKEN_A, "PATCH", "{\"search.rank\":3}");
            assertEquals(200, patched.statusCode(), patched.body());
            site.page("/bom", "<title>Second version</title>");
            HttpResponse<String> again = post(local, "/batches", "{\"urls\":[\"" + site.url("/bom")
                    + "\"],\"recrawlAfter\":\"PT0S\"}", SampleClients.TOKEN_A);
            awaitDone(local, JSON.readTree(again.body()).get("batchId").asText(), Duration.ofSeconds(60));
            local.awaitS3Events(Duration.ofSeconds(30));
            JsonNode refetched = url(local, site.url("/bom"));
            assertEquals("Second version", refetched.at("/metadata/title").asText());
            assertEquals(3, refetched.at("/fields/search.rank").asInt());
        }
    }

    private static JsonNode url(LocalSpiderling local, String url) throws Exception {
        return get(local, "/urls?url=" + encode(url));
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static List<Delivery> await(Receiver receiver, String type, int count, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (receiver.of(type).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        List<Delivery> got = receiver.of(type);
        assertEquals(count, got.size(), type + " deliveries");
        return got;
    }

    private static JsonNode awaitCallback(LocalSpiderling local, String batchId, String state) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            JsonNode status = get(local, "/batches/" + batchId);
            if (state.equals(status.at("/callback/state").asText()) || System.nanoTime() > deadline) {
                assertEquals(state, status.at("/callback/state").asText(), status.toString());
                return status;
            }
            Thread.sleep(200);
        }
    }

    private static HttpResponse<String> post(LocalSpiderling local, String path, String json, String token)
            throws Exception {
        return send(local, path, token, "POST", json);
    }

    private static HttpResponse<String> send(LocalSpiderling local, String path, String token) throws Exception {
        return send(local, path, token, "GET", null);
    }

    private static HttpResponse<String> send(LocalSpiderling local, String path, String token, String method,
            String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(local.apiUri().resolve(path))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json))
                .header("content-type", "application/json");
        if (token != null) {
            request.header("authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
