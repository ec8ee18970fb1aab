package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.testkit.FarmOutcomes.Expected;
import io.spiderling.testkit.HostileFarm.Role;
import io.spiderling.testkit.PolitenessReport.Answer;
import io.spiderling.testkit.PolitenessReport.Exchange;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The farm's sites answer as documented, and its log pairs each request with the answer it got. */
class HostileFarmSitesTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void start_whenBuilt_givesEverySiteItsOwnHostAndTenToThirtyUrls() {
        try (HostileFarm farm = HostileFarm.start()) {
            Map<String, Long> perHost = farm.urls().stream()
                    .collect(Collectors.groupingBy(url -> URI.create(url).getHost(), Collectors.counting()));

            assertEquals(Role.values().length, perHost.size());
            perHost.forEach((host, count) -> assertTrue(count >= 10 && count <= 30, host + ": " + count));
            for (Role role : Role.values()) {
                assertEquals("127.0.0." + (role.ordinal() + 2), farm.site(role).host());
            }
            assertEquals(10, farm.waiting().size());
            assertTrue(farm.waiting().stream().allMatch(url -> url.startsWith(
                    farm.site(Role.ROBOTS_UNREACHABLE).baseUrl())));
            assertEquals(Expected.DISALLOWED, farm.expected().get(farm.site(Role.RULES).url("/drafts/1")));
            // Two spellings of one key each for /q/1 and /q/2: two lines more than items.
            assertEquals(farm.expected().size() + 2, farm.urls().size());
            LocalSite query = farm.site(Role.QUERY_RULES);
            assertTrue(farm.urls().indexOf(query.url("/q/1" + HostileFarm.CLIENT_QUERY))
                    < farm.urls().indexOf(query.url("/q/1" + HostileFarm.SORTED_QUERY)), "disallowed spelling first");
            assertEquals(2, farm.followUps().size());
        }
    }

    @Test
    void exchanges_whenPathAnswersBySequence_pairsEachRequestWithItsAnswer() throws Exception {
        try (HostileFarm farm = HostileFarm.start()) {
            LocalSite failing = farm.site(Role.FAILING);

            List<Integer> statuses = List.of(get(failing.url("/flaky-503")), get(failing.url("/flaky-503")),
                    get(failing.url("/flaky-503")), get(failing.url("/flaky-503")));

            assertEquals(List.of(503, 503, 200, 200), statuses);
            assertEquals(List.of("503", "503", "200", "200"), farm.exchanges().stream()
                    .map(e -> e.answer().toString()).toList());
        }
    }

    @Test
    void serve_whenRobotsMovedAndThrottled_answersWithLocationAndRetryAfter() throws Exception {
        try (HostileFarm farm = HostileFarm.start()) {
            HttpResponse<String> robots = HTTP.send(request(farm.site(Role.ROBOTS_MOVED).url("/robots.txt")),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> throttled = HTTP.send(request(farm.site(Role.THROTTLING).url("/throttled")),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(301, robots.statusCode());
            assertEquals("/robots-moved.txt", robots.headers().firstValue("location").orElseThrow());
            assertEquals(429, throttled.statusCode());
            assertEquals("2", throttled.headers().firstValue("retry-after").orElseThrow());
            assertEquals(404, get(farm.site(Role.OPEN).url("/robots.txt")));
            assertEquals(503, get(farm.site(Role.ROBOTS_UNREACHABLE).url("/robots.txt")));
        }
    }

    @Test
    void serve_whenBigPage_streamsItsDeclaredLengthToAReaderThatStopsEarly() throws Exception {
        try (HostileFarm farm = HostileFarm.start()) {
            HttpResponse<InputStream> big = HTTP.send(request(farm.site(Role.OPEN).url("/big")),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = big.body()) {
                byte[] start = body.readNBytes(1 << 20);

                assertEquals(1 << 20, start.length);
                assertTrue(new String(start, 0, 64).startsWith("<!DOCTYPE html>"));
            }

            assertEquals(200, big.statusCode());
            assertEquals(HostileFarm.BIG_PAGE_BYTES, big.headers().firstValueAsLong("content-length").orElseThrow());
        }
    }

    @Test
    void serve_whenSilentPages_neverAnswersAndCloseStillReturns() throws Exception {
        try (HostileFarm farm = HostileFarm.start()) {
            LocalSite open = farm.site(Role.OPEN);

            assertThrows(HttpTimeoutException.class, () -> HTTP.send(HttpRequest.newBuilder(URI.create(
                    open.url("/hang"))).timeout(Duration.ofMillis(300)).build(), HttpResponse.BodyHandlers.ofString()));
            HttpResponse<InputStream> stalled = HTTP.send(request(open.url("/stall")),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = stalled.body()) {
                assertEquals(200, stalled.statusCode());
                assertEquals(4096, stalled.headers().firstValueAsLong("content-length").orElseThrow());
                assertEquals(512, body.readNBytes(512).length); // what it sends before going silent
            }

            assertEquals(List.of(Answer.NONE, Answer.stalled(200)), farm.exchanges().stream()
                    .map(Exchange::answer).toList());
        }
    }

    @Test
    void report_whenDisallowedPathAndRepeatedPage_findsThem(@TempDir Path dir) throws Exception {
        try (HostileFarm farm = HostileFarm.start()) {
            LocalSite rules = farm.site(Role.RULES);

            get(rules.url("/robots.txt"));
            get(rules.url("/page/1"));
            get(rules.url("/page/2"));
            get(rules.url("/page/2"));
            get(rules.url("/private/1"));
            PolitenessReport report = farm.report();

            assertEquals(List.of("/private/1"), report.robotsViolations().stream().map(v -> v.path()).toList());
            assertEquals(List.of("/page/2"), report.duplicates().stream().map(d -> d.path()).toList());
            assertEquals(5, report.load().get(rules.host()).requests());
            assertEquals(HostileFarm.REQUESTS_PER_SECOND, report.load().get(rules.host()).allowedPerSecond());
            List<String> overrides = Files.readAllLines(farm.rateOverrides(dir));
            assertEquals(Role.values().length, overrides.size());
            assertTrue(overrides.contains(farm.site(Role.SLOW_REDIRECTS).host() + " 1"), overrides.toString());
        }
    }

    private static HttpRequest request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build();
    }

    private static int get(String url) throws Exception {
        return HTTP.send(request(url), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
