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

    @Test
    void park_whenSiteAllowedFiftyASecond_spreadsItsEntriesOverTenPartitionsAndReleasesThemInOrder() {
        frontier.park("b", urls("fast.example", 1_000));
        frontier.park("b", urls("slow.example", 20));

        List<FetchJob> fast = queue.sends().stream().flatMap(List::stream)
                .filter(j -> j.siteKey().value().equals("fast.example")).toList();
        assertEquals(IntStream.range(0, 50).mapToObj(i -> "https://fast.example/p/" + i).toList(),
                fast.stream().map(j -> j.url().value()).toList(), "lowest order first across the partitions");
        assertEquals(10, fast.stream().map(FetchJob::partition).distinct().count());
        assertEquals(10, store.state(new io.spiderling.core.url.SiteKey("fast.example")).orElseThrow().spread());
        assertEquals(List.of(0), queue.sends().stream().flatMap(List::stream)
                .filter(j -> j.siteKey().value().equals("slow.example")).map(FetchJob::partition).distinct().toList(),
                "a site at the default rate keeps one partition");

        try (Frontier.Releases releases = frontier.releases()) {
            fast.forEach(releases::finished);
        }

        List<FetchJob> next = queue.sends().stream().flatMap(List::stream)
                .filter(j -> j.siteKey().value().equals("fast.example")).skip(50).toList();
        assertEquals(IntStream.range(50, 100).mapToObj(i -> "https://fast.example/p/" + i).toList(),
                next.stream().map(j -> j.url().value()).toList(), "each finished job freed its entry's place");
    }

    private static List<Hop> urls(String host, int n) {
        return IntStream.range(0, n).mapToObj(i -> Hop.of(NormalizedUrl.parse("https://" + host + "/p/" + i)))
                .toList();
    }
}
