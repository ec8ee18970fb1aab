package io.spiderling.core.pipeline.fetch;

import static io.spiderling.core.testing.ScriptedFetcher.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.port.FetchTelemetry;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.testing.InMemoryRateStore;
import io.spiderling.core.testing.InMemoryRobotsStore;
import io.spiderling.core.testing.ScriptedFetcher;
import io.spiderling.core.testing.TestClock;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * The gate's promise at the site, whatever happens between a slot and the wire: two sessions (two invocations) of one
 * site on a clock the test moves, the first sending late. The scripted site honours send deadlines as the real fetcher
 * does (it checks at the moment of writing), and records when each request arrived.
 */
class SitePolitenessTest {

    private static final Instant START = Instant.parse("2025-03-01T10:00:00Z");
    private static final NormalizedUrl FIRST = NormalizedUrl.parse("https://example.com/first");
    private static final NormalizedUrl SECOND = NormalizedUrl.parse("https://example.com/second");
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private final TestClock clock = new TestClock(START);
    private final ScriptedFetcher site = new ScriptedFetcher(clock);
    /** Both sessions wait for their slots in the test's own order: waiting moves no clock. */
    private final SitePoliteness politeness = SitePoliteness.builder()
            .robots(RobotsPolicy.create()).robotsStore(new InMemoryRobotsStore()).limiter(RateLimiter.create())
            .rates(new InMemoryRateStore()).overrides(RateOverrides.none()).fetcher(site)
            .normalizer(UrlNormalizer.create()).clock(clock).pause(until -> { }).jitter(() -> 0.0).build();

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/pipeline/late-send-cases.csv", numLinesToSkip = 1)
    void acquire_whenAnEarlierSlotsRequestGoesOutLate_siteNeverSeesTwoCloserThanTheInterval(String name,
            long delayMillis, boolean sentFirst) {
        site.answer(FIRST.value(), ok(FIRST.value(), "1"));
        site.answer(SECOND.value(), ok(SECOND.value(), "2"));
        SiteKey key = FIRST.siteKey();
        SitePoliteness.Session a = politeness.session();
        SitePoliteness.Session b = politeness.session();
        var first = assertInstanceOf(SitePoliteness.Gate.Go.class, a.acquire(key, Optional.empty()));
        var second = assertInstanceOf(SitePoliteness.Gate.Go.class, b.acquire(key, Optional.empty()));

        clock.set(first.slot().plusMillis(delayMillis));
        FetchResult firstResult = site.fetch(FetchRequest.get(FIRST.value()).withSend(first.window()));
        a.done(first, firstResult, FIRST.urlHash());
        clock.set(second.slot());
        site.fetch(FetchRequest.get(SECOND.value()).withSend(second.window()));

        List<Instant> arrivals = site.seen().stream().map(ScriptedFetcher.Seen::at).toList();
        assertEquals(sentFirst ? List.of(first.slot().plusMillis(delayMillis), second.slot())
                : List.of(second.slot()), arrivals, "what the site saw");
        for (int i = 1; i < arrivals.size(); i++) {
            Duration gap = Duration.between(arrivals.get(i - 1), arrivals.get(i));
            assertTrue(gap.compareTo(INTERVAL) >= 0, name + ": two requests " + gap + " apart");
        }
        assertEquals(!sentFirst, SitePoliteness.late(firstResult), "a request past its window is not sent");
    }

    @Test
    void send_whenTheRequestMissesItsWindowOnce_getsTheNextSlotAtOnceAndIsAnswered() {
        site.answer(FIRST.value(), ok(FIRST.value(), "1"));
        LateCount telemetry = new LateCount();
        SitePoliteness.Session session = politeness.session(telemetry);
        AtomicInteger tries = new AtomicInteger();

        SitePoliteness.Sent sent = session.send(() -> session.acquire(FIRST.siteKey(), Optional.empty()), go -> {
            clock.set(tries.getAndIncrement() == 0 ? go.sendBy().plusMillis(1) : go.slot());
            return site.fetch(FetchRequest.get(FIRST.value()).withSend(go.window()));
        }, FIRST.urlHash());

        var answered = assertInstanceOf(SitePoliteness.Sent.Answered.class, sent);
        assertEquals(2, tries.get());
        assertEquals(1, telemetry.late.get());
        assertEquals(List.of(answered.go().slot()), site.seen().stream().map(ScriptedFetcher.Seen::at).toList(),
                "only the second try reached the site, in its own slot");
    }

