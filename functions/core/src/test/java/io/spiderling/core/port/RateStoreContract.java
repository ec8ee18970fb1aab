package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.politeness.FetchOutcome;
import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.url.SiteKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What {@link RateStore}'s javadoc promises, run against every implementation. Implementations may share one table
 * between the tests of a class, so each test works on sites named after the test.
 */
public abstract class RateStoreContract {

    // Millisecond precision: stores may keep instants as epoch milliseconds.
    protected static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    protected RateStore store;
    private String base;

    /** A store for one test; it may hold other tests' sites. */
    protected abstract RateStore createStore();

    @BeforeEach
    void createStoreAndNameSites(TestInfo test) {
        store = createStore();
        base = Contracts.nameOf(test);
    }

    @Test
    void find_whenSiteHasNoState_returnsEmptyAndFindAllLeavesItOut() {
        SiteKey known = site("known");
        SiteRate state = rate(1);
        store.save(known, state, 0);

        assertEquals(Optional.empty(), store.find(site("unknown")));
        assertEquals(Map.of(known, state), store.findAll(List.of(known, site("unknown"))));
    }

    @Test
    void save_whenVersionReadIsStale_refusesAndReturnsTheWinner() {
        SiteKey site = site("");
        SiteRate first = rate(1);

        assertEquals(new RateStore.Written.Saved(), store.save(site, first, 0));
        assertEquals(new RateStore.Written.Conflict(Optional.of(first)),
                store.save(site, SiteRate.initial(Duration.ofSeconds(1)), 0),
                "a second writer of a new site is refused and told the winner's state, with no read");

        assertEquals(Optional.of(first), store.find(site));
    }

    @Test
    void save_whenVersionReadIsStillStored_replacesTheState() {
        SiteKey site = site("");
        store.save(site, rate(1), 0);
        SiteRate second = rate(2);

        assertEquals(new RateStore.Written.Saved(), store.save(site, second, 1));

        assertEquals(Optional.of(second), store.find(site));
        assertEquals(new RateStore.Written.Conflict(Optional.of(second)), store.save(site, rate(2), 1));
    }

    @Test
    void save_whenAVersionWasReadButTheSiteHasNoState_refusesWithNothingStored() {
        SiteKey site = site("");

        assertEquals(new RateStore.Written.Conflict(Optional.empty()), store.save(site, rate(4), 3));

        assertEquals(Optional.empty(), store.find(site));
    }

    @Test
    void save_whenLimiterPausedTheSite_readsTheCauseBackByBothReads() {
        RateLimiter limiter = RateLimiter.create();
        SiteRate start = SiteRate.initial(Duration.ofSeconds(1));
        SiteKey throttled = site("by-429");
        SiteKey failing = site("by-failures");
        SiteRate byThrottle = limiter.onThrottled(start, NOW, 429, Optional.of(Duration.ofSeconds(120)), 0.0);
        SiteRate byFailures = start;
        for (String url : List.of("a", "b", "c")) {
            byFailures = limiter.onFailure(byFailures, url.repeat(64), FetchOutcome.TIMEOUT, NOW, 0.0);
        }

        assertEquals(new RateStore.Written.Saved(), store.save(throttled, byThrottle, 0));
        assertEquals(new RateStore.Written.Saved(), store.save(failing, byFailures, 0));

        assertEquals(Optional.of(new PauseCause.Throttled(429, Optional.of(Duration.ofSeconds(120)))),
                store.find(throttled).orElseThrow().pauseCause());
        assertEquals(Optional.of(new PauseCause.Failures(3, FetchOutcome.TIMEOUT)),
                store.find(failing).orElseThrow().pauseCause());
        assertEquals(Map.of(throttled, byThrottle, failing, byFailures), store.findAll(List.of(throttled, failing)));
    }

    @Test
    void save_whenThrottleHadNoReadableRetryAfter_readsItBackAsNone() {
        SiteKey site = site("");
        SiteRate paused = RateLimiter.create().onThrottled(SiteRate.initial(Duration.ofSeconds(1)), NOW, 503,
                Optional.empty(), 0.0);

        store.save(site, paused, 0);

        assertEquals(Optional.of(paused), store.find(site));
    }

    /** A site of this test. */
    protected SiteKey site(String name) {
        return new SiteKey((name.isEmpty() ? "" : name + "-") + base + ".example");
    }

    /** A state at {@code version}, with every field set. */
    protected static SiteRate rate(long version) {
        return SiteRate.builder().lastSlot(NOW.plusSeconds(version)).interval(Duration.ofSeconds(2))
                .baseInterval(Duration.ofSeconds(1)).pausedUntil(Instant.EPOCH).pauseCause(Optional.empty())
                .throttles(1).successes((int) version).responseTime(Duration.ofMillis(120))
                .inFlight(List.of(NOW.plusSeconds(version))).failing(List.of("a".repeat(64))).version(version).build();
    }
}
