package io.spiderling.local;

import static io.spiderling.local.LocalApi.awaitDone;
import static io.spiderling.local.LocalApi.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Six local sites whose robots.txt behave differently, one batch over all of them, and the sites' own request logs
 * as the witness: no disallowed path is ever requested, every allowed page exactly once, and no two requests to one
 * site closer than its interval (250 ms here, set through the rate overrides file) minus a tolerance of
 * {@value #TOLERANCE_MS} ms: the site's log is written by its own server thread, which two busy cores can schedule
 * tens of milliseconds after the request arrived, so the gap it records between two requests can be a little shorter
 * than the gap between their sending. The waits are
 * shortened by configuration (robots.txt retried after 1 s, a 429 pausing 1 s), not by special code.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class PoliteFetchEndToEndTest {

    private static final Duration INTERVAL = Duration.ofMillis(250);
    private static final long TOLERANCE_MS = 75;

    @Test
    void batch_whenSitesHaveDifferentRobots_expectOnlyAllowedPagesFetchedOnceAndNeverTooFast(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(6)) {
            Map<LocalSite, List<String>> allowed = new HashMap<>();
            Map<LocalSite, List<String>> disallowed = new HashMap<>();

            LocalSite none = sites.site(0); // robots.txt 404: everything allowed
            pages(none, allowed, "/a1", "/a2", "/a3");
            none.respond("/to-metadata", 302, "text/plain", new byte[0],
                    Map.of("Location", "http://169.254.169.254/latest/meta-data/"));

            LocalSite precedence = sites.site(1); // the longest match wins; Allow wins a tie
            robots(precedence, "User-agent: *\nDisallow: /private\nAllow: /private/open\n\n"
                    + "User-agent: spiderling\nDisallow: /private\nAllow: /private/open\nDisallow: /not-for-us\n");
            pages(precedence, allowed, "/public", "/private/open");
            pages(precedence, disallowed, "/private/secret", "/not-for-us");

            LocalSite recovers = sites.site(2); // robots.txt 503 twice, then rules
            AtomicInteger robotsAsked = new AtomicInteger();
            recovers.respond("/robots.txt", 503, "text/plain", new byte[0]);
            recovers.beforeResponding("/robots.txt", () -> {
                if (robotsAsked.incrementAndGet() == 3) {
                    robots(recovers, "User-agent: *\nDisallow: /no\n");
                }
            });
            pages(recovers, allowed, "/c1", "/c2");
            pages(recovers, disallowed, "/no");

            LocalSite wildcards = sites.site(3); // '$' anchors the end: the query string escapes it
            robots(wildcards, "User-agent: *\nDisallow: /*.pdf$\n");
            pages(wildcards, allowed, "/doc.pdf?download=1", "/page");
            pages(wildcards, disallowed, "/doc.pdf");

            LocalSite redirected = sites.site(4); // robots.txt redirects to the real rules
            redirected.respond("/robots.txt", 301, "text/plain", new byte[0], Map.of("Location", "/real-robots.txt"));
            redirected.respond("/real-robots.txt", 200, "text/plain",
                    "User-agent: *\nDisallow: /secret\n".getBytes(StandardCharsets.UTF_8));
            pages(redirected, allowed, "/e1");
            pages(redirected, disallowed, "/secret/x");

            LocalSite throttles = sites.site(5); // robots.txt 429 first: the rules are undefined, not allow-all
            AtomicInteger throttled = new AtomicInteger();
            throttles.respond("/robots.txt", 429, "text/plain", new byte[0], Map.of("Retry-After", "1"));
            throttles.beforeResponding("/robots.txt", () -> {
                if (throttled.incrementAndGet() == 2) {
                    throttles.respond("/robots.txt", 404, "text/plain", new byte[0]);
                }
            });
            pages(throttles, allowed, "/f1", "/f2");

            StringBuilder overrides = new StringBuilder();
            for (int s = 0; s < 6; s++) {
                overrides.append(sites.site(s).host()).append(' ').append(1000 / INTERVAL.toMillis()).append('\n');
            }
            Path overridesFile = Files.writeString(dir.resolve("rate-overrides.txt"), overrides);
            LocalSpiderling.Options options = LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                    .withConfig("spiderling.fetch.rate-overrides-file", overridesFile.toString())
                    .withConfig("spiderling.fetch.robots-retry-base", "1s")
                    .withConfig("spiderling.fetch.throttle-pause", "1s")
                    .withConfig("spiderling.fetch.retry-base", "1s");

            List<String> urls = new ArrayList<>();
            allowed.values().forEach(urls::addAll);
            disallowed.values().forEach(urls::addAll);
            urls.add(none.url("/to-metadata"));
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, options)) {
                String batchId = LocalApi.submit(local, urls);
                JsonNode status = awaitDone(local, batchId, Duration.ofSeconds(120));

                assertTrue(status.get("done").asBoolean(), status.toString());
                int allowedCount = allowed.values().stream().mapToInt(List::size).sum();
                int disallowedCount = disallowed.values().stream().mapToInt(List::size).sum();
                assertEquals(allowedCount, status.at("/counts/fetched").asInt(), status.toString());
                assertEquals(disallowedCount, status.at("/counts/disallowed").asInt(), status.toString());
                assertEquals(1, status.at("/counts/failed").asInt(), "the redirect to the metadata address");
                JsonNode failed = get(local, "/batches/" + batchId + "/urls?state=failed").get("items").get(0);
                assertEquals(none.url("/to-metadata"), failed.get("url").asText());
                assertTrue(failed.get("detail").asText().startsWith("blocked: link-local"), failed.toString());
                assertEquals("blocked", failed.get("reason").asText(), failed.toString());
                Map<String, String> refusals = new HashMap<>();
                get(local, "/batches/" + batchId + "/urls?state=disallowed").get("items").forEach(item -> {
                    assertEquals("robots-disallowed", item.get("reason").asText(), item.toString());
                    refusals.put(item.get("url").asText(), item.get("detail").asText());
                });
                // Each refusal names its rule and line, in the group for our agent, not the first line alike.
                String rules = "(line %d of " + precedence.url("/robots.txt") + ", HTTP 200, copy fetched ";
                assertTrue(refusals.get(precedence.url("/not-for-us")).startsWith("Disallow: /not-for-us "
                        + rules.formatted(8)), refusals.toString());
                assertTrue(refusals.get(precedence.url("/private/secret")).startsWith("Disallow: /private "
                        + rules.formatted(6)), refusals.toString());
                assertTrue(refusals.get(wildcards.url("/doc.pdf")).startsWith("Disallow: /*.pdf$ (line 2 of "
                        + wildcards.url("/robots.txt") + ", HTTP 200, copy fetched "), refusals.toString());
            }

            for (int s = 0; s < 6; s++) {
                LocalSite site = sites.site(s);
                List<RecordedRequest> log = site.requests();
                Map<String, Integer> pageRequests = new HashMap<>();
                log.forEach(r -> pageRequests.merge(r.path(), 1, Integer::sum));
                for (String url : disallowed.getOrDefault(site, List.of())) {
                    assertEquals(null, pageRequests.get(path(site, url)), "disallowed but requested: " + url);
                }
                for (String url : allowed.getOrDefault(site, List.of())) {
                    assertEquals(1, pageRequests.getOrDefault(path(site, url), 0), "requests of " + url);
                }
                for (int i = 1; i < log.size(); i++) {
                    Duration gap = Duration.between(log.get(i - 1).receivedAt(), log.get(i).receivedAt());
                    assertTrue(gap.toMillis() >= INTERVAL.toMillis() - TOLERANCE_MS, "site " + s + ": "
                            + log.get(i - 1).path() + " then " + log.get(i).path() + " only " + gap.toMillis()
                            + " ms apart");
                }
            }
            assertTrue(robotsAsked.get() >= 3, "the 503 robots.txt was asked again until it answered");
            assertTrue(throttled.get() >= 2, "the 429 robots.txt was asked again");
        }
    }

    private static void pages(LocalSite site, Map<LocalSite, List<String>> into, String... paths) {
        for (String path : paths) {
            site.page(path.replaceAll("\\?.*", ""), "<html><head><title>" + path + "</title></head></html>");
            into.computeIfAbsent(site, s -> new ArrayList<>()).add(site.url(path));
        }
    }

    private static void robots(LocalSite site, String rules) {
        site.respond("/robots.txt", 200, "text/plain", rules.getBytes(StandardCharsets.UTF_8));
    }

    private static String path(LocalSite site, String url) {
        return url.substring(site.baseUrl().length());
    }


}