    @Test
    void send_whenTheRequestMissesItsWindowFiveTimes_getsASlotEachTimeAndIsAnsweredOnTheSixth() {
        site.answer(FIRST.value(), ok(FIRST.value(), "1"));
        LateCount telemetry = new LateCount();
        SitePoliteness.Session session = politeness.session(telemetry);
        AtomicInteger tries = new AtomicInteger();
        List<Instant> slots = new java.util.ArrayList<>();

        SitePoliteness.Sent sent = session.send(() -> session.acquire(FIRST.siteKey(), Optional.empty()), go -> {
            slots.add(go.slot());
            clock.set(tries.getAndIncrement() < 5 ? go.sendBy().plusMillis(1) : go.slot());
            return site.fetch(FetchRequest.get(FIRST.value()).withSend(go.window()));
        }, FIRST.urlHash());

        var answered = assertInstanceOf(SitePoliteness.Sent.Answered.class, sent);
        assertEquals(6, tries.get());
        assertEquals(5, telemetry.late.get());
        assertEquals(6, slots.stream().distinct().count(), "a new slot for every try: " + slots);
        assertEquals(List.of(answered.go().slot()), site.seen().stream().map(ScriptedFetcher.Seen::at).toList(),
                "only the last try reached the site");
    }

    @Test
    void acquire_afterLateSends_takesAnotherSitesSlotTheLearntMarginAheadAndLateSendsNoMore() {
        NormalizedUrl other = NormalizedUrl.parse("https://example.org/other");
        Duration lead = Duration.ofMillis(250);
        // A fetcher that holds what it is handed early until the slot, as the real one does.
        io.spiderling.core.port.PageFetcher holding = new io.spiderling.core.port.PageFetcher() {
            @Override
            public FetchResult fetch(FetchRequest request) {
                return site.fetch(request);
            }

            @Override
            public Duration lead() {
                return lead;
            }
        };
        SitePoliteness.Builder built = SitePoliteness.builder().robots(RobotsPolicy.create())
                .robotsStore(new InMemoryRobotsStore()).limiter(RateLimiter.create()).fetcher(holding).clock(clock)
                .pause(until -> { }).jitter(() -> 0.0);
        SitePoliteness.Session session = built.rates(new InMemoryRateStore()).build().session();
        session.send(() -> session.acquire(FIRST.siteKey(), Optional.empty()), go -> {
            clock.set(go.sendBy().plusMillis(1));
            return holding.fetch(FetchRequest.get(FIRST.value()).withSend(go.window()));
        }, FIRST.urlHash());
        Instant asked = clock.instant();

        var go = assertInstanceOf(SitePoliteness.Gate.Go.class, session.acquire(other.siteKey(), Optional.empty()));

        assertEquals(asked.plus(lead).plusMillis(LateMargin.MAX), go.slot(),
                "a new site's first slot, the fetcher's lead and the whole margin ahead");
        SitePoliteness.Session fresh = built.rates(new InMemoryRateStore()).build().session();
        assertEquals(asked.plus(lead), assertInstanceOf(SitePoliteness.Gate.Go.class,
                fresh.acquire(other.siteKey(), Optional.empty())).slot(), "with nothing learnt: the lead only");
    }

    @Test
    void acquire_whenTheSiteIsIdle_opensTheWindowNowAndTheNextRequestStillWaitsAnIntervalAfterTheSlotsEnd() {
        site.answer(FIRST.value(), ok(FIRST.value(), "1"));
        site.answer(SECOND.value(), ok(SECOND.value(), "2"));
        Duration lead = Duration.ofMillis(250);
        io.spiderling.core.port.PageFetcher holding = new io.spiderling.core.port.PageFetcher() {
            @Override
            public FetchResult fetch(FetchRequest request) {
                return site.fetch(request);
            }

            @Override
            public Duration lead() {
                return lead;
            }
        };
        List<Instant> pauses = new java.util.ArrayList<>();
        SitePoliteness.Session session = SitePoliteness.builder().robots(RobotsPolicy.create())
                .robotsStore(new InMemoryRobotsStore()).limiter(RateLimiter.create()).fetcher(holding).clock(clock)
                .pause(pauses::add).jitter(() -> 0.0).rates(new InMemoryRateStore()).build().session();

        var first = assertInstanceOf(SitePoliteness.Gate.Go.class, session.acquire(FIRST.siteKey(), Optional.empty()));
        site.fetch(FetchRequest.get(FIRST.value()).withSend(first.window()));
        var second = assertInstanceOf(SitePoliteness.Gate.Go.class,
                session.acquire(FIRST.siteKey(), Optional.empty()));
        clock.set(second.window().from());
        site.fetch(FetchRequest.get(SECOND.value()).withSend(second.window()));

        assertEquals(START.plus(lead), first.slot(), "the slot taken: the fetcher's lead ahead");
        assertEquals(START, first.window().from(), "an idle site's request may go out at once");
        assertEquals(second.slot(), second.window().from(), "the next waits for its own slot");
        assertEquals(List.of(second.slot().minus(lead)), pauses, "only the second was held, up to the lead");
        List<Instant> arrivals = site.seen().stream().map(ScriptedFetcher.Seen::at).toList();
        assertEquals(List.of(START, second.slot()), arrivals);
        assertTrue(Duration.between(first.sendBy(), second.slot()).compareTo(INTERVAL) >= 0,
                "the next slot is an interval after the first's window, however late in it the first went");
    }

