package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.aws.DynamoDbRateStore;
import io.spiderling.aws.DynamoDbRobotsStore;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A batch held up by two sites, one whose robots.txt answers 503 and one that answered 429 with Retry-After: while
 * it waits, {@code GET /batches/{id}} names both, with the reason and the time the stored state gives.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class WaitingEndToEndTest {


    @Test
    void getBatch_whileOneSitesRobotsFailsAndAnotherIsPaused_namesBothWithReasonAndTime(EmbeddedAws aws,
            StackResources resources) throws Exception {
        try (LocalSites sites = LocalSites.start(2)) {
            LocalSite unreachable = sites.site(0);
            unreachable.respond("/robots.txt", 503, "text/plain", new byte[0]);
            List.of("/a1", "/a2", "/a3").forEach(p -> unreachable.page(p, "<html><title>a</title></html>"));
            LocalSite throttling = sites.site(1);
            throttling.respond("/robots.txt", 404, "text/plain", new byte[0]);
            // Both answer 429: the site's two message groups may ask for them in either order, even side by side.
            throttling.respond("/b1", 429, "text/plain", new byte[0], Map.of("Retry-After", "120"));
            throttling.respond("/b2", 429, "text/plain", new byte[0], Map.of("Retry-After", "120"));
            List<String> urls = List.of(unreachable.url("/a1"), unreachable.url("/a2"), unreachable.url("/a3"),
                    throttling.url("/b1"), throttling.url("/b2"));

            try (LocalSpiderling local = LocalSpiderling.start(aws, resources,
                    LocalApi.withSampleClients(LocalSpiderling.Options.defaults()))) {
                Instant submitted = Instant.now();
                String batchId = LocalApi.submit(local, urls);

                // Until every URL is parked: one of /b1, /b2 may be in the fetch queue for a moment before the pause
                // sends it back.
                JsonNode status = awaitWaiting(local, batchId, urls.size(), Duration.ofSeconds(20));

                assertFalse(status.get("done").asBoolean(), status.toString());
                assertEquals(5, status.at("/counts/queued").asInt(), status.toString());
                Map<String, JsonNode> bySite = new HashMap<>();
                status.get("waiting").forEach(w -> bySite.put(w.get("site").asText(), w));
                assertEquals(0, status.get("waitingMore").asInt());

                JsonNode robots = bySite.get(unreachable.host());
                assertEquals("robots-unreachable", robots.get("reason").asText(), status.toString());
                assertEquals("robots.txt unreachable (503)", robots.get("detail").asText());
                assertEquals(3, robots.get("urls").asInt());
                RobotsOrigin origin = RobotsOrigin.of(unreachable.baseUrl());
                assertEquals(origin.value(), robots.get("origin").asText());
                Instant nextTry = new DynamoDbRobotsStore(aws.dynamoDb(), resources.sitesTable()).find(origin)
                        .orElseThrow().nextRetryAt().orElseThrow();
                assertEquals(nextTry, Instant.parse(robots.get("until").asText()), "the stored next try");
                assertTrue(nextTry.isAfter(submitted.plusSeconds(20)), "the default backoff is 30 to 60 s: " + nextTry);

                JsonNode paused = bySite.get(throttling.host());
                assertEquals("paused", paused.get("reason").asText(), status.toString());
                // Asked side by side, both answers pause the site, the second counted as a pause in a row.
                long answered429 = throttling.requestCount("/b1") + throttling.requestCount("/b2");
                assertEquals(answered429 > 1 ? "paused by 429 (Retry-After 120 s; 2 pauses in a row)"
                        : "paused by 429 (Retry-After 120 s)", paused.get("detail").asText(), "the stored cause");
                assertEquals("throttled", paused.get("cause").asText());
                assertEquals(429, paused.get("status").asInt());
                assertEquals(2, paused.get("urls").asInt(), "/b1 and /b2, whether asked or not yet");
                Instant pausedUntil = new DynamoDbRateStore(aws.dynamoDb(), resources.sitesTable(),
                        Clock.systemUTC()).find(new SiteKey(throttling.host())).orElseThrow().pausedUntil();
                assertEquals(pausedUntil, Instant.parse(paused.get("until").asText()), "the stored pause");
                // Retry-After: 120, less up to 20 % jitter.
                assertTrue(pausedUntil.isAfter(submitted.plusSeconds(90)), pausedUntil.toString());
                long asked = throttling.requestCount("/b1") + throttling.requestCount("/b2");
                assertTrue(asked >= 1 && throttling.requestCount("/b1") <= 1 && throttling.requestCount("/b2") <= 1,
                        "each asked at most once, the first 429 pausing the site: " + asked);
            }
        }
    }

    /** Polls the status until its waits hold {@code urls} URLs, or the timeout passes; returns the last status. */
    private static JsonNode awaitWaiting(LocalSpiderling local, String batchId, int urls, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode status = LocalApi.get(local, "/batches/" + batchId);
            int waiting = 0;
            for (JsonNode w : status.get("waiting")) {
                waiting += w.path("urls").asInt();
            }
            if (waiting >= urls || System.nanoTime() > deadline) {
                return status;
            }
            Thread.sleep(250);
        }
    }
}
