package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class LocalSitesTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void start_whenThreeSites_servesEachOnItsOwnLoopbackHost() throws Exception {
        try (LocalSites sites = LocalSites.start(3)) {
            for (int i = 0; i < 3; i++) {
                sites.site(i).page("/p/1", "<html><head><title>Site " + i + "</title></head></html>");
            }

            for (int i = 0; i < 3; i++) {
                LocalSite site = sites.site(i);
                assertEquals("127.0.0." + (i + 2), site.host());
                assertEquals("http://127.0.0." + (i + 2) + ":" + site.port() + "/p/1", site.url("/p/1"));
                HttpResponse<String> response = get(site.url("/p/1"));
                assertEquals(200, response.statusCode());
                assertEquals("text/html; charset=utf-8", response.headers().firstValue("Content-Type").orElseThrow());
                assertEquals("<html><head><title>Site " + i + "</title></head></html>", response.body());
            }
        }
    }

    @Test
    void requests_whenPagesFetched_recordsHostPathHeadersAndClockTimeInArrivalOrder() throws Exception {
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        try (LocalSites sites = LocalSites.start(2, new TickingClock(start, Duration.ofSeconds(1)))) {
            LocalSite a = sites.site(0);
            LocalSite b = sites.site(1);
            a.page("/", "<html></html>");

            get(a.url("/"));
            get(b.url("/missing?x=1"));
            get(a.url("/"));

            List<RecordedRequest> all = sites.allRequests();
            assertEquals(List.of("127.0.0.2 /", "127.0.0.3 /missing?x=1", "127.0.0.2 /"),
                    all.stream().map(r -> r.host() + " " + r.path()).toList());
            assertEquals(List.of(start, start.plusSeconds(1), start.plusSeconds(2)),
                    all.stream().map(RecordedRequest::receivedAt).toList());
            assertEquals("GET", all.getFirst().method());
            assertEquals(a.host() + ":" + a.port(), all.getFirst().header("host").orElseThrow());
            assertEquals(List.of(all.get(0), all.get(2)), a.requests());
            assertEquals(2, a.requestCount("/"));
            assertEquals(1, b.requestCount("/missing?x=1"));
        }
    }

    @Test
    void handle_whenPathUnknown_returns404AndRecordsTheRequest() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);

            HttpResponse<String> response = get(site.url("/nothing-here"));

            assertEquals(404, response.statusCode());
            assertEquals(1, site.requestCount("/nothing-here"));
        }
    }

    @Test
    void respond_whenStatusAndHeadersGiven_sendsThemAsIs() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.respond("/old", 301, "text/plain", new byte[0], Map.of("Location", site.url("/new")));
            site.respond("/gone", 410, "text/plain", "gone".getBytes(StandardCharsets.UTF_8));

            HttpResponse<String> moved = get(site.url("/old"));
            HttpResponse<String> gone = get(site.url("/gone"));

            assertEquals(301, moved.statusCode());
            assertEquals(site.url("/new"), moved.headers().firstValue("Location").orElseThrow());
            assertEquals(410, gone.statusCode());
            assertEquals("gone", gone.body());
        }
    }

    @Test
    void respond_whenPathHasAQuery_matchesThatQueryBeforeThePathAlone() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.page("/search", "any query");
            site.page("/search?q=spiders", "spiders");

            assertEquals("spiders", get(site.url("/search?q=spiders")).body());
            assertEquals("any query", get(site.url("/search?q=ants")).body());
        }
    }

    @Test
    void beforeResponding_whenSet_runsAfterRecordingAndBeforeTheAnswer() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.page("/slow", "<p>done</p>");
            List<Long> seenBeforeAnswer = new java.util.concurrent.CopyOnWriteArrayList<>();
            site.beforeResponding("/slow", () -> seenBeforeAnswer.add(site.requestCount("/slow")));

            HttpResponse<String> response = get(site.url("/slow"));

            assertEquals("<p>done</p>", response.body());
            assertEquals(List.of(1L), seenBeforeAnswer);
        }
    }

    @Test
    void demoSites_whenStarted_servesPagesWithDistinctTitlesAndDescriptions() throws Exception {
        try (LocalSites sites = LocalSites.demoSites(2, 3)) {
            String page = get(sites.site(1).url("/page/3")).body();

            assertTrue(page.contains("<title>Site 2, page 3</title>"), page);
            assertTrue(page.contains("<meta name=\"description\" content=\"About Site 2, page 3.\">"), page);
            assertEquals(200, get(sites.site(0).url("/page/1")).statusCode());
            assertEquals(404, get(sites.site(0).url("/page/4")).statusCode());
        }
    }

    @Test
    void cacheablePage_whenValidatorsMatch_answers304WithoutBodyAndOtherwiseThePage() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.cacheablePage("/a", "<p>a</p>", Instant.parse("2026-11-01T10:00:00Z"));
            HttpResponse<String> first = get(site.url("/a"));
            String etag = first.headers().firstValue("ETag").orElseThrow();

            assertEquals(200, first.statusCode());
            assertEquals("Sun, 1 Nov 2026 10:00:00 GMT", first.headers().firstValue("Last-Modified").orElseThrow());
            assertEquals(304, get(site.url("/a"), "If-None-Match", "\"x\", " + etag).statusCode());
            assertEquals("", get(site.url("/a"), "If-None-Match", etag).body());
            assertEquals(200, get(site.url("/a"), "If-None-Match", "\"other\"").statusCode());
            assertEquals(304, get(site.url("/a"), "If-Modified-Since", "Sun, 1 Nov 2026 10:00:00 GMT").statusCode());
            assertEquals(200, get(site.url("/a"), "If-Modified-Since", "Sun, 1 Nov 2026 09:59:59 GMT").statusCode());
        }
    }

    @Test
    void ignoreValidators_whenPathMatches_answersInFullDespiteAMatchingETag() throws Exception {
        try (LocalSites sites = LocalSites.start(1)) {
            LocalSite site = sites.site(0);
            site.cacheablePage("/odd", "<p>odd</p>", Instant.EPOCH).cacheablePage("/even", "<p>even</p>", Instant.EPOCH)
                    .ignoreValidators(path -> path.equals("/odd"));
            String oddTag = get(site.url("/odd")).headers().firstValue("ETag").orElseThrow();
            String evenTag = get(site.url("/even")).headers().firstValue("ETag").orElseThrow();

            HttpResponse<String> odd = get(site.url("/odd"), "If-None-Match", oddTag);

            assertEquals(200, odd.statusCode());
            assertEquals("<p>odd</p>", odd.body());
            assertEquals(304, get(site.url("/even"), "If-None-Match", evenTag).statusCode());
        }
    }

    @Test
    void latency_whenSet_stillServesTheWholeBodyWithItsLength() throws Exception {
        try (LocalSites sites = LocalSites.start(1).latency(SiteLatency.of(5, 10))) {
            String big = "x".repeat(100_000);
            sites.site(0).page("/big", big);

            HttpResponse<String> response = get(sites.site(0).url("/big"));

            assertEquals(big, response.body());
            assertEquals("100000", response.headers().firstValue("Content-Length").orElseThrow());
        }
    }

    @Test
    void start_whenCountOutOfRange_throwsIllegalArgumentException() {
        assertThrows(IllegalArgumentException.class, () -> LocalSites.start(0));
        assertThrows(IllegalArgumentException.class, () -> LocalSites.start(253 * 256 + 1));
    }

    @Test
    void address_whenPastTheFirst253_goesOnInTheNextBlockSkippingPoint0And1And255() {
        assertEquals("127.0.0.2", LocalSites.address(0));
        assertEquals("127.0.0.254", LocalSites.address(252));
        assertEquals("127.0.1.2", LocalSites.address(253));
        assertEquals("127.0.3.10", LocalSites.address(3 * 253 + 8));
    }

    @Test
    void start_when300Sites_servesTheLastOnItsOwnHostInTheSecondBlock() throws Exception {
        try (LocalSites sites = LocalSites.start(300)) {
            LocalSite last = sites.site(299);
            last.page("/p", "<html>last</html>");

            assertEquals("127.0.1.48", last.host());
            assertEquals("<html>last</html>", get(last.url("/p")).body());
            assertEquals(List.of("/p"), last.requests().stream().map(RecordedRequest::path).toList());
        }
    }

    @Test
    void streamRequests_whenSet_handsEachRequestToTheSinkInsteadOfKeepingIt() throws Exception {
        try (LocalSites sites = LocalSites.start(2)) {
            get(sites.site(0).url("/before"));
            List<RecordedRequest> streamed = new java.util.ArrayList<>();
            sites.streamRequests(streamed::add);

            get(sites.site(1).url("/a"));
            get(sites.site(0).url("/b"));

            assertEquals(List.of("/before"), sites.allRequests().stream().map(RecordedRequest::path).toList());
            assertEquals(List.of(sites.site(1).host() + " /a", sites.site(0).host() + " /b"),
                    streamed.stream().map(r -> r.host() + " " + r.path()).toList());
        }
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String url, String header, String value)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header(header, value).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Advances by a fixed step on every reading, so each request gets a distinct, predictable time. */
    private static final class TickingClock extends Clock {
        private final Instant start;
        private final Duration step;
        private final AtomicLong readings = new AtomicLong();

        TickingClock(Instant start, Duration step) {
            this.start = start;
            this.step = step;
        }

        @Override
        public Instant instant() {
            return start.plus(step.multipliedBy(readings.getAndIncrement()));
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