    @Test
    void acquire_forAFetcherThatHoldsNothing_learnsNoMarginFromLateSends() {
        NormalizedUrl other = NormalizedUrl.parse("https://example.org/other");
        SitePoliteness.Session session = politeness.session();
        session.send(() -> session.acquire(FIRST.siteKey(), Optional.empty()), go -> {
            clock.set(go.sendBy().plusMillis(1));
            return site.fetch(FetchRequest.get(FIRST.value()).withSend(go.window()));
        }, FIRST.urlHash());
        Instant asked = clock.instant();

        assertEquals(asked, assertInstanceOf(SitePoliteness.Gate.Go.class,
                session.acquire(other.siteKey(), Optional.empty())).slot(), "called at its slot: it would send early");
    }

    @Test
    void send_whenTheRequestKeepsMissingItsWindow_isRefusedAsLateOnceItsPatienceIsSpentAndNothingIsSent() {
        site.answer(FIRST.value(), ok(FIRST.value(), "1"));
        LateCount telemetry = new LateCount();
        SitePoliteness.Session session = politeness.session(telemetry);
        AtomicInteger tries = new AtomicInteger();

        SitePoliteness.Sent sent = session.send(() -> session.acquire(FIRST.siteKey(), Optional.empty()), go -> {
            tries.incrementAndGet();
            clock.set(go.sendBy().plusMillis(1));
            return site.fetch(FetchRequest.get(FIRST.value()).withSend(go.window()));
        }, FIRST.urlHash());

        var refused = assertInstanceOf(SitePoliteness.Sent.Refused.class, sent);
        assertEquals(SitePoliteness.LATE, assertInstanceOf(SitePoliteness.Gate.Wait.class, refused.gate()).why());
        assertTrue(tries.get() > 2 && tries.get() <= SitePoliteness.LATE_TRIES, "tries: " + tries.get());
        assertTrue(!clock.instant().isBefore(START.plus(SitePoliteness.LATE_PATIENCE))
                || tries.get() == SitePoliteness.LATE_TRIES, "given up early, at " + clock.instant());
        assertEquals(tries.get(), telemetry.late.get());
        assertEquals(List.of(), site.seen());
    }

    @Test
    void admit_whenAnotherFetcherHoldsTheRobotsClaim_waitsForTheRulesItSavesAndNeverAsksRobotsTxt() {
        site.answer(FIRST.value(), ok(FIRST.value(), "1"));
        InMemoryRobotsStore store = new InMemoryRobotsStore();
        io.spiderling.core.robots.RobotsOrigin origin = io.spiderling.core.robots.RobotsOrigin.of(FIRST);
        assertTrue(store.claimFetch(origin, START, START.plusSeconds(45)), "the other fetcher's claim");
        List<Instant> polls = new java.util.ArrayList<>();
        SitePoliteness.Session session = SitePoliteness.builder()
                .robots(RobotsPolicy.create()).robotsStore(store).limiter(RateLimiter.create())
                .rates(new InMemoryRateStore()).overrides(RateOverrides.none()).fetcher(site)
                .normalizer(UrlNormalizer.create()).clock(clock).pause(until -> {
                    polls.add(until);
                    clock.set(until);
                    if (polls.size() == 3) {
                        // The other fetcher saves what robots.txt said.
                        store.save(RobotsPolicy.create().onFetched(origin,
                                io.spiderling.core.robots.RobotsFetchOutcome.Response.of(200,
                                        "User-agent: *\nDisallow: /private/\n"),
                                Optional.empty(), clock.instant(), 0.0));
                    }
                }).jitter(() -> 0.0).build().session();

        SitePoliteness.Gate gate = session.admit(io.spiderling.core.fetch.Hop.of(FIRST));

        assertInstanceOf(SitePoliteness.Gate.Go.class, gate, "the saved rules allow the page: " + gate);
        assertEquals(START.plus(SitePoliteness.ROBOTS_POLL.multipliedBy(3)), polls.get(2), "read every poll");
        assertEquals(List.of(), site.urls(), "robots.txt never asked here");
    }

