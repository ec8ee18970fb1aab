package io.spiderling.local;

import static io.spiderling.local.LocalApi.awaitDone;
import static io.spiderling.local.LocalApi.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.fetch.CaptureFormat;
import io.spiderling.local.warc.WarcExport;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.HttpMessage;
import org.netpreserve.jwarc.HttpRequest;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.Warcinfo;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Issue 12's "WARC that is true", end to end: pages served by a real local site (one gzip-encoded and chunked, one
 * answering 304 on a recrawl, two with identical bodies) are fetched by the pipeline with capture asked per batch,
 * exported with {@link WarcExport}, and read back record by record with jwarc. Every record is held to what the site
 * received and sent, and every digest is recomputed. Signing is on, so the request records must also hold the Web Bot
 * Auth headers (ADR 21) as the site received them.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class WarcEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String ETAG = "\"v1\"";
    private static final String SIGNATURE_AGENT =
            "https://bot.example/.well-known/http-message-signatures-directory";

    @Test
    void export_whenPagesWereCaptured_writesRecordsThatHoldWhatWentOverTheWire(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        // Signing on (ADR 21): the request records must hold the signature headers exactly as sent.
        Path keys = java.nio.file.Files.writeString(dir.resolve("signing-keys.json"), io.spiderling.core.signing
                .KeyRing.withKey(Optional.empty(), io.spiderling.core.signing.KeyRing.newPrivateJwk(Optional.empty(),
                        Optional.empty())));
        try (LocalSites sites = LocalSites.start(1);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, 10).toString())
                                .withConfig("spiderling.signing.enabled", "true")
                                .withConfig("spiderling.signing.agent", SIGNATURE_AGENT)
                                .withConfig("spiderling.signing.keys-file", keys.toString()))) {
            LocalSite site = sites.site(0);
            Map<String, List<Headers>> sent = new ConcurrentHashMap<>();
            byte[] gzip = gzip("<html><title>compressed</title></html>");
            site.serve("/gz", exchange -> {
                exchange.getResponseHeaders().add("Content-Type", "text/html");
                exchange.getResponseHeaders().add("Content-Encoding", "gzip");
                exchange.sendResponseHeaders(200, 0); // chunked
                record(sent, "/gz", exchange.getResponseHeaders());
                exchange.getResponseBody().write(gzip);
            });
            byte[] same = "<html><title>twin</title></html>".getBytes(StandardCharsets.UTF_8);
            for (String path : List.of("/same-a", "/same-b", "/plain")) {
                site.serve(path, exchange -> {
                    exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                    exchange.sendResponseHeaders(200, same.length);
                    record(sent, path, exchange.getResponseHeaders());
                    exchange.getResponseBody().write(same);
                });
            }
            byte[] cond = "<html><title>stable</title></html>".getBytes(StandardCharsets.UTF_8);
            site.serve("/cond", exchange -> {
                exchange.getResponseHeaders().add("ETag", ETAG);
                if (ETAG.equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
                    exchange.sendResponseHeaders(304, -1);
                    record(sent, "/cond", exchange.getResponseHeaders());
                    return;
                }
                exchange.getResponseHeaders().add("Content-Type", "text/html");
                exchange.sendResponseHeaders(200, cond.length);
                record(sent, "/cond", exchange.getResponseHeaders());
                exchange.getResponseBody().write(cond);
            });

            // Without capture: no capture is recorded, and the export skips the URL.
            run(local, "{\"urls\":[\"" + site.url("/plain") + "\"]}");
            run(local, "{\"urls\":[\"" + site.url("/gz") + "\",\"" + site.url("/same-a") + "\",\""
                    + site.url("/same-b") + "\",\"" + site.url("/cond") + "\"],\"capture\":true}");
            JsonNode condFirst = url(local, site.url("/cond"));
            run(local, "{\"urls\":[\"" + site.url("/cond") + "\"],\"capture\":true,\"recrawlAfter\":\"PT0S\"}");
            JsonNode condAgain = url(local, site.url("/cond"));
            assertEquals("not-modified", condAgain.get("state").asText(), condAgain.toString());

            JsonNode plain = url(local, site.url("/plain"));
            assertFalse(plain.has("capture"), plain.toString());
            JsonNode gz = url(local, site.url("/gz"));
            JsonNode capture = gz.get("capture");
            assertTrue(capture.get("key").asText().matches("capture/[0-9a-f]{2}/[0-9a-f]{64}"), capture.toString());
            assertEquals(site.url("/gz"), capture.get("targetUri").asText());
            assertEquals(site.host(), capture.get("remoteIp").asText());
            assertEquals(Hashing.warcSha1(gzip), capture.get("payloadDigest").asText());
            assertEquals(condFirst.at("/capture/capturedAt").asText(), condAgain.at("/capture/refersToAt").asText());

            List<JsonNode> exported = List.of(plain, gz, url(local, site.url("/same-a")),
                    url(local, site.url("/same-b")), condFirst, condAgain);
            Path warc = dir.resolve("batch.warc.gz");
            WarcExport.Summary summary;
            try (WarcExport export = WarcExport.create(warc, key -> object(aws, resources, key))) {
                for (JsonNode record : exported) {
                    export.add(record);
                }
                summary = export.summary();
            }
            assertEquals(5, summary.requests());
            assertEquals(3, summary.responses());
            assertEquals(2, summary.revisits());
            assertEquals(1, summary.skipped(WarcExport.SkipReason.NO_CAPTURE));

            List<WarcRecord> records = new ArrayList<>();
            List<Long> offsets = new ArrayList<>();
            Map<URI, byte[]> blocks = new TreeMap<>();
            try (WarcReader reader = new WarcReader(warc)) {
                for (Optional<WarcRecord> next = reader.next(); next.isPresent(); next = reader.next()) {
                    WarcRecord record = next.get();
                    offsets.add(reader.position()); // where the record's gzip member starts
                    byte[] block = record.body().stream().readAllBytes();
                    blocks.put(record.id(), block);
                    assertEquals(MessageVersion.WARC_1_1, record.version(), record.toString());
                    assertTrue(record.blockDigest().isPresent(), record.toString());
                    assertEquals(Hashing.warcSha1(block), "sha1:" + record.blockDigest().get().base32(),
                            "block digest of " + record);
                    records.add(record);
                }
            }
            List<String> types = records.stream().map(WarcRecord::type).toList();
            assertEquals(List.of("warcinfo", "request", "response", "request", "response", "request", "revisit",
                    "request", "response", "request", "revisit"), types);
            assertInstanceOf(Warcinfo.class, records.getFirst());
            // One gzip member per record: a reader started at any record's offset reads that record.
            for (int i = 0; i < records.size(); i++) {
                try (FileChannel channel = FileChannel.open(warc)) {
                    channel.position(offsets.get(i));
                    try (WarcReader alone = new WarcReader(channel)) {
                        assertEquals(records.get(i).id(), alone.next().orElseThrow().id());
                    }
                }
            }

            List<String> paths = List.of("/gz", "/same-a", "/same-b", "/cond", "/cond");
            List<RecordedRequest> received = site.requests().stream()
                    .filter(r -> !r.path().equals("/robots.txt") && !r.path().equals("/plain")).toList();
            assertEquals(5, received.size(), received.toString());
            Map<String, Integer> seen = new TreeMap<>();
            for (int i = 0; i < paths.size(); i++) {
                String path = paths.get(i);
                int nth = seen.merge(path, 1, Integer::sum) - 1;
                WarcRequest request = (WarcRequest) records.get(1 + 2 * i);
                WarcCaptureRecord second = (WarcCaptureRecord) records.get(2 + 2 * i);
                JsonNode row = exported.get(1 + i);
                for (WarcCaptureRecord r : List.of(request, second)) {
                    assertEquals(site.url(path), r.target(), r.toString());
                    assertEquals(site.host(), r.ipAddress().orElseThrow().getHostAddress(), r.toString());
                    assertEquals(Instant.parse(row.at("/capture/capturedAt").asText()), r.date(), r.toString());
                }
                assertEquals(List.of(second.id()), request.concurrentTo(), path);

                // The request as the site received it, every header.
                RecordedRequest got = received.stream().filter(r -> r.path().equals(path)).toList().get(nth);
                HttpRequest sentRequest = HttpRequest.parse(channel(blocks.get(request.id())));
                assertEquals("GET", sentRequest.method());
                assertEquals(path, sentRequest.target());
                assertEquals(got.headers(), caseless(sentRequest), "request headers of " + path);
                // Among them the Web Bot Auth headers, byte for byte: each request has its own nonce and signature.
                assertEquals(Optional.of("\"" + SIGNATURE_AGENT + "\""), sentRequest.headers().first("Signature-Agent"),
                        path);
                for (String header : List.of("Signature-Agent", "Signature-Input", "Signature")) {
                    assertTrue(got.header(header).isPresent(), path + " was sent " + header);
                    assertEquals(got.header(header), sentRequest.headers().first(header), header + " of " + path);
                }

                // The response as the site sent it: status, every header, and the payload as transferred.
                HttpResponse http = HttpResponse.parse(channel(blocks.get(second.id())));
                Headers siteSent = sent.get(path).get(nth);
                Map<String, List<String>> expected = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                siteSent.forEach((name, values) -> expected.put(name.equalsIgnoreCase("Transfer-Encoding")
                        ? CaptureFormat.ORIGINAL_TRANSFER_ENCODING : name, values));
                assertEquals(expected, caseless(http), "response headers of " + path);
                byte[] payload = http.body().stream().readAllBytes();
                if (second instanceof WarcResponse response) {
                    assertEquals(200, http.status());
                    byte[] expectedPayload = path.equals("/gz") ? gzip : path.equals("/cond") ? cond : same;
                    assertArrayEquals(expectedPayload, payload, path);
                    assertEquals(Hashing.warcSha1(payload),
                            "sha1:" + response.payloadDigest().orElseThrow().base32(), path);
                    byte[] block = blocks.get(response.id());
                    assertArrayEquals(payload, java.util.Arrays.copyOfRange(block, block.length - payload.length,
                            block.length), path);
                }
            }
            WarcRevisit twin = (WarcRevisit) records.get(6);
            assertEquals(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1, twin.profile());
            assertEquals(Optional.of(records.get(4).id()), twin.refersTo());
            assertEquals(Optional.of(URI.create(site.url("/same-a"))), twin.refersToTargetURI());
            assertEquals(Hashing.warcSha1(same), "sha1:" + twin.payloadDigest().orElseThrow().base32());
            assertEquals(200, HttpResponse.parse(channel(blocks.get(twin.id()))).status());
            WarcRevisit notModified = (WarcRevisit) records.get(10);
            assertEquals(WarcRevisit.SERVER_NOT_MODIFIED_1_1, notModified.profile());
            assertEquals(304, HttpResponse.parse(channel(blocks.get(notModified.id()))).status());
            assertEquals(Optional.of(records.get(8).date()), notModified.refersToDate());
            assertEquals(Optional.of(URI.create(site.url("/cond"))), notModified.refersToTargetURI());
            assertEquals("gzip", HttpResponse.parse(channel(blocks.get(records.get(2).id()))).headers()
                    .first("Content-Encoding").orElseThrow());
        }
    }

    private static void record(Map<String, List<Headers>> sent, String path, Headers headers) {
        Headers copy = new Headers();
        copy.putAll(headers);
        sent.computeIfAbsent(path, p -> java.util.Collections.synchronizedList(new ArrayList<>())).add(copy);
    }

    /** A record's block as a file channel: jwarc's HTTP parsers need to know where a message without a length ends. */
    private static FileChannel channel(byte[] bytes) throws java.io.IOException {
        Path file = java.nio.file.Files.createTempFile("block", ".http");
        java.nio.file.Files.write(file, bytes);
        file.toFile().deleteOnExit();
        return FileChannel.open(file);
    }

    private static Map<String, List<String>> caseless(HttpMessage http) {
        Map<String, List<String>> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        http.headers().map().forEach((name, values) -> m.merge(name, List.copyOf(values), (a, b) -> {
            List<String> all = new ArrayList<>(a);
            all.addAll(b);
            return all;
        }));
        return m;
    }

    private static Optional<byte[]> object(EmbeddedAws aws, StackResources resources, String key) {
        try {
            return Optional.of(aws.s3().getObjectAsBytes(b -> b.bucket(resources.bucket()).key(key)).asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private static void run(LocalSpiderling local, String body) throws Exception {
        java.net.http.HttpResponse<String> accepted = HTTP.send(LocalApi.request(local, "/batches")
                .header("content-type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(202, accepted.statusCode(), accepted.body());
        String batchId = JSON.readTree(accepted.body()).get("batchId").asText();
        JsonNode status = awaitDone(local, batchId, Duration.ofSeconds(60));
        assertTrue(status.get("done").asBoolean(), status.toString());
        local.awaitS3Events(Duration.ofSeconds(30));
    }

    private static JsonNode url(LocalSpiderling local, String url) throws Exception {
        return get(local, "/urls?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
    }

    private static byte[] gzip(String text) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
