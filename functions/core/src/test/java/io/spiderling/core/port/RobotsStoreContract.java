package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsFetchOutcome;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.robots.RobotsVerdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What {@link RobotsStore}'s javadoc promises, run against every implementation. Implementations may share one table
 * between the tests of a class, so each test works on origins named after the test, and its claims lapse within a
 * day of {@link #NOW}.
 */
public abstract class RobotsStoreContract {

    // Millisecond precision: stores may keep instants as epoch milliseconds.
    protected static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    protected RobotsStore store;
    private String base;

    /** A store for one test; it may hold other tests' origins. */
    protected abstract RobotsStore createStore();

    @BeforeEach
    void createStoreAndNameOrigins(TestInfo test) {
        store = createStore();
        base = Contracts.nameOf(test);
    }

    @Test
    void save_whenRulesStored_readsBackAnEntryThatDecidesTheSame() {
        RobotsPolicy policy = RobotsPolicy.create();
        RobotsOrigin origin = origin("https", "");
        RobotsCacheEntry entry = policy.onFetched(origin, RobotsFetchOutcome.Response.of(200,
                "User-agent: *\nDisallow: /private\nCrawl-delay: 3\n"), Optional.empty(), NOW, 0.0);

        store.save(entry);
        Optional<RobotsCacheEntry> read = store.find(origin);

        assertEquals(Optional.of(entry), read);
        assertTrue(policy.decide(read, RequestUrl.from("https://" + base + ".example/private/x"), NOW)
                instanceof RobotsVerdict.Disallowed);
        assertEquals(new RobotsVerdict.Allowed(Duration.ofSeconds(3)),
                policy.decide(read, RequestUrl.from("https://" + base + ".example/public"), NOW));
    }

    @Test
    void save_whenOutageRecorded_keepsTheFailureCountAndRetryTime() {
        RobotsPolicy policy = RobotsPolicy.create();
        RobotsOrigin origin = origin("http", ":8080");
        RobotsCacheEntry failed = policy.onFetched(origin, new RobotsFetchOutcome.Failure(FailureKind.CONNECT, 0),
                Optional.empty(), NOW, 0.0);

        store.save(failed);

        RobotsCacheEntry read = store.find(origin).orElseThrow();
        assertEquals(failed, read);
        assertEquals(1, read.consecutiveFailures());
        assertFalse(read.hasCopy());
        assertEquals(Optional.empty(), store.find(origin("http", "")), "another origin");
    }

    @Test
    void save_whenSavedAgain_replacesTheEntryAndFindAllLeavesOutOriginsWithNone() {
        RobotsPolicy policy = RobotsPolicy.create();
        RobotsOrigin origin = origin("https", "");
        store.save(policy.onFetched(origin, RobotsFetchOutcome.Response.of(200, "User-agent: *\nDisallow: /a\n"),
                Optional.empty(), NOW, 0.0));
        RobotsCacheEntry newer = policy.onFetched(origin, RobotsFetchOutcome.Response.of(200,
                "User-agent: *\nDisallow: /b\n"), Optional.empty(), NOW.plusSeconds(60), 0.0);

        store.save(newer);

        assertEquals(Map.of(origin, newer), store.findAll(List.of(origin, origin("http", ""))));
    }

    @Test
    void claimFetch_whenAnotherFetcherHoldsIt_refusesUntilItLapsesAndIsNoCachedCopy() {
        RobotsOrigin origin = origin("https", "");

        assertTrue(store.claimFetch(origin, NOW, NOW.plusSeconds(45)));
        assertFalse(store.claimFetch(origin, NOW.plusSeconds(1), NOW.plusSeconds(46)), "held by the first");
        assertTrue(store.claimFetch(origin, NOW.plusSeconds(45), NOW.plusSeconds(90)), "lapsed");
        assertEquals(Optional.empty(), store.find(origin), "a claim is no cached copy");
    }

    @Test
    void claimFetch_whenRulesAreCached_claimsAndLeavesThemAlone() {
        RobotsOrigin origin = origin("https", "");
        RobotsCacheEntry rules = RobotsPolicy.create().onFetched(origin, RobotsFetchOutcome.Response.of(200,
                "User-agent: *\nDisallow: /private\n"), Optional.empty(), NOW, 0.0);
        store.save(rules);

        assertTrue(store.claimFetch(origin, NOW, NOW.plusSeconds(45)));
        store.releaseFetch(origin);

        assertEquals(Optional.of(rules), store.find(origin));
    }

    @Test
    void releaseFetch_whenTheHolderGivesItUp_anotherClaimsAtOnce() {
        RobotsOrigin origin = origin("https", "");
        assertTrue(store.claimFetch(origin, NOW, NOW.plusSeconds(45)));

        store.releaseFetch(origin);

        assertTrue(store.claimFetch(origin, NOW.plusSeconds(1), NOW.plusSeconds(46)), "free at once, not in 44 s");
        assertEquals(Optional.empty(), store.find(origin));
    }

    @Test
    void releaseFetchClaims_whenClaimsHeldAndLapsed_endsTheHeldOnesAndLeavesTheCachedRulesAlone() {
        Instant later = NOW.plus(Duration.ofDays(1)); // every other test's claim has lapsed by then
        RobotsOrigin held = origin("https", "");
        RobotsOrigin alsoHeld = origin("http", ":8080");
        RobotsOrigin lapsed = RobotsOrigin.of("https://lapsed-" + base + ".example/");
        RobotsCacheEntry rules = RobotsPolicy.create().onFetched(held, RobotsFetchOutcome.Response.of(200,
                "User-agent: *\nDisallow: /private\n"), Optional.empty(), later.minusSeconds(3600), 0.0);
        store.save(rules);
        assertTrue(store.claimFetch(lapsed, later.minusSeconds(60), later.minusSeconds(15)));
        assertTrue(store.claimFetch(held, later.minusSeconds(5), later.plusSeconds(40)));
        assertTrue(store.claimFetch(alsoHeld, later.minusSeconds(5), later.plusSeconds(40)));

        assertEquals(2, store.releaseFetchClaims(later), "the two held; the lapsed one holds nothing");

        assertEquals(0, store.releaseFetchClaims(later), "none left");
        assertTrue(store.claimFetch(held, later, later.plusSeconds(45)), "free at once, not in 40 s");
        assertTrue(store.claimFetch(alsoHeld, later, later.plusSeconds(45)));
        assertEquals(Optional.of(rules), store.find(held), "the cached rules are another item");
    }

    /** An origin of this test: a scheme, and a port or nothing. */
    protected RobotsOrigin origin(String scheme, String port) {
        return RobotsOrigin.of(scheme + "://" + base + ".example" + port + "/");
    }
}