    @Test
    void admit_whenTheOtherFetchersRulesNeverCome_waitsItsPatienceThenSendsTheUrlBackToWait() {
        InMemoryRobotsStore store = new InMemoryRobotsStore();
        io.spiderling.core.robots.RobotsOrigin origin = io.spiderling.core.robots.RobotsOrigin.of(FIRST);
        assertTrue(store.claimFetch(origin, START, START.plusSeconds(45)), "the other fetcher's claim");
        SitePoliteness.Session session = SitePoliteness.builder()
                .robots(RobotsPolicy.create()).robotsStore(store).limiter(RateLimiter.create())
                .rates(new InMemoryRateStore()).overrides(RateOverrides.none()).fetcher(site)
                .normalizer(UrlNormalizer.create()).clock(clock).pause(clock::set).jitter(() -> 0.0).build()
                .session();

        SitePoliteness.Gate gate = session.admit(io.spiderling.core.fetch.Hop.of(FIRST));

        SitePoliteness.Gate.Wait wait = assertInstanceOf(SitePoliteness.Gate.Wait.class, gate);
        assertEquals("robots.txt being fetched by another fetcher", wait.why());
        assertEquals(START.plus(SitePoliteness.ROBOTS_WAIT), clock.instant(), "waited its patience, no longer");
        assertEquals(List.of(), site.urls());
    }

