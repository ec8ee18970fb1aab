package io.spiderling.lambda.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.fetch.SendWindow;
import io.spiderling.lambda.internal.CheckedAddress;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The HTTP fetcher against real local sites: timeouts, the SSRF guard on addresses and redirects, conditional GET,
 * and bodies that are too big or too compressed. The 64 MiB body runs in the fork with a fixed 384 MB heap, with the
 * site serving it from the same heap, so a fetcher that held the whole body would show.
 */
@Tag("bounded-memory")
class VertxPageFetcherTest {

    private static final int CAP = 10 * 1024 * 1024;
    private static Vertx vertx;
    private static LocalSites sites;
    private static VertxPageFetcher fetcher;
    private static VertxPageFetcher strict;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        sites = LocalSites.start(1);
        fetcher = new VertxPageFetcher(vertx, settings(true));
        strict = new VertxPageFetcher(vertx, settings(false));
    }

    @AfterAll
    static void stop() {
        fetcher.close();
        strict.close();
        sites.close();
        vertx.close();
    }

    private static VertxPageFetcher.Settings settings(boolean allowLoopback) {
        return VertxPageFetcher.Settings.builder().userAgent("spiderling/test (+https://example.org/bot)")
                .connectTimeout(Duration.ofSeconds(2)).firstByteTimeout(Duration.ofSeconds(1))
                .totalTimeout(Duration.ofSeconds(5)).maxBodyBytes(CAP).allowLoopback(allowLoopback).build();
    }

    private static LocalSite site() {
        return sites.site(0);
    }

    @Test
    void fetch_whenServerNeverAnswers_timesOutWithoutHanging() {
        site().page("/hang", "late");
        site().beforeResponding("/hang", () -> sleep(Duration.ofSeconds(4)));

        long start = System.nanoTime();
        FetchResult result = fetcher.fetch(FetchRequest.get(site().url("/hang")));

        assertEquals(FailureKind.TIMEOUT, assertInstanceOf(FetchResult.Failure.class, result).kind(),
                result.toString());
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(3)) < 0,
                "gave up after the first-byte timeout, not the site's 4 s");
    }

    @Test
    void fetch_whenXRobotsTagComesInSeveralLines_joinsThemGenericLinesFirst() {
        site().serve("/directives", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.getResponseHeaders().add("X-Robots-Tag", "googlebot: noindex");
            exchange.getResponseHeaders().add("X-Robots-Tag", "noarchive");
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("ok".getBytes(StandardCharsets.UTF_8));
            exchange.close();
        });

        FetchResult.Response response = assertInstanceOf(FetchResult.Response.class,
                fetcher.fetch(FetchRequest.get(site().url("/directives"))));

        assertEquals("noarchive, googlebot: noindex", response.headers().get("x-robots-tag"));
        assertEquals("2", response.headers().get("content-length"), "a single-valued header as sent");
    }

    @Test
    void fetch_whenTheBodyStallsAfterTheHeaders_timesOutOnTheIdleTimeoutNotTheTotalOne() {
        site().serve("/stall", exchange -> {
            exchange.sendResponseHeaders(200, 4096);
            exchange.getResponseBody().write(new byte[512]);
            exchange.getResponseBody().flush();
            sleep(Duration.ofSeconds(6)); // longer than the 5 s total timeout
            exchange.close();
        });

        long start = System.nanoTime();
        FetchResult result = fetcher.fetch(FetchRequest.get(site().url("/stall")));

        FetchResult.Failure failure = assertInstanceOf(FetchResult.Failure.class, result);
        assertEquals(FailureKind.TIMEOUT, failure.kind(), result.toString());
        assertTrue(failure.message().startsWith("no data for"), failure.message());
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(4)) < 0,
                "gave up a second after the body went quiet, not at the 5 s total timeout");
    }

    @Test
    void fetch_whenTheDeadlinePassesBeforeTheRequestIsWritten_sendsNothingAndSaysLate() {
        site().page("/deadline", "x");
        Instant deadline = Instant.parse("2026-11-24T10:00:00Z");
        // On time when the fetch starts, a millisecond late once it has its connection: the check at the write is the
        // one that counts, since a busy fetcher can lose any amount of time in between.
        Clock slipping = new Clock() {
            private final AtomicInteger reads = new AtomicInteger();

            @Override
            public Instant instant() {
                return reads.getAndIncrement() == 0 ? deadline : deadline.plusMillis(1);
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }
        };
        try (VertxPageFetcher late = new VertxPageFetcher(vertx, settings(true), CheckedAddress::resolve, slipping)) {
            FetchResult result = late.fetch(FetchRequest.get(site().url("/deadline")).withSend(new SendWindow(deadline, deadline)));

            FetchResult.Failure failure = assertInstanceOf(FetchResult.Failure.class, result);
            assertEquals(FailureKind.LATE, failure.kind(), failure.message());
            assertEquals(0, site().requestCount("/deadline"), "the site never saw it");
        }
    }

    @Test
    void fetch_whenCalledBeforeItsWindowOpens_holdsTheRequestUntilThen() {
        site().page("/held", "x");
        Instant from = Instant.now().plusMillis(300);

        FetchResult result = fetcher.fetch(FetchRequest.get(site().url("/held"))
                .withSend(new SendWindow(from, from.plusSeconds(5))));

        assertEquals(200, assertInstanceOf(FetchResult.Response.class, result).status());
        Instant arrived = site().requests().stream().filter(r -> r.path().equals("/held")).findFirst().orElseThrow()
                .receivedAt();
        assertTrue(!arrived.isBefore(from), "arrived at " + arrived + ", its window opened at " + from);
    }

    @Test
    void fetch_whenWrittenBeforeItsDeadline_sendsIt() {
        site().page("/in-time", "x");
        Instant now = Instant.parse("2026-11-24T10:00:00Z");

        try (VertxPageFetcher onTime = new VertxPageFetcher(vertx, settings(true), CheckedAddress::resolve,
                Clock.fixed(now, ZoneOffset.UTC))) {
            FetchResult result = onTime.fetch(FetchRequest.get(site().url("/in-time")).withSend(new SendWindow(now, now)));

            assertEquals(200, assertInstanceOf(FetchResult.Response.class, result).status());
            assertEquals(1, site().requestCount("/in-time"));
        }
    }

    @Test
    void fetch_whenAddressIsTheMetadataService_refusesWithoutConnecting() {
        FetchResult result = fetcher.fetch(FetchRequest.get("http://169.254.169.254/latest/meta-data/"));

        FetchResult.Failure failure = assertInstanceOf(FetchResult.Failure.class, result);
        assertEquals(FailureKind.BLOCKED, failure.kind());
        assertTrue(failure.message().startsWith("link-local"), failure.message());
    }

    @Test
    void fetch_whenStrict_refusesLoopbackToo() {
        site().page("/local", "x");

        FetchResult result = strict.fetch(FetchRequest.get(site().url("/local")));

        assertEquals(FailureKind.BLOCKED, assertInstanceOf(FetchResult.Failure.class, result).kind());
        assertEquals(0, site().requestCount("/local"));
    }

    @Test
    void fetch_whenRedirectLeadsToAPrivateAddress_returnsTheRedirectAndRefusesTheHopAsAFetchOfItsOwn() {
        site().respond("/to-private", 302, "text/plain", new byte[0], Map.of("Location", "http://10.0.0.1/admin"));

        FetchResult redirect = fetcher.fetch(FetchRequest.get(site().url("/to-private")));
        FetchResult hop = fetcher.fetch(FetchRequest.get(
                assertInstanceOf(FetchResult.Response.class, redirect).headers().get("location")));

        assertEquals(302, ((FetchResult.Response) redirect).status(), "never followed by the fetcher");
        FetchResult.Failure failure = assertInstanceOf(FetchResult.Failure.class, hop);
        assertEquals(FailureKind.BLOCKED, failure.kind());
        assertTrue(failure.message().startsWith("private"), failure.message());
    }

    @Test
    void fetch_whenStoredEtagGiven_sendsIfNoneMatchAndTheUserAgent() {
        site().respond("/cached", 304, "text/html", new byte[0]);

        FetchResult result = fetcher.fetch(FetchRequest.conditional(site().url("/cached"), Optional.of("\"v1\""),
                Optional.of("Sat, 01 Mar 2025 10:00:00 GMT")));

        assertEquals(304, assertInstanceOf(FetchResult.Response.class, result).status());
        var request = site().requests().stream().filter(r -> r.path().equals("/cached")).toList().getLast();
        assertEquals(Optional.of("\"v1\""), request.header("if-none-match"));
        assertEquals(Optional.of("Sat, 01 Mar 2025 10:00:00 GMT"), request.header("if-modified-since"));
        assertEquals(Optional.of("spiderling/test (+https://example.org/bot)"), request.header("user-agent"));
    }

    @Test
    void fetch_whenBodyIs64MiB_keepsTheFirst10MiBAndFlagsIt() {
        byte[] huge = new byte[64 * 1024 * 1024];
        java.util.Arrays.fill(huge, (byte) 'a');
        site().respond("/huge", 200, "text/plain", huge);
        huge = null;

        FetchResult result = fetcher.fetch(FetchRequest.get(site().url("/huge")));

        FetchResult.Response response = assertInstanceOf(FetchResult.Response.class, result);
        assertEquals(CAP, response.body().length);
        assertTrue(response.truncated());
        site().respond("/huge", 410, "text/plain", new byte[0]); // let the heap have it back
    }

    @Test
    void fetch_whenTheRequestNamesALargerCapThanPages_keepsTheBodyUpToIt() {
        byte[] sitemap = new byte[CAP + 1024 * 1024];
        java.util.Arrays.fill(sitemap, (byte) 'a');
        site().respond("/sitemap.txt", 200, "text/plain", sitemap);

        FetchResult.Response page = assertInstanceOf(FetchResult.Response.class,
                fetcher.fetch(FetchRequest.get(site().url("/sitemap.txt"))));
        FetchResult.Response whole = assertInstanceOf(FetchResult.Response.class,
                fetcher.fetch(FetchRequest.get(site().url("/sitemap.txt")).withMaxBodyBytes(CAP * 2)));

        assertTrue(page.truncated(), "as a page, cut at the fetcher's cap");
        assertEquals(sitemap.length, whole.body().length);
        assertFalse(whole.truncated());
        site().respond("/sitemap.txt", 410, "text/plain", new byte[0]);
    }

    @Test
    void fetch_whenGzipBodyExpandsAboveTheRatio_refusesItAsABomb() throws Exception {
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bomb)) {
            byte[] zeros = new byte[1024 * 1024];
            for (int i = 0; i < 50; i++) {
                gzip.write(zeros);
            }
        }
        site().respond("/bomb", 200, "text/html", bomb.toByteArray(), Map.of("Content-Encoding", "gzip"));

        FetchResult result = fetcher.fetch(FetchRequest.get(site().url("/bomb")));

        FetchResult.Failure failure = assertInstanceOf(FetchResult.Failure.class, result);
        assertEquals(FailureKind.BLOCKED, failure.kind());
        assertTrue(failure.message().startsWith("decompression ratio"), failure.message());
    }

    @Test
    void fetch_whenGzipBodyIsOrdinary_decodesIt() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write("<title>compressed</title>".getBytes(StandardCharsets.UTF_8));
        }
        site().respond("/gz", 200, "text/html", zipped.toByteArray(), Map.of("Content-Encoding", "gzip"));

        FetchResult result = fetcher.fetch(FetchRequest.get(site().url("/gz")));

        assertEquals("<title>compressed</title>", new String(assertInstanceOf(FetchResult.Response.class, result)
                .body(), StandardCharsets.UTF_8));
    }

    /**
     * A captured exchange holds the request as the site received it (every header, Host included), the response
     * headers as the site sent them, and the payload as the gzip bytes sent; the chunked coding the client removed
     * shows only as the renamed header.
     */
    @Test
    void fetch_whenCaptureIsAskedOfAChunkedGzipPage_keepsTheWireBytes() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write("<title>captured</title>".getBytes(StandardCharsets.UTF_8));
        }
        java.util.concurrent.atomic.AtomicReference<com.sun.net.httpserver.Headers> sent =
                new java.util.concurrent.atomic.AtomicReference<>();
        site().serve("/capture", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.getResponseHeaders().add("Content-Encoding", "gzip");
            exchange.getResponseHeaders().add("X-Twice", "one");
            exchange.getResponseHeaders().add("X-Twice", "two");
            exchange.sendResponseHeaders(200, 0); // chunked
            sent.set(exchange.getResponseHeaders());
            exchange.getResponseBody().write(zipped.toByteArray());
        });

        FetchResult.Response r = assertInstanceOf(FetchResult.Response.class,
                fetcher.fetch(FetchRequest.get(site().url("/capture")).withCapture(true)));

        io.spiderling.core.fetch.WireExchange exchange = r.exchange().orElseThrow();
        assertEquals("<title>captured</title>", new String(r.body(), StandardCharsets.UTF_8));
        assertEquals(java.util.Arrays.toString(zipped.toByteArray()), java.util.Arrays.toString(exchange.payload()));
        assertEquals(site().host(), exchange.remoteIp());
        assertEquals("HTTP/1.1 200 OK", exchange.statusLine());
        String head = new String(exchange.request(), StandardCharsets.ISO_8859_1);
        assertTrue(head.startsWith("GET /capture HTTP/1.1\r\n"), head);
        var received = site().requests().getLast();
        java.util.Map<String, java.util.List<String>> headersSent = new java.util.TreeMap<>(
                String.CASE_INSENSITIVE_ORDER);
        head.lines().skip(1).filter(l -> !l.isEmpty()).forEach(l -> headersSent.computeIfAbsent(
                l.substring(0, l.indexOf(':')), k -> new java.util.ArrayList<>()).add(l.substring(l.indexOf(':') + 1)
                .strip()));
        assertEquals(received.headers(), headersSent, "the request head names what the site received");
        assertTrue(headersSent.containsKey("Host"), head);
        java.util.Map<String, java.util.List<String>> headersReceived = new java.util.TreeMap<>(
                String.CASE_INSENSITIVE_ORDER);
        exchange.responseHeaders().forEach(h -> headersReceived.computeIfAbsent(h.name(),
                k -> new java.util.ArrayList<>()).add(h.value()));
        java.util.Map<String, java.util.List<String>> siteSent = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        siteSent.putAll(sent.get());
        assertEquals(siteSent, headersReceived);
        assertEquals(java.util.List.of("chunked"), headersReceived.get("Transfer-Encoding"));
        String stored = new String(io.spiderling.core.fetch.CaptureFormat.encode(exchange),
                StandardCharsets.ISO_8859_1);
        assertTrue(stored.contains("\r\nX-Spiderling-Original-Transfer-Encoding: chunked\r\n"), stored);
        assertTrue(!stored.toLowerCase(java.util.Locale.ROOT).contains("\r\ntransfer-encoding:"), stored);
    }

    @Test
    void fetch_whenCaptureIsNotAsked_keepsNoExchange() {
        site().page("/plain", "<p>plain</p>");

        FetchResult.Response r = assertInstanceOf(FetchResult.Response.class,
                fetcher.fetch(FetchRequest.get(site().url("/plain"))));

        assertTrue(r.exchange().isEmpty());
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
