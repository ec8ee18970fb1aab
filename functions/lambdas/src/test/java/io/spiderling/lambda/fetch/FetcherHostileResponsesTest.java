package io.spiderling.lambda.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Responses no server library would send, written byte by byte by a {@link RawSite}: headers without end, bodies
 * that drip, lengths that lie, chunk sizes beyond any body limit. Each must end in a clear outcome, with the
 * connection closed by the fetcher rather than read to the site's end.
 */
class FetcherHostileResponsesTest {

    private static final int CAP = 1 << 20;
    private static Vertx vertx;
    private static VertxPageFetcher fetcher;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        fetcher = new VertxPageFetcher(vertx, VertxPageFetcher.Settings.builder()
                .userAgent("spiderling/test (+https://example.org/bot)").connectTimeout(Duration.ofSeconds(2))
                .firstByteTimeout(Duration.ofSeconds(1)).totalTimeout(Duration.ofSeconds(3)).maxBodyBytes(CAP)
                .allowLoopback(true).build());
    }

    @AfterAll
    static void stop() {
        fetcher.close();
        vertx.close();
    }

    private static FetchResult.Failure failure(FetchResult result, FailureKind kind) {
        FetchResult.Failure failure = assertInstanceOf(FetchResult.Failure.class, result);
        assertEquals(kind, failure.kind(), failure.message());
        return failure;
    }

    @Test
    void fetch_whenHeadersRunToOneMebibyte_failsAndClosesTheConnection() throws Exception {
        try (RawSite site = RawSite.start(c -> {
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n");
            String filler = "a".repeat(1000);
            for (int i = 0; i < 1024; i++) {
                c.write("X-Filler-" + i + ": " + filler + "\r\n");
            }
            c.write("Content-Length: 2\r\n\r\nok");
        })) {
            FetchResult result = fetcher.fetch(FetchRequest.get(site.url("/big-head")));

            failure(result, FailureKind.IO);
            assertTrue(site.awaitClientClose(10), "the fetcher closed the connection before the site's last header");
        }
    }

    @Test
    void fetch_whenAHeaderLineNeverEnds_failsAndClosesTheConnection() throws Exception {
        byte[] more = "a".repeat(8192).getBytes(StandardCharsets.US_ASCII);
        try (RawSite site = RawSite.start(c -> {
            c.write("HTTP/1.1 200 OK\r\nX-Endless: ");
            while (true) {
                c.write(more);
            }
        })) {
            FetchResult result = fetcher.fetch(FetchRequest.get(site.url("/endless-head")));

            failure(result, FailureKind.IO);
            assertTrue(site.awaitClientClose(10), "the site writes until the fetcher hangs up");
            assertTrue(site.written() < 64L << 20, "written before the hang-up: " + site.written());
        }
    }

    @Test
    void fetch_whenBodyDripsFasterThanTheIdleTimeout_endsOnTheTotalDeadlineAndClosesTheConnection() throws Exception {
        try (RawSite site = RawSite.start(c -> {
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n");
            for (int i = 0; i < 100_000; i++) {
                c.write(new byte[] {'a'});
                Thread.sleep(200);
            }
        })) {
            FetchResult result = fetcher.fetch(FetchRequest.get(site.url("/drip")));

            boolean stillDripping = site.writing();
            FetchResult.Failure failure = failure(result, FailureKind.TIMEOUT);
            assertTrue(failure.message().startsWith("total timeout"), failure.message());
            assertTrue(stillDripping, "the site was still sending when the fetch ended");
            assertTrue(site.awaitClientClose(10), "the fetcher closed the connection instead of reading on");
        }
    }

    @Test
    void fetch_whenStatusLineDrips_endsWhileTheSiteStillSendsAndClosesTheConnection() throws Exception {
        try (RawSite site = RawSite.start(c -> {
            for (byte b : "HTTP/1.1 200 OK\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII)) {
                c.write(new byte[] {b});
                Thread.sleep(200);
            }
            while (true) {
                c.write(new byte[] {'z'});
                Thread.sleep(200);
            }
        })) {
            FetchResult result = fetcher.fetch(FetchRequest.get(site.url("/drip-head")));

            boolean stillDripping = site.writing();
            failure(result, FailureKind.TIMEOUT);
            assertTrue(stillDripping, "the site was still sending when the fetch ended");
            assertTrue(site.awaitClientClose(10), "the fetcher closed the connection");
        }
    }

    @Test
    void fetch_whenContentLengthPromisesMoreThanSent_failsRatherThanKeepingAShortBody() throws Exception {
        try (RawSite site = RawSite.start(c -> {
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\nonly ten b");
            c.hangUp();
        })) {
            FetchResult result = fetcher.fetch(FetchRequest.get(site.url("/short")));

            failure(result, FailureKind.IO);
        }
    }

    /**
     * A body longer than its Content-Length whose surplus is a whole second response: a client that reused the
     * connection would take the surplus as the answer to its next request (response splitting).
     */
    @Test
    void fetch_whenContentLengthPromisesLessThanSent_keepsTheDeclaredBodyAndClosesTheConnection() throws Exception {
        try (RawSite site = RawSite.start(c -> {
            String smuggled = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 8\r\n\r\nsmuggled";
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello" + smuggled);
        })) {
            FetchResult.Response first = assertInstanceOf(FetchResult.Response.class,
                    fetcher.fetch(FetchRequest.get(site.url("/first"))));
            // The surplus is an answer to no request: the client drops the connection holding it. A request sent in
            // the moment between the first answer and that (never, on one site, with its rate between them) would be
            // read against the surplus, so the test waits for the close instead of racing it.
            assertTrue(site.awaitClientClose(10), "the client closed the connection holding the surplus");
            FetchResult second = fetcher.fetch(FetchRequest.get(site.url("/second")));

            assertEquals("hello", new String(first.body(), StandardCharsets.US_ASCII));
            switch (second) {
                // a fresh connection, and the site's answer to the second request
                case FetchResult.Response r -> assertEquals("hello", new String(r.body(), StandardCharsets.US_ASCII));
                // the pooled connection, which the client closed on finding the surplus: a transport failure
                case FetchResult.Failure f -> assertEquals(FailureKind.IO, f.kind(), f.message());
            }
        }
    }

    @Test
    void fetch_whenContentLengthHeadersDisagree_fails() throws Exception {
        try (RawSite site = RawSite.start(c -> c.write(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\nhello"))) {
            failure(fetcher.fetch(FetchRequest.get(site.url("/two-lengths"))), FailureKind.IO);
        }
    }

    /** Transfer-Encoding overrides Content-Length (RFC 9112 6.3): the body is the chunked one, whole. */
    @Test
    void fetch_whenBothContentLengthAndChunkedAreSent_readsTheChunkedBody() throws Exception {
        try (RawSite site = RawSite.start(c -> c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\na\r\n0123456789\r\n0\r\n\r\n"))) {
            FetchResult result = fetcher.fetch(FetchRequest.get(site.url("/both")));

            switch (result) {
                case FetchResult.Response r -> assertEquals("0123456789", new String(r.body(),
                        StandardCharsets.US_ASCII));
                case FetchResult.Failure f -> assertEquals(FailureKind.IO, f.kind(), f.message());
            }
        }
    }

    @Test
    void fetch_whenTheAnswerIsNotHttp_failsAndClosesTheConnection() throws Exception {
        try (RawSite site = RawSite.start(c -> c.write("SSH-2.0-OpenSSH_9.6\r\n\r\n" + "x".repeat(100)))) {
            failure(fetcher.fetch(FetchRequest.get(site.url("/not-http"))), FailureKind.IO);

            assertTrue(site.awaitClientClose(10), "the fetcher closed the connection");
        }
    }

    @Test
    void fetch_whenChunkSizeOverflows_failsAndClosesTheConnection() throws Exception {
        try (RawSite site = RawSite.start(c -> {
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n");
            c.write("FFFFFFFFFFFFFFFFFFFF\r\n");
            byte[] more = new byte[8192];
            while (true) {
                c.write(more);
            }
        })) {
            FetchResult result = fetcher.fetch(FetchRequest.get(site.url("/overflow")));

            failure(result, FailureKind.IO);
            assertTrue(site.awaitClientClose(10), "the fetcher closed the connection");
        }
    }

    @Test
    void fetch_whenOneChunkIsLargerThanTheBodyLimit_keepsTheLimitAndClosesTheConnection() throws Exception {
        byte[] more = new byte[8192];
        Arrays.fill(more, (byte) 'c');
        try (RawSite site = RawSite.start(c -> {
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n");
            c.write("7fffffff\r\n");
            while (true) {
                c.write(more);
            }
        })) {
            FetchResult.Response response = assertInstanceOf(FetchResult.Response.class,
                    fetcher.fetch(FetchRequest.get(site.url("/huge-chunk"))));

            assertEquals(CAP, response.body().length);
            assertTrue(response.truncated());
            byte[] expected = new byte[CAP];
            Arrays.fill(expected, (byte) 'c');
            assertArrayEquals(expected, response.body());
            assertTrue(site.awaitClientClose(10), "the fetcher closed the connection at the limit");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"deflate-zlib", "deflate-raw", "gzip"})
    void fetch_whenBodyIsACompressionBomb_refusesItAsABombAndClosesTheConnection(String coding) throws Exception {
        byte[] bomb = compress(coding, new byte[64 << 20]); // 64 MiB of zeros in about 64 KiB
        try (RawSite site = RawSite.start(c -> {
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: " + coding.replaceFirst("-.*", "")
                    + "\r\nContent-Length: " + bomb.length + "\r\n\r\n");
            c.write(bomb);
        })) {
            FetchResult.Failure failure = failure(fetcher.fetch(FetchRequest.get(site.url("/bomb"))),
                    FailureKind.BLOCKED);

            assertTrue(failure.message().startsWith("decompression ratio above 100"), failure.message());
            assertTrue(site.awaitClientClose(10), "the fetcher closed the connection");
        }
    }

    /** Text compressing about 7:1, so no ratio guard fires: the limit alone, counted in decoded bytes, stops it. */
    @Test
    void fetch_whenDecodedBodyOutgrowsTheLimit_keepsTheFirstLimitBytesDecoded() throws Exception {
        byte[] text = new byte[4 * CAP];
        java.util.Random random = new java.util.Random(13);
        for (int i = 0; i < text.length; i++) {
            text[i] = (byte) ('a' + random.nextInt(2));
        }
        byte[] gzip = compress("gzip", text);
        try (RawSite site = RawSite.start(c -> {
            c.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: "
                    + gzip.length + "\r\n\r\n");
            c.write(gzip);
        })) {
            FetchResult.Response response = assertInstanceOf(FetchResult.Response.class,
                    fetcher.fetch(FetchRequest.get(site.url("/big-text"))));

            assertTrue(gzip.length < CAP, "fewer wire bytes than the limit: " + gzip.length);
            assertTrue(response.truncated());
            assertArrayEquals(Arrays.copyOf(text, CAP), response.body());
        }
    }

    private static byte[] compress(String coding, byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = switch (coding) {
            case "gzip" -> new GZIPOutputStream(out);
            case "deflate-zlib" -> new DeflaterOutputStream(out, new Deflater(Deflater.BEST_COMPRESSION));
            case "deflate-raw" -> new DeflaterOutputStream(out, new Deflater(Deflater.BEST_COMPRESSION, true));
            default -> throw new IllegalArgumentException(coding);
        }) {
            z.write(data);
        }
        return out.toByteArray();
    }
}