    @Test
    void send_whenTheGateSaysWait_sendsNothing() {
        SitePoliteness.Session session = politeness.session();
        SitePoliteness.Gate.Wait wait = new SitePoliteness.Gate.Wait(START.plusSeconds(5), "rate: test");
        AtomicInteger tries = new AtomicInteger();

        SitePoliteness.Sent sent = session.send(() -> wait, go -> {
            tries.incrementAndGet();
            return site.fetch(FetchRequest.get(FIRST.value()).withSend(go.window()));
        }, FIRST.urlHash());

        assertEquals(new SitePoliteness.Sent.Refused(wait), sent);
        assertEquals(0, tries.get());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 10})
    void admit_whenRobotsTxtRedirectsAndTheHopMissesItsWindowSeveralTimes_sendsThatHopAgainAndNeverRobotsTxt(
            int misses) {
        String robots = "https://example.com/robots.txt";
        String moved = "https://example.com/robots-moved.txt";
        site.answer(robots, ScriptedFetcher.redirect(robots, 301, moved));
        site.answer(moved, ok(moved, "User-agent: *\nDisallow: /private/\n"));
        AtomicInteger movedTries = new AtomicInteger();
        // A busy core: the hop's first requests reach the wire after their windows, so none of them is sent.
        io.spiderling.core.port.PageFetcher slowOnTheHop = request -> {
            if (request.url().equals(moved) && movedTries.getAndIncrement() < misses) {
                clock.set(request.send().orElseThrow().by().plusMillis(1));
            }
            return site.fetch(request);
        };
        SitePoliteness.Session session = SitePoliteness.builder()
                .robots(RobotsPolicy.create()).robotsStore(new InMemoryRobotsStore()).limiter(RateLimiter.create())
                .rates(new InMemoryRateStore()).overrides(RateOverrides.none()).fetcher(slowOnTheHop)
                .normalizer(UrlNormalizer.create()).clock(clock).pause(clock::set).jitter(() -> 0.0).build()
                .session();

        SitePoliteness.Gate gate = session.admit(io.spiderling.core.fetch.Hop.of(FIRST));

        assertEquals(List.of(robots, moved), site.urls(), "robots.txt asked once, then its redirect once it went out");
        assertEquals(misses + 1, movedTries.get());
        assertInstanceOf(SitePoliteness.Gate.Go.class, gate, "the rules the hop gave allow the page: " + gate);
    }

    @Test
    void acquire_whenEveryWriteOfTheRateItemLoses_waitsInsteadOfFailingAndBacksOff() {
        InMemoryRateStore stored = new InMemoryRateStore();
        List<Instant> backoffs = new java.util.ArrayList<>();
        // Another fetcher's write lands before each of ours: the store always answers with a newer state.
        io.spiderling.core.port.RateStore busy = new io.spiderling.core.port.RateStore() {
            @Override
            public java.util.Optional<io.spiderling.core.politeness.SiteRate> find(
                    io.spiderling.core.url.SiteKey key) {
                return stored.find(key);
            }

            @Override
            public Written save(io.spiderling.core.url.SiteKey key, io.spiderling.core.politeness.SiteRate next,
                    long readVersion) {
                // A state with room for a slot, newer than any read: the other fetcher's slot was long ago.
                return new Written.Conflict(java.util.Optional.of(io.spiderling.core.politeness.SiteRate.initial(
                        INTERVAL).toBuilder().version(readVersion + 1).build()));
            }
        };
        SitePoliteness.Session session = SitePoliteness.builder()
                .robots(RobotsPolicy.create()).robotsStore(new InMemoryRobotsStore()).limiter(RateLimiter.create())
                .rates(busy).overrides(RateOverrides.none()).fetcher(site)
                .normalizer(UrlNormalizer.create()).clock(clock).pause(backoffs::add).jitter(() -> 0.5).build()
                .session();

        SitePoliteness.Gate gate = session.acquire(FIRST.siteKey(), java.util.Optional.empty());

        SitePoliteness.Gate.Wait wait = assertInstanceOf(SitePoliteness.Gate.Wait.class, gate);
        assertEquals("rate: contended", wait.why());
        assertEquals(START.plusSeconds(1), wait.until());
        assertEquals(18, backoffs.size(), "a random backoff after each loss from the third on");
    }

    @Test
    void acquire_whenAnotherFetchOfTheSessionAsksMeanwhile_takesBothSlotsInOneWrite() throws Exception {
        InMemoryRateStore stored = new InMemoryRateStore();
        java.util.concurrent.CountDownLatch readHeld = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch letRead = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger saves = new AtomicInteger();
        io.spiderling.core.port.RateStore counting = new io.spiderling.core.port.RateStore() {
            @Override
            public Optional<io.spiderling.core.politeness.SiteRate> find(SiteKey key) {
                readHeld.countDown();
                try {
                    letRead.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return stored.find(key);
            }

            @Override
            public Written save(SiteKey key, io.spiderling.core.politeness.SiteRate next, long readVersion) {
                saves.incrementAndGet();
                return stored.save(key, next, readVersion);
            }
        };
        SitePoliteness.Session session = SitePoliteness.builder()
                .robots(RobotsPolicy.create()).robotsStore(new InMemoryRobotsStore()).limiter(RateLimiter.create())
                .rates(counting).overrides(new RateOverrides(java.util.Map.of(FIRST.siteKey().value(),
                        java.math.BigDecimal.TEN))).fetcher(site)
                .normalizer(UrlNormalizer.create()).clock(clock).pause(until -> { }).jitter(() -> 0.0).build()
                .session();
        SiteKey key = FIRST.siteKey();
        var gates = new java.util.concurrent.ConcurrentLinkedQueue<SitePoliteness.Gate>();
        Thread first = new Thread(() -> gates.add(session.acquire(key, Optional.empty())));
        first.start();
        readHeld.await();
        Thread second = new Thread(() -> gates.add(session.acquire(key, Optional.empty())));
        second.start();
        while (second.getState() != Thread.State.BLOCKED) { // asking, and waiting for the first's turn to end
            Thread.onSpinWait();
        }
        letRead.countDown();
        first.join();
        second.join();

        assertEquals(1, saves.get(), "one write of the rate item for both fetches");
        List<Instant> slots = gates.stream().map(g -> assertInstanceOf(SitePoliteness.Gate.Go.class, g).slot())
                .sorted().toList();
        assertEquals(2, slots.size());
        assertTrue(Duration.between(slots.get(0), slots.get(1)).toMillis() >= 100, "10 a second: " + slots);
        assertEquals(slots, stored.find(key).orElseThrow().inFlight().stream().sorted().toList(),
                "both slots count as in flight");
    }

    /** Counts the late sends the session reports. */
    private static final class LateCount implements FetchTelemetry {
        final AtomicInteger late = new AtomicInteger();

        @Override
        public void lateSend() {
            late.incrementAndGet();
        }
    }
}
