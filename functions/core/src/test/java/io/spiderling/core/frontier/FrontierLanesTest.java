package io.spiderling.core.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.politeness.Lanes;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryFrontierStore;
import io.spiderling.core.testing.RecordingFetchQueue;
import io.spiderling.core.testing.TestClock;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The depth cap follows a site's lanes: a site allowed more gets two jobs per message group in the queue. */
class FrontierLanesTest {

    private final InMemoryFrontierStore store = new InMemoryFrontierStore();
    private final RecordingFetchQueue queue = new RecordingFetchQueue(new CallLog());
    private final Lanes lanes = Lanes.of(RateLimiter.create(), RateOverrides.parse("fast.example 50"));
    private final Frontier frontier = new Frontier(store, queue, new TestClock(Instant.parse("2026-11-27T10:00:00Z")),
            new Frontier.Settings(10, Duration.ofSeconds(1), Duration.ofMinutes(15)).withLanes(lanes));

    @Test
    void park_whenSiteHasFiftyPlaces_releasesTwoPerLaneOfItsTwentyFiveAndOtherSitesTheCap() {
        frontier.park("b", urls("fast.example", 1_000));
        frontier.park("b", urls("slow.example", 1_000));

        List<FetchJob> sent = queue.sends().stream().flatMap(List::stream).toList();
        assertEquals(50, sent.stream().filter(j -> j.siteKey().value().equals("fast.example")).count(),
                "25 lanes x 2");
        assertEquals(10, sent.stream().filter(j -> j.siteKey().value().equals("slow.example")).count());
    }

    private static List<Hop> urls(String host, int n) {
        return IntStream.range(0, n).mapToObj(i -> Hop.of(NormalizedUrl.parse("https://" + host + "/p/" + i)))
                .toList();
    }
}
