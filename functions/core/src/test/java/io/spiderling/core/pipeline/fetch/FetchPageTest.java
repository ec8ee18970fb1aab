package io.spiderling.core.pipeline.fetch;

import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.pipeline.BatchTracker;
import static io.spiderling.core.testing.ScriptedFetcher.ok;
import static io.spiderling.core.testing.ScriptedFetcher.redirect;
import static io.spiderling.core.testing.ScriptedFetcher.response;
import static io.spiderling.core.testing.ScriptedFetcher.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.ObjectMetadata;
import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.frontier.WakeUps;
import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.pipeline.OptOutList;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.politeness.RetryPolicy;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.pipeline.ChangeNotices;
import io.spiderling.core.pipeline.extract.ExtractContent;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.robots.RobotsFetchOutcome;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryFrontierStore;
import io.spiderling.core.testing.InMemoryRateStore;
import io.spiderling.core.testing.InMemoryRobotsStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.testing.RecordingFetchQueue;
import io.spiderling.core.testing.ScriptedFetcher;
import io.spiderling.core.testing.TestClock;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fetch stage's decisions against in-memory stores and a scripted site, on a clock the test moves: every request
 * the "site" saw is recorded with its time, so politeness is checked the way the end-to-end test checks it.
 */
class FetchPageTest {

    private static final Instant START = Instant.parse("2025-03-01T10:00:00Z");
    private static final String BATCH = "b1";
    private static final String ROBOTS = "https://example.com/robots.txt";
    private static final NormalizedUrl URL = NormalizedUrl.parse("https://example.com/page");
    private static final NormalizedUrl OTHER = NormalizedUrl.parse("https://example.com/other");

    private final TestClock clock = new TestClock(START);
    private final CallLog log = new CallLog();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final InMemoryFrontierStore frontierStore = new InMemoryFrontierStore();
    private final RecordingFetchQueue queue = new RecordingFetchQueue(log);
    private final AtomicBoolean paused = new AtomicBoolean();
    private final Frontier frontier = new Frontier(frontierStore, queue, clock, Frontier.Settings.DEFAULTS,
            paused::get);
    private final ScriptedFetcher site = new ScriptedFetcher(clock);
    private final InMemoryRateStore rates = new InMemoryRateStore();
    private final InMemoryRobotsStore robotsStore = new InMemoryRobotsStore();
    private SitePoliteness.Pause pause = clock::sleepUntil;
    private Set<io.spiderling.core.url.SiteKey> optOut = Set.of();
    private boolean capture;
    private int groupsPerSite = 1;
    private SitemapReader sitemapReader = SitemapReader.NONE;
    /** The store the stage writes to: {@link #urls}, unless a test makes some of its calls fail. */
    private UrlStore urlStore = urls;
    /** Where the batches that asked for changes are recorded; none unless a test sets it. */
    private ChangeNotices notices;
    /** The extraction a reused body gets inline, as the composition root wires it; none unless a test sets it. */
    private ExtractContent inline;
    /** What the change notices sent to the notify queue. */
    private final List<NotifyQueue.Message> noticesSent = new java.util.ArrayList<>();

    @BeforeEach
    void batchOfTwoQueuedItems() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(2).source(BatchSource.HTTP).createdAt(START)
                .build());
        batches.addItems(BATCH, List.of(URL, OTHER), START);
        site.answer(ROBOTS, status(ROBOTS, 404));
    }

    /** The wake-ups the fetch stage asked for: site and due time. */
    private final List<String> wakeUps = new java.util.ArrayList<>();

    /** The URLs of the {@code url.fetched} events the stage asked for. */
    private final List<String> fetchedEvents = new java.util.ArrayList<>();

    /** URLs whose bytes were already stored, so that their extraction was asked for inline. */
    private final List<String> reused = new java.util.ArrayList<>();

    /** Whether each inline extraction ({@link FetchPage.Listener#reused}) was asked for Markdown. */
    private final List<Boolean> reusedAskingMarkdown = new java.util.ArrayList<>();

    /** Records whose stored copy a batch wanted Markdown of ({@link FetchPage.Listener#markdownWanted}). */
    private final List<String> markdownWanted = new java.util.ArrayList<>();

    /** Outcomes a job found recorded by an earlier attempt, whose listeners were told again. */
    private final List<FetchRecord> toldAgain = new java.util.ArrayList<>();

    private FetchPage fetchPage() {
        return fetchPage(blobs);
    }

    private FetchPage fetchPage(BlobStore blobStore) {
        return fetchPage(blobStore, site);
    }

    private FetchPage fetchPage(BlobStore blobStore, PageFetcher fetcher) {
        SitePoliteness politeness = SitePoliteness.builder().robots(RobotsPolicy.create())
                .robotsStore(robotsStore).limiter(RateLimiter.create()).rates(rates).overrides(RateOverrides.none())
                .fetcher(fetcher).normalizer(UrlNormalizer.create()).clock(clock).pause(pause).jitter(() -> 0.0)
                .build();
        FetchPage.Builder builder = FetchPage.builder().fetcher(fetcher).blobs(blobStore).urls(urlStore)
                .tracker(new BatchTracker(batches, batches)).frontier(frontier).politeness(politeness)
                .retry(RetryPolicy.create()).fetchSwitch(paused::get).optOut(OptOutList.of(optOut)).clock(clock)
                .jitter(() -> 0.0)
                // One lane: the test's clock moves as its one fetcher sleeps.
                .settings(FetchPage.Settings.DEFAULTS.withLanesPerSite(1).withCapture(capture)
                        .withGroupsPerSite(groupsPerSite))
                .wake((site, at) -> wakeUps.add(site.value() + " " + at)).sitemaps(sitemapReader)
                .listener(new FetchPage.Listener() {
                    @Override
                    public void reused(NormalizedUrl url, byte[] body, String contentType, String sha, Instant at,
                            boolean markdown) {
                        reused.add(url.value());
                        reusedAskingMarkdown.add(markdown);
                        if (inline != null) {
                            inline.extract(url, body, contentType, sha, at, markdown);
                        }
                    }

                    @Override
                    public void fetched(FetchRecord record, List<String> batchIds) {
                        fetchedEvents.add(record.url());
                    }

                    @Override
                    public void recordedBefore(FetchRecord record) {
                        toldAgain.add(record);
                    }

                    @Override
                    public void markdownWanted(FetchRecord record) {
                        markdownWanted.add(record.url() + " " + record.state().wireName());
                    }
                });
        if (notices != null) {
            builder.notices(notices);
        }
        return builder.build();
    }

    /** Parks and releases the URL as planning would, and returns the job the frontier sent. */
    private FetchJob send(NormalizedUrl url) {
        urls.claim(url.urlHash(), url.value(), BATCH, clock.instant(), clock.instant().minusSeconds(1800));
        frontier.park(BATCH, List.of(Hop.of(url)));
        return lastSent();
    }

    /**
     * Adds {@code spelled}, the URL as a client wrote it, to the batch, then claims and parks it: its key, and the
     * request it sends.
     */
    private FetchJob send(String spelled) {
        var accepted = (io.spiderling.core.url.NormalizationResult.Accepted)
                io.spiderling.core.url.UrlNormalizer.create().normalize(spelled);
        batches.addItems(BATCH, List.of(accepted.url()), clock.instant());
        urls.claim(accepted.url().urlHash(), accepted.url().value(), BATCH, clock.instant(),
                clock.instant().minusSeconds(1800));
        frontier.park(BATCH, List.of(Hop.of(accepted)));
        return lastSent();
    }

    private FetchJob lastSent() {
        return queue.sends().stream().filter(jobs -> !jobs.isEmpty()).reduce((a, b) -> b).orElseThrow().getLast();
    }

    /** Runs the job, and whenever it is requeued, moves the clock to its due time and runs it again. */
    private FetchPage.Outcome runToEnd(FetchPage fetchPage, FetchJob job) {
        FetchPage.Outcome outcome = fetchPage.process(job);
        for (int i = 0; i < 100 && outcome instanceof FetchPage.Outcome.Requeued r; i++) {
            clock.set(r.until());
            frontier.release(job.siteKey());
            outcome = fetchPage.process(lastSent());
        }
        return outcome;
    }

    private ItemState state(NormalizedUrl url) {
        return batches.item(BATCH, url.urlHash()).orElseThrow().state();
    }

    @Test
    void process_whenRobotsMissing_fetchesRobotsThenThePageASlotApartAndStoresIt() {
        site.answer(URL.value(), ok(URL.value(), "<title>Hi</title>"));

        var outcome = fetchPage().process(send(URL));

        assertEquals(ItemState.FETCHED, assertInstanceOf(FetchPage.Outcome.Ended.class, outcome).state());
        assertEquals(List.of(ROBOTS, URL.value()), site.urls());
        assertEquals(Duration.ofMillis(1100), Duration.between(site.seen().get(0).at(), site.seen().get(1).at()),
                "robots.txt takes a slot of the site's rate: an interval plus the send window");
        assertEquals(ItemState.FETCHED, state(URL));
        FetchRecord record = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(Optional.of("text/html"), record.contentType());
        assertTrue(record.freshUntil().isPresent());
        assertTrue(blobs.exists(record.contentKey().orElseThrow()));
    }

    @Test
    void process_whenThePageSendsXRobotsTag_keepsItOnTheRowAndDropsHeadersNotKept() {
        site.answer(URL.value(), response(URL.value(), 200, "<title>Hi</title>", Map.of("content-type", "text/html",
                "x-robots-tag", "noarchive, googlebot: noindex", "date", "Tue, 24 Nov 2026 10:00:00 GMT")));

        fetchPage().process(send(URL));

        FetchRecord record = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(Map.of("content-type", "text/html", "x-robots-tag", "noarchive, googlebot: noindex"),
                record.headers());
    }

    @Test
    void process_whenTwoUrlsServeIdenticalBytes_storesThemOnceAndAsksForTheSecondsExtractionInline() {
        site.answer(URL.value(), ok(URL.value(), "<title>Same</title>"));
        site.answer(OTHER.value(), ok(OTHER.value(), "<title>Same</title>"));
        FetchPage fetchPage = fetchPage();

        fetchPage.process(send(URL));
        clock.advance(Duration.ofSeconds(10));
        fetchPage.process(send(OTHER));

        FetchRecord first = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow();
        FetchRecord second = urls.find(OTHER.urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(first.contentKey(), second.contentKey(), "one content-addressed object");
        assertEquals(URL.value(), blobs.get(first.contentKey().orElseThrow()).orElseThrow().metadata()
                .get(ObjectMetadata.URL), "the first writer's object is kept");
        assertEquals(List.of(OTHER.value()), reused, "no object-created event comes for the second URL");
    }

    @Test
    void invocation_whenTwoJobsOfOneSite_readsItsStateOnceAndWritesOncePerRequestPlusOnceAtTheEnd() {
        site.answer(URL.value(), ok(URL.value(), "a"));
        site.answer(OTHER.value(), ok(OTHER.value(), "b"));
        FetchPage fetchPage = fetchPage();
        FetchJob first = send(URL);
        FetchJob second = send(OTHER);

        List<FetchPage.Result> results;
        try (FetchPage.Invocation invocation = fetchPage.invocation()) {
            results = invocation.processAll(List.of(first, second), () -> false);
            assertEquals(3, rates.writes(), "robots.txt's slot, then one per page; answers folded into the next");
        }

        assertEquals(4, rates.writes(), "the last answers written when the invocation ends");
        assertEquals(1, rates.finds(), "the rate item read once");
        assertEquals(2, robotsStore.finds(), "the robots.txt entry read once, and again once its fetch was claimed"
                + " (another fetcher may have saved it in between); never per job");
        assertEquals(List.of(ItemState.FETCHED, ItemState.FETCHED), List.of(state(URL), state(OTHER)));
        assertTrue(results.stream().allMatch(r -> r instanceof FetchPage.Result.Handled));
        assertEquals(List.of(), rates.find(URL.siteKey()).orElseThrow().inFlight(), "every place given back");
        assertEquals(List.of(ROBOTS, URL.value(), OTHER.value()), site.urls());
    }

    @Test
    void invocation_whenAStoreFails_failsThatJobAndLeavesTheSitesLaterJobsUnstarted() {
        site.answer(URL.value(), ok(URL.value(), "a"));
        site.answer(OTHER.value(), ok(OTHER.value(), "b"));
        FetchPage fetchPage = fetchPage(new InMemoryBlobStore(new CallLog()) {
            @Override
            public boolean putIfAbsent(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
                throw new IllegalStateException("S3 is down");
            }
        });
        FetchJob first = send(URL);
        FetchJob second = send(OTHER);

        List<FetchPage.Result> results;
        try (FetchPage.Invocation invocation = fetchPage.invocation()) {
            results = invocation.processAll(List.of(first, second), () -> false);
        }

        assertInstanceOf(FetchPage.Result.Failed.class, results.get(0));
        assertInstanceOf(FetchPage.Result.NotStarted.class, results.get(1));
        assertEquals(ItemState.QUEUED, state(OTHER));
    }

    @Test
    void invocation_whenAJobGoesBackToWait_asksToWakeItsSiteWhenItFallsDue() {
        site.answer(URL.value(), response(URL.value(), 500, "", Map.of()));
        FetchJob job = send(URL);

        FetchPage.Outcome outcome = fetchPage().process(job);

        Instant due = assertInstanceOf(FetchPage.Outcome.Requeued.class, outcome).until();
        assertEquals(List.of(URL.siteKey().value() + " " + due), wakeUps, "one wake-up, at the retry's due time");
    }

    /**
     * Waking the site at the earliest due time only released the first job; the second, left pending, sat until the
     * sweep's next look at the site (10 minutes) when the first did not come back to wait.
     */
    @Test
    void invocation_whenTwoJobsOfASiteWaitUntilTimesFarApart_asksToWakeItAtEach() {
        site.answer(URL.value(), response(URL.value(), 500, "", Map.of()));
        site.answer(OTHER.value(), response(OTHER.value(), 503, "", Map.of("retry-after", "120")));
        FetchJob first = send(URL);
        FetchJob second = send(OTHER);
        List<Instant> due = new java.util.ArrayList<>();
        try (FetchPage.Invocation invocation = fetchPage().invocation()) {
            for (FetchPage.Result result : invocation.processAll(List.of(first, second), () -> false)) {
                FetchPage.Outcome outcome = assertInstanceOf(FetchPage.Result.Handled.class, result).outcome();
                due.add(assertInstanceOf(FetchPage.Outcome.Requeued.class, outcome).until());
            }
        }

        assertTrue(Duration.between(due.get(0), due.get(1)).abs().compareTo(WakeUps.GROUPING) > 0, due.toString());
        assertEquals(due.stream().sorted().map(at -> URL.siteKey().value() + " " + at).toList(), wakeUps,
                "a wake-up at each due time");
    }

    @Test
    void invocation_whenTheWaitFallsDueWhileTheSiteIsReleased_stillAsksToWakeItAtOnce() {
        site.answer(URL.value(), response(URL.value(), 500, "", Map.of()));
        FetchJob job = send(URL);
        Instant due;
        try (FetchPage.Invocation invocation = fetchPage().invocation()) {
            due = assertInstanceOf(FetchPage.Outcome.Requeued.class, invocation.process(job)).until();
            // The release at the invocation's end reads nothing due, and is slow: the wait falls due meanwhile.
            frontierStore.afterDue(() -> clock.set(due.plusMillis(1)));
        }

        assertEquals(List.of(URL.siteKey().value() + " " + due), wakeUps,
                "without a wake-up, the wait would sit until the sweep's next look at its site");
    }

    @Test
    void process_whenARedirectLeadsToAPageJustFetched_endsAsItWithoutAskingAgainAndAliasesTheChain() {
        site.answer(URL.value(), ok(URL.value(), "the page"));
        site.answer(OTHER.value(), redirect(OTHER.value(), 301, URL.value()));
        FetchPage fetchPage = fetchPage();
        runToEnd(fetchPage, send(URL));

        FetchPage.Outcome outcome = runToEnd(fetchPage, send(OTHER));

        assertEquals(ItemState.FETCHED, assertInstanceOf(FetchPage.Outcome.Ended.class, outcome).state());
        assertEquals(1, site.urls().stream().filter(URL.value()::equals).count(), "the target asked once");
        assertEquals(Optional.of(URL.value()), urls.find(OTHER.urlHash()).orElseThrow().redirectsTo());
    }

    @Test
    void process_whenRobotsDisallowsThePath_endsDisallowedWithoutRequestingIt() {
        site.answer(ROBOTS, ok(ROBOTS, "User-agent: *\nDisallow: /page\n"));

        fetchPage().process(send(URL));

        assertEquals(List.of(ROBOTS), site.urls());
        assertEquals(ItemState.DISALLOWED, state(URL));
        assertEquals(Optional.of("Disallow: /page (line 2 of " + ROBOTS + ", HTTP 200, copy fetched 0 s before)"),
                batches.items(BATCH, Optional.of(ItemState.DISALLOWED), Optional.empty(), 10).items().getFirst()
                        .detail());
    }

    @Test
    void process_whenSavingTheFetchedRobotsFails_givesItsClaimBackSoOthersNeedNotWaitItsFortyFiveSeconds() {
        robotsStore.failNextSave(new IllegalStateException("robots table unavailable"));
        site.answer(URL.value(), ok(URL.value(), "x"));

        IllegalStateException failed = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> fetchPage().process(send(URL)));

        assertEquals("robots table unavailable", failed.getMessage(), "the failure propagates: the message is retried");
        assertTrue(robotsStore.claimFetch(RobotsOrigin.of(URL), clock.instant(), clock.instant().plusSeconds(45)),
                "the claim was given back with the failure");
    }

    @Test
    void process_whenRobotsAnswers503_requeuesUntilItRecoversThenFetches() {
        site.answer(ROBOTS, status(ROBOTS, 503), ok(ROBOTS, "User-agent: *\nAllow: /\n"));
        site.answer(URL.value(), ok(URL.value(), "x"));

        var first = assertInstanceOf(FetchPage.Outcome.Requeued.class, fetchPage().process(send(URL)));

        assertEquals(List.of(ROBOTS), site.urls(), "no page request while the rules are undefined");
        assertEquals(ItemState.QUEUED, state(URL));
        assertEquals(1, frontierStore.pending(URL.siteKey()), "back in the park");
        RobotsOrigin origin = RobotsOrigin.of(URL);
        assertTrue(robotsStore.claimFetch(origin, clock.instant(), clock.instant().plusSeconds(45)),
                "the fetch's claim ended with it: the next try need not wait 45 s");
        robotsStore.releaseFetch(origin);
        clock.set(first.until());
        assertEquals(1, frontier.release(URL.siteKey()));
        assertEquals(2, lastSent().send(), "a fresh deduplication id for the second send");
        var end = runToEnd(fetchPage(), lastSent());

        assertEquals(ItemState.FETCHED, assertInstanceOf(FetchPage.Outcome.Ended.class, end).state());
        assertEquals(List.of(ROBOTS, ROBOTS, URL.value()), site.urls());
    }

    @Test
    void process_whenRobotsUnreachablePastTheDeadline_failsRobotsUnreachableNotDisallowed() {
        site.answer(ROBOTS, status(ROBOTS, 500));
        FetchPage fetchPage = fetchPage();
        FetchJob job = send(URL);
        FetchPage.Outcome outcome = fetchPage.process(job);
        while (outcome instanceof FetchPage.Outcome.Requeued r) {
            clock.set(r.until());
            frontier.release(URL.siteKey());
            outcome = fetchPage.process(lastSent());
        }

        assertEquals(ItemState.FAILED, state(URL));
        assertTrue(Duration.between(START, clock.instant()).compareTo(Duration.ofHours(6)) >= 0,
                "only after the deadline: " + clock.instant());
        var item = batches.items(BATCH, Optional.of(ItemState.FAILED), Optional.empty(), 10).items().getFirst();
        assertEquals(Optional.of(Reason.ROBOTS_UNREACHABLE), item.reason());
        assertTrue(item.detail().orElseThrow().startsWith(ROBOTS + " unreachable: HTTP 500 on "), item.toString());
        assertFalse(site.urls().contains(URL.value()));
    }

    @Test
    void process_whenTheRequestMissesItsSlotsWindow_requeuesItWithoutContactingTheSiteAndFreesItsPlace() {
        site.answer(URL.value(), ok(URL.value(), "a"));
        // The fetcher loses 150 ms between the slot and the write (a busy core): past the window of 100 ms.
        PageFetcher busy = request -> {
            if (request.url().equals(URL.value())) {
                clock.advance(Duration.ofMillis(150));
            }
            return site.fetch(request);
        };

        var outcome = fetchPage(blobs, busy).process(send(URL));

        var requeued = assertInstanceOf(FetchPage.Outcome.Requeued.class, outcome);
        assertEquals(SitePoliteness.LATE, requeued.why());
        assertEquals(List.of(ROBOTS), site.urls(), "the page was never sent");
        assertEquals(List.of(), rates.find(URL.siteKey()).orElseThrow().inFlight(), "its place in flight is free");
        assertEquals(ItemState.QUEUED, state(URL));
        assertEquals(ItemState.FETCHED, runToEnd(fetchPage(), lastSent()) instanceof FetchPage.Outcome.Ended e
                ? e.state() : null, "fetched on its next slot");
    }

    @Test
    void process_whenOnlyTheFirstRequestMissesItsWindow_fetchesOnTheNextSlotInTheSameInvocation() {
        site.answer(URL.value(), ok(URL.value(), "a"));
        // A cold start: opening the first connection costs 150 ms, past the window of 100 ms; the next finds it open.
        AtomicBoolean cold = new AtomicBoolean(true);
        PageFetcher coldStart = request -> {
            if (request.url().equals(URL.value()) && cold.getAndSet(false)) {
                clock.advance(Duration.ofMillis(150));
            }
            return site.fetch(request);
        };

        var outcome = fetchPage(blobs, coldStart).process(send(URL));

        assertEquals(ItemState.FETCHED, assertInstanceOf(FetchPage.Outcome.Ended.class, outcome).state());
        assertEquals(List.of(ROBOTS, URL.value()), site.urls(), "the late request was never sent; the next one was");
        assertEquals(List.of(), rates.find(URL.siteKey()).orElseThrow().inFlight(), "both places in flight are free");
    }

    @Test
    void process_whenTheSiteHasNoSlotWithinASecond_requeuesWithoutContactingIt() {
        pause = when -> { }; // time stands still: three jobs arrive at the same instant
        site.answer(URL.value(), ok(URL.value(), "a"));
        site.answer(OTHER.value(), ok(OTHER.value(), "b"));
        FetchPage fetchPage = fetchPage();

        fetchPage.process(send(URL)); // robots.txt at 0 s, the page at 1 s
        var refused = fetchPage.process(send(OTHER));

        var requeued = assertInstanceOf(FetchPage.Outcome.Requeued.class, refused);
        assertTrue(requeued.why().startsWith("rate"), requeued.why());
        assertEquals(List.of(ROBOTS, URL.value()), site.urls());
        assertEquals(ItemState.QUEUED, state(OTHER));
        assertTrue(requeued.until().isAfter(START), requeued.until().toString());
    }

    @Test
    void process_whenAnotherFetcherSavedTheRulesJustBeforeTheClaim_usesThemWithoutAskingForRobotsTxtAgain() {
        site.answer(URL.value(), ok(URL.value(), "x"));
        RobotsOrigin origin = RobotsOrigin.of(URL);
        robotsStore.beforeNextClaim(() -> robotsStore.save(RobotsPolicy.create().onFetched(origin,
                RobotsFetchOutcome.Response.of(200, "User-agent: *\nAllow: /\n"), Optional.empty(),
                clock.instant(), 0.0)));

        var end = runToEnd(fetchPage(), send(URL));

        assertEquals(ItemState.FETCHED, assertInstanceOf(FetchPage.Outcome.Ended.class, end).state());
        assertEquals(List.of(URL.value()), site.urls(), "the other fetcher's rules served: no second robots.txt");
        assertTrue(robotsStore.claimFetch(origin, clock.instant(), clock.instant().plusSeconds(45)),
                "the claim given back");
    }

    @Test
    void process_whenRobotsTxtFindsNoSlot_givesItsFetchClaimBackSoTheNextTryNeedNotWaitItOut() {
        pause = when -> { }; // time stands still: the site's next slot never comes within the second
        NormalizedUrl www = NormalizedUrl.parse("https://www.example.com/x"); // the same site, its own robots.txt
        site.answer(URL.value(), ok(URL.value(), "a"));
        FetchPage fetchPage = fetchPage();

        fetchPage.process(send(URL)); // robots.txt at 0 s, the page at 1 s
        var refused = fetchPage.process(send(www));

        var requeued = assertInstanceOf(FetchPage.Outcome.Requeued.class, refused);
        assertTrue(requeued.why().startsWith("rate"), requeued.why());
        assertEquals(List.of(ROBOTS, URL.value()), site.urls(), "www's robots.txt was not asked for");
        assertTrue(robotsStore.claimFetch(RobotsOrigin.of(www), clock.instant(), clock.instant().plusSeconds(45)),
                "the claim taken for www's robots.txt was given back");
    }

    @ParameterizedTest
    @CsvSource({
        "500, http 500 after 3 attempts",
        "502, http 502 after 3 attempts",
    })
    void process_whenServerErrorPersists_triesThreeTimesThenFailsKeepingTheError(int code, String error) {
        site.answer(URL.value(), status(URL.value(), code));
        FetchPage fetchPage = fetchPage();
        FetchPage.Outcome outcome = fetchPage.process(send(URL));
        int attempts = 1;
        while (outcome instanceof FetchPage.Outcome.Requeued r) {
            clock.set(r.until());
            frontier.release(URL.siteKey());
            FetchJob again = lastSent();
            assertEquals(++attempts, again.attempt());
            outcome = fetchPage.process(again);
        }

        assertEquals(3, attempts);
        assertEquals(3, site.urls().stream().filter(URL.value()::equals).count());
        assertEquals(ItemState.FAILED, state(URL));
        assertEquals(Optional.of(error), urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow().error());
    }

    @Test
    void process_when404_failsAtOnce() {
        site.answer(URL.value(), status(URL.value(), 404));

        fetchPage().process(send(URL));

        assertEquals(ItemState.FAILED, state(URL));
        assertEquals(1, site.urls().stream().filter(URL.value()::equals).count());
    }

    @Test
    void process_when429WithRetryAfter_requeuesNoEarlierAndSlowsTheSite() {
        site.answer(URL.value(), response(URL.value(), 429, "", Map.of("retry-after", "120")),
                ok(URL.value(), "ok"));

        var outcome = assertInstanceOf(FetchPage.Outcome.Requeued.class, fetchPage().process(send(URL)));

        assertTrue(!outcome.until().isBefore(clock.instant().plusSeconds(120)), outcome.until().toString());
        var rate = rates.find(URL.siteKey()).orElseThrow();
        assertTrue(rate.interval().compareTo(Duration.ofSeconds(1)) > 0, "slower after a 429: " + rate.interval());
        assertTrue(rate.pausedUntil().isAfter(clock.instant()), "paused: " + rate.pausedUntil());
        assertEquals(Optional.of(new PauseCause.Throttled(429, Optional.of(Duration.ofSeconds(120)))),
                rate.pauseCause(), "the pause's cause, in the same state");
        assertEquals(3, rates.writes(), "robots.txt's slot, the page's, the answer at the end: as for any page, the"
                + " pause and its cause in the last write");
    }

    /**
     * Three 429s without Retry-After double the site's interval each time (1 s, 2 s, 4 s, 8 s); then every ten
     * successes in a row halve it, back to the base. The pages are fetched as the frontier hands them over, on a
     * clock the gate moves, so the gaps the site saw are the intervals.
     */
    @Test
    void process_whenRepeated429sThenSuccesses_slowsTheSiteDownAndItsRateRecovers() {
        NormalizedUrl throttled = NormalizedUrl.parse("https://example.com/busy");
        site.answer(throttled.value(), status(throttled.value(), 429), status(throttled.value(), 429),
                status(throttled.value(), 429), ok(throttled.value(), "finally"));
        batches.addItems(BATCH, List.of(throttled), START);
        FetchPage fetchPage = fetchPage();
        FetchJob job = send(throttled);
        runToEnd(fetchPage, job);
        assertEquals(ItemState.FETCHED, state(throttled));
        assertEquals(Duration.ofSeconds(8), rates.find(URL.siteKey()).orElseThrow().interval(), "after three 429s");

        for (int i = 0; i < 30; i++) {
            NormalizedUrl page = NormalizedUrl.parse("https://example.com/p" + i);
            site.answer(page.value(), ok(page.value(), "p" + i));
            batches.addItems(BATCH, List.of(page), clock.instant());
            runToEnd(fetchPage, send(page));
        }

        assertEquals(Duration.ofSeconds(1), rates.find(URL.siteKey()).orElseThrow().interval(),
                "thirty successes halve it three times");
        var times = site.seen().stream().filter(s -> s.request().url().contains("/p")).map(ScriptedFetcher.Seen::at)
                .toList();
        Duration early = Duration.between(times.get(0), times.get(1));
        Duration late = Duration.between(times.get(28), times.get(29));
        assertTrue(early.compareTo(Duration.ofSeconds(8)) >= 0, "slow at first: " + early);
        assertEquals(Duration.ofMillis(1100), late, "back to one a second, plus the send window");
    }

    @Test
    void process_whenStoredCopyHasAnEtag_asksConditionallyAnd304EndsNotModified() {
        FetchRecord stored = FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED,
                        START.minus(Duration.ofDays(2))).httpStatus(200).contentType("text/html").size(3)
                .contentKey("content/aa/x").contentSha256("sha").finalUrl(URL.value()).timeToFirstByteMs(1)
                .totalMs(2).headers(Map.of("etag", "\"v1\"")).freshUntil(START.minus(Duration.ofDays(1))).build();
        urls.recordFetch(stored);
        site.answer(URL.value(), status(URL.value(), 304));

        fetchPage().process(send(URL));

        assertEquals(Optional.of("\"v1\""), site.seen().getLast().request().ifNoneMatch());
        assertEquals(ItemState.NOT_MODIFIED, state(URL));
        FetchRecord now = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(ItemState.NOT_MODIFIED, now.state());
        assertEquals(Optional.of("content/aa/x"), now.contentKey(), "the stored copy still stands");
    }

    private static io.spiderling.core.fetch.WireExchange exchange(String statusLine, String payload) {
        return new io.spiderling.core.fetch.WireExchange(
                "GET /page HTTP/1.1\r\nHost: example.com\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                statusLine, List.of(new io.spiderling.core.fetch.WireExchange.Header("ETag", "\"v1\"")),
                "192.0.2.7", payload.getBytes(java.nio.charset.StandardCharsets.UTF_8), false);
    }

    @Test
    void process_whenCaptureIsOn_storesTheExchangeAndTheRowPointsAtIt() {
        var wire = exchange("HTTP/1.1 200 OK", "gzip bytes, say");
        site.answer(URL.value(), ok(URL.value(), "hello").withExchange(wire));
        capture = true;

        fetchPage().process(send(URL));

        assertTrue(site.seen().getLast().request().capture(), "the fetcher was asked to capture");
        var capture = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow().capture().orElseThrow();
        byte[] object = io.spiderling.core.fetch.CaptureFormat.encode(wire);
        assertEquals(BucketKeys.capture(
                io.spiderling.core.content.Hashing.sha256Hex(object)), capture.key());
        assertArrayEquals(object, blobs.get(capture.key()).orElseThrow().bytes());
        assertEquals("192.0.2.7", capture.remoteIp());
        assertEquals(site.seen().getLast().at(), capture.capturedAt());
        assertEquals(io.spiderling.core.content.Hashing.warcSha1(wire.payload()), capture.payloadDigest());
        assertEquals(Optional.empty(), capture.refersToAt());
    }

    @Test
    void process_whenCaptureIsOff_asksForNoneAndRecordsNone() {
        site.answer(URL.value(), ok(URL.value(), "hello").withExchange(exchange("HTTP/1.1 200 OK", "hello")));

        fetchPage().process(send(URL));

        assertFalse(site.seen().getLast().request().capture());
        assertEquals(Optional.empty(), urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow().capture());
    }

    /** A capture adds nothing to the URL's previous one after a 304 or the same payload, so it refers to it. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} {1}")
    @org.junit.jupiter.params.provider.CsvSource({
            "304, '', true",
            "200, same, true",
            "200, changed, false",
    })
    void process_whenThePreviousCaptureIsKnown_refersToItOnlyWhenNothingChanged(int status, String payload,
            boolean refers) {
        Instant before = START.minus(Duration.ofDays(2));
        var previous = new io.spiderling.core.fetch.Capture("capture/aa/x", "192.0.2.7", before,
                io.spiderling.core.content.Hashing.warcSha1("same".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                false, Optional.empty());
        urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED, before).httpStatus(200)
                .contentType("text/html").size(4).contentKey("content/aa/x").contentSha256("sha")
                .finalUrl(URL.value()).timeToFirstByteMs(1).totalMs(2).headers(Map.of("etag", "\"v1\""))
                .freshUntil(START.minus(Duration.ofDays(1))).capture(Optional.of(previous)).build());
        FetchResult.Response answer = status == 304 ? status(URL.value(), 304) : ok(URL.value(), payload);
        site.answer(URL.value(), answer.withExchange(exchange(status == 304 ? "HTTP/1.1 304 Not Modified"
                : "HTTP/1.1 200 OK", payload)));
        capture = true;

        fetchPage().process(send(URL));

        var capture = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow().capture().orElseThrow();
        assertEquals(refers ? Optional.of(before) : Optional.empty(), capture.refersToAt());
    }

    @Test
    void process_whenRedirectStaysOnTheSite_followsItThroughTheGateAndRecordsTheChain() {
        String moved = "https://www.example.com/moved";
        site.answer(URL.value(), redirect(URL.value(), 301, "https://www.example.com/moved"));
        site.answer("https://www.example.com/robots.txt", status("https://www.example.com/robots.txt", 404));
        site.answer(moved, ok(moved, "here"));

        fetchPage().process(send(URL));

        assertEquals(List.of(ROBOTS, URL.value(), "https://www.example.com/robots.txt", moved), site.urls(),
                "the hop's origin has its own robots.txt");
        var times = site.seen().stream().map(ScriptedFetcher.Seen::at).toList();
        for (int i = 1; i < times.size(); i++) {
            assertTrue(Duration.between(times.get(i - 1), times.get(i)).compareTo(Duration.ofSeconds(1)) >= 0,
                    "every request of the site a slot apart: " + times);
        }
        assertEquals(ItemState.FETCHED, state(URL));
        FetchRecord record = urls.find(NormalizedUrl.parse(moved).urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(List.of(URL.value()), record.redirects());
        assertEquals(Optional.of(moved), urls.find(URL.urlHash()).orElseThrow().aliasOf(),
                "the URL asked for is an alias of the page it landed on");
    }

    @Test
    void process_whenRobotsDisallowsTheQueryAsWritten_sendsNothingThoughTheKeysOrderIsAllowed() {
        site.answer(ROBOTS, ok(ROBOTS, "User-agent: *\nDisallow: /p?qux=taz&baz=http://foo.bar?tar&par\n"));
        FetchJob job = send("https://example.com/p?qux=taz&baz=http://foo.bar?tar&par");
        assertEquals("https://example.com/p?baz=http://foo.bar?tar&par&qux=taz", job.url().value(), "the key sorts");

        fetchPage().process(job);

        assertEquals(List.of(ROBOTS), site.urls(), "robots.txt is decided on the request-target that would be sent");
        assertEquals(ItemState.DISALLOWED, batches.item(BATCH, job.url().urlHash()).orElseThrow().state());
        FetchRecord record = urls.find(job.url().urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(Optional.of("https://example.com/p?qux=taz&baz=http://foo.bar?tar&par"), record.requestUrl());
    }

    @Test
    void process_whenTheSpellingDiffersFromTheKey_requestsTheSpellingAsWrittenAndKeysTheRecord() {
        String written = "https://example.com/p?b=2&utm_source=news&a=1";
        site.answer(ROBOTS, ok(ROBOTS, "User-agent: *\nDisallow: /p?a=1\n"));
        site.answer(written, ok(written, "<title>As written</title>"));
        FetchJob job = send(written);

        fetchPage().process(job);

        assertEquals(List.of(ROBOTS, written), site.urls(), "no parameter sorted or removed");
        FetchRecord record = urls.find(job.url().urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals("https://example.com/p?a=1&b=2", record.url(), "the key");
        assertEquals(Optional.of(written), record.requestUrl());
        assertEquals(ItemState.FETCHED, record.state());
    }

    @Test
    void process_whenALocationIsQueryOnly_goesToTheRequestedPageWithThatQuery() {
        String page = "https://example.com/foo/bar";
        String target = "https://example.com/foo/bar?a=b&c=d";
        site.answer(ROBOTS, status(ROBOTS, 404));
        site.answer(page, redirect(page, 302, "?a=b&c=d"));
        site.answer(target, ok(target, "query"));

        fetchPage().process(send(page));

        assertEquals(List.of(ROBOTS, page, target), site.urls(), "RFC 3986 section 5.2.2, as browsers resolve it");
        assertEquals(ItemState.FETCHED, state(NormalizedUrl.parse(page)));
    }

    @Test
    void process_whenAChainMustWaitPartWay_resumesAtTheHopItReachedWithoutAskingTheAnsweredHopsAgain() {
        String second = "https://www.example.com/chain/2";
        String end = "https://www.example.com/chain/end";
        site.answer("https://www.example.com/robots.txt", status("https://www.example.com/robots.txt", 404));
        site.answer(URL.value(), redirect(URL.value(), 302, second));
        site.answer(second, redirect(second, 302, end));
        site.answer(end, status(end, 503), ok(end, "the end"));

        var first = fetchPage().process(send(URL));

        var retry = assertInstanceOf(FetchPage.Outcome.Requeued.class, first, "a retry of the chain's last hop");
        clock.set(retry.until());
        frontier.release(URL.siteKey());
        FetchJob resumed = lastSent();
        assertEquals(end, resumed.url().value(), "the job sent again starts at the hop that must be asked again");
        assertEquals(Optional.of(URL), resumed.origin());
        assertEquals(List.of(URL.value(), second), resumed.via());
        assertInstanceOf(FetchPage.Outcome.Ended.class, fetchPage().process(resumed));
        assertEquals(List.of(ROBOTS, URL.value(), "https://www.example.com/robots.txt", second, end, end),
                site.urls(), "each hop asked once; only the 503 asked again");
        assertEquals(ItemState.FETCHED, state(URL));
        FetchRecord record = urls.find(NormalizedUrl.parse(end).urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(List.of(URL.value(), second), record.redirects(), "the chain recorded whole");
        assertEquals(Optional.of(end), urls.find(URL.urlHash()).orElseThrow().aliasOf());
        assertEquals(0, frontierStore.released(URL.siteKey()));
    }

    @Test
    void process_whenRedirectLeavesTheSite_queuesTheRestUnderTheTargetSiteAndItEndsTheOriginalItem() {
        String target = "https://elsewhere.example.org/landing";
        site.answer(URL.value(), redirect(URL.value(), 302, target));
        site.answer("https://elsewhere.example.org/robots.txt", status("https://elsewhere.example.org/robots.txt",
                404));
        site.answer(target, ok(target, "landed"));

        var outcome = fetchPage().process(send(URL));

        assertEquals(target, assertInstanceOf(FetchPage.Outcome.Redirected.class, outcome).target().value());
        assertEquals(ItemState.QUEUED, state(URL));
        FetchJob hop = lastSent();
        assertEquals(target, hop.url().value());
        assertEquals("example.org", hop.siteKey().value());
        assertEquals(Optional.of(URL), hop.origin());

        fetchPage().process(hop);

        assertEquals(ItemState.FETCHED, state(URL), "the original URL's item ends with the target's answer");
        FetchRecord record = urls.find(hop.urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(List.of(URL.value()), record.redirects());
        assertEquals(Optional.of(target), urls.find(URL.urlHash()).orElseThrow().aliasOf());
        assertEquals(0, frontierStore.released(hop.siteKey()) + frontierStore.released(URL.siteKey()));
    }

    @Test
    void process_whenRedirectLeadsToAnotherOfTheSitesGroups_continuesInThatGroupWhereItsOwnJobRuns() {
        groupsPerSite = 2;
        String mine = group(URL.value());
        String moved = withGroup(URL.value() + "-moved", mine, true);
        String here = withGroup(URL.value() + "-here", mine, true);
        String there = withGroup(URL.value() + "-there", mine, false);
        site.answer(URL.value(), redirect(URL.value(), 301, there));
        site.answer(moved, redirect(moved, 301, here));
        site.answer(there, ok(there, "there"));
        site.answer(here, ok(here, "here"));

        var away = fetchPage().process(send(URL));

        assertEquals(clock.instant(), assertInstanceOf(FetchPage.Outcome.Requeued.class, away).until(),
                "a URL of another group is asked only from that group, where its own job runs one at a time");
        FetchJob hop = lastSent();
        assertEquals(there, hop.url().value());
        assertEquals(group(there), hop.messageGroupId(groupsPerSite));
        assertEquals(Optional.of(URL), hop.origin());
        assertEquals(ItemState.QUEUED, state(URL));
        fetchPage().process(hop);
        assertEquals(ItemState.FETCHED, state(URL));

        var inline = fetchPage().process(send(moved));

        assertInstanceOf(FetchPage.Outcome.Ended.class, inline, "a hop within the job's own group stays inline");
        assertEquals(List.of(ROBOTS, URL.value(), there, moved, here), site.urls());
    }

    /** {@code base} with the first numeric suffix that puts it in {@code group} (or, if not {@code in}, out of it). */
    private String withGroup(String base, String group, boolean in) {
        for (int i = 0; ; i++) {
            if (group(base + i).equals(group) == in) {
                return base + i;
            }
        }
    }

    /** The fetch queue's group of {@code url}'s job. */
    private String group(String url) {
        return new FetchJob(BATCH, NormalizedUrl.parse(url), 1).messageGroupId(groupsPerSite);
    }

    @Test
    void process_whenRedirectsLoop_failsNaming() {
        String b = "https://example.com/b";
        site.answer(URL.value(), redirect(URL.value(), 301, b));
        site.answer(b, redirect(b, 301, URL.value()));

        fetchPage().process(send(URL));

        assertEquals(ItemState.FAILED, state(URL));
        String detail = batches.items(BATCH, Optional.of(ItemState.FAILED), Optional.empty(), 10).items().getFirst()
                .detail().orElseThrow();
        assertEquals("redirect loop at " + URL.value(), detail);
    }

    @Test
    void process_whenSiteOptedOut_endsDisallowedWithoutAnyRequest() {
        optOut = Set.of(URL.siteKey());

        fetchPage().process(send(URL));

        assertEquals(List.of(), site.urls());
        assertEquals(ItemState.DISALLOWED, state(URL));
        assertEquals(Optional.of("opt-out"), batches.items(BATCH, Optional.of(ItemState.DISALLOWED),
                Optional.empty(), 10).items().getFirst().reason().map(Reason::code));
    }

    @Test
    void process_whenKillSwitchOff_parksTheJobSendsNothingAndResumesLater() {
        site.answer(URL.value(), ok(URL.value(), "x"));
        FetchJob job = send(URL);
        paused.set(true);

        var outcome = fetchPage().process(job);

        assertInstanceOf(FetchPage.Outcome.Requeued.class, outcome);
        assertEquals(List.of(), site.urls());
        clock.advance(Duration.ofMinutes(5));
        assertEquals(0, frontier.release(URL.siteKey()), "nothing released while paused");

        paused.set(false);
        assertEquals(1, frontier.release(URL.siteKey()));
        fetchPage().process(lastSent());

        assertEquals(ItemState.FETCHED, state(URL));
    }

    @Test
    void process_whenAddressBlocked_failsAtOnceWithoutRetry() {
        site.answer(URL.value(), new FetchResult.Failure(FailureKind.BLOCKED, "link-local address 169.254.169.254",
                Duration.ZERO));

        fetchPage().process(send(URL));

        assertEquals(ItemState.FAILED, state(URL));
        assertEquals(Optional.of("blocked: link-local address 169.254.169.254"),
                urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow().error());
    }

    @Test
    void process_whenFreshCopyStoredSincePlanning_skipsWithoutContactingTheSite() {
        urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED, START.minusSeconds(60))
                .httpStatus(200).build());
        fetchPage().process(send(URL));

        assertEquals(List.of(), site.urls());
        assertEquals(ItemState.SKIPPED, state(URL));
    }

    /**
     * A job delivered again after its invocation died: after it recorded the URL's outcome but before it ended the
     * item ({@code recorded}), or after it ended the item but before its message was deleted ({@code ended}).
     */
    @ParameterizedTest
    @CsvSource({
        "recorded, 200, FETCHED",
        "recorded, 404, FAILED",
        "ended,    200, FETCHED",
        "ended,    404, FAILED"})
    void process_whenTheJobComesBackAfterItsOutcomeWasRecorded_endsAsRecordedWithoutAskingAgain(String crash,
            int status, ItemState expected) {
        site.answer(URL.value(), status == 200 ? ok(URL.value(), "page") : status(URL.value(), status));
        FetchJob job = send(URL);
        if (crash.equals("ended")) {
            fetchPage().process(job);
        } else {
            clock.set(START.plusSeconds(1));
            urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), expected, clock.instant())
                    .httpStatus(status).build());
        }
        long asked = site.urls().stream().filter(URL.value()::equals).count();

        FetchPage.Outcome again = fetchPage().process(job);

        assertEquals(asked, site.urls().stream().filter(URL.value()::equals).count(), "not asked again");
        assertEquals(expected, ((FetchPage.Outcome.Ended) again).state());
        assertEquals(expected, state(URL));
        assertEquals(1, batches.status(BATCH).orElseThrow().terminalCounts().values().stream()
                .mapToLong(Number::longValue).sum(), "the item counted once");
        assertEquals(0, frontierStore.released(URL.siteKey()), "its place freed");
        assertEquals(List.of(expected), toldAgain.stream().map(FetchRecord::state).toList(),
                "what the dead attempt told after the record is told again (url.changed of an inline extraction)");
    }

    @Test
    void process_whenBatchAsksForAShorterWindow_fetchesACopyOlderThanIt() {
        batches.createBatch(BatchHeader.builder().batchId("b-short").total(1).source(BatchSource.HTTP).createdAt(START)
                .options(BatchOptions.builder().recrawlAfter(Duration.ofSeconds(30)).build()).build());
        batches.addItems("b-short", List.of(URL), START);
        urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED, START.minusSeconds(60))
                .httpStatus(200).build());
        site.answer(URL.value(), ok(URL.value(), "new"));
        frontier.park("b-short", List.of(Hop.of(URL)));

        fetchPage().process(lastSent());

        assertEquals(ItemState.FETCHED, batches.item("b-short", URL.urlHash()).orElseThrow().state());
    }

    @Test
    void process_whenBatchCancelled_endsItemCancelledWithoutContactingTheSite() {
        batches.markCancelled(BATCH, START);

        fetchPage().process(send(URL));

        assertEquals(List.of(), site.urls());
        assertEquals(ItemState.CANCELLED, state(URL));
    }

    @Test
    void process_whenOtherBatchesJoinedTheFetch_endsTheirItemsWithTheSameOutcome() {
        batches.createBatch(BatchHeader.builder().batchId("b2").total(1).source(BatchSource.HTTP).createdAt(START)
                .build());
        batches.addItems("b2", List.of(URL), START);
        FetchJob job = send(URL);
        urls.claim(URL.urlHash(), URL.value(), "b2", START, START.minusSeconds(1800));
        site.answer(URL.value(), ok(URL.value(), "x"));

        fetchPage().process(job);

        assertEquals(1, site.urls().stream().filter(URL.value()::equals).count(), "one fetch for both batches");
        assertEquals(ItemState.FETCHED, state(URL));
        assertEquals(ItemState.FETCHED, batches.item("b2", URL.urlHash()).orElseThrow().state());
        assertTrue(batches.status("b2").orElseThrow().completedAt().isPresent());
        assertFalse(urls.claimed(URL.urlHash()));
    }

    @Test
    void process_whenBatchCancelledButAnotherBatchJoined_fetchesForTheOtherOnly() {
        batches.createBatch(BatchHeader.builder().batchId("b2").total(1).source(BatchSource.HTTP).createdAt(START)
                .build());
        batches.addItems("b2", List.of(URL), START);
        FetchJob job = send(URL);
        urls.claim(URL.urlHash(), URL.value(), "b2", START, START.minusSeconds(1800));
        batches.markCancelled(BATCH, START);
        site.answer(URL.value(), ok(URL.value(), "x"));

        fetchPage().process(job);

        assertEquals(ItemState.CANCELLED, state(URL));
        assertEquals(ItemState.FETCHED, batches.item("b2", URL.urlHash()).orElseThrow().state());
    }

    @Test
    void process_whenEndingAWaitingBatchFails_putsTheClaimBackSoTheRetryServesIt() {
        batches.createBatch(BatchHeader.builder().batchId("headerless").total(1).source(BatchSource.HTTP)
                .createdAt(START).build());
        batches.addItems("headerless", List.of(URL), START);
        batches.loseHeader("headerless"); // ending its item throws: the store lost the header
        FetchJob job = send(URL);
        urls.claim(URL.urlHash(), URL.value(), "headerless", START, START.minusSeconds(1800));
        site.answer(URL.value(), ok(URL.value(), "x"));

        assertThrows(IllegalStateException.class, () -> fetchPage().process(job));

        assertTrue(urls.claimed(URL.urlHash()));
        assertEquals(List.of("headerless"), urls.releaseClaim(URL.urlHash()));
    }

    /** A batch over {@link #URL} created now, with a callback, asking for changes or not. */
    private void noticeBatch(String batchId, boolean changes) {
        BatchOptions.Builder options = BatchOptions.builder().callbackUrl("https://hooks.example.com/h");
        if (changes) {
            options.notices(BatchOptions.Notice.CHANGES);
        }
        batches.createBatch(BatchHeader.builder().batchId(batchId).total(1).source(BatchSource.HTTP)
                .createdAt(clock.instant()).options(options.build()).build());
        batches.addItems(batchId, List.of(URL), clock.instant());
    }

    /** The job of {@code batchId} for {@link #URL}, with {@code waiters} joined to its claim. */
    private FetchJob sendFor(String batchId, String... waiters) {
        urls.claim(URL.urlHash(), URL.value(), batchId, clock.instant(), clock.instant().minusSeconds(1800));
        for (String waiter : waiters) {
            urls.claim(URL.urlHash(), URL.value(), waiter, clock.instant(), clock.instant().minusSeconds(1800));
        }
        frontier.park(batchId, List.of(Hop.of(URL)));
        return lastSent();
    }

    private Instant fetchedAt(NormalizedUrl url) {
        return urls.find(url.urlHash()).orElseThrow().fetch().orElseThrow().fetchedAt();
    }

    @Test
    void process_whenTheJobsBatchAndAJoinedOneAskedForChanges_recordsThemForTheExtractionAndNoOther() {
        notices = new ChangeNotices(urls, (message, delay) -> noticesSent.add(message));
        noticeBatch("n1", true);
        noticeBatch("n2", true);
        noticeBatch("n3", false);
        FetchJob job = sendFor("n1", "n2", "n3");
        site.answer(URL.value(), ok(URL.value(), "<title>New</title>"));

        fetchPage().process(job);

        assertEquals(Set.of("n1", "n2"), urls.changeNoticeRequests(URL.urlHash(), fetchedAt(URL)));
        assertEquals(List.of(), noticesSent, "the body's extraction has not run: it tells them");
    }

    @Test
    void process_whenTheBytesWereStoredAlready_theInlineExtractionComesFirstAndTheFetchStageTellsTheBatches() {
        notices = new ChangeNotices(urls, (message, delay) -> noticesSent.add(message));
        inline = ExtractContent.builder().blobs(blobs).urls(urls)
                .links(new io.spiderling.core.testing.InMemoryLinkStore(log))
                .extractor(io.spiderling.core.extract.HtmlExtractor.create())
                .canonical(new io.spiderling.core.extract.CanonicalLink(UrlNormalizer.create(),
                        io.spiderling.core.extract.CanonicalLink.Scope.SAME_SITE))
                .clock(clock).notices(notices).build();
        FetchPage fetchPage = fetchPage();
        site.answer(URL.value(), ok(URL.value(), "<title>Before</title>"));
        site.answer(OTHER.value(), ok(OTHER.value(), "<title>After</title>"));
        fetchPage.process(send(URL));
        inline.onContent(urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow().contentKey().orElseThrow());
        fetchPage.process(send(OTHER)); // stores the bytes URL serves next
        clock.advance(Duration.ofHours(2));
        noticeBatch("n1", true);
        site.answer(URL.value(), ok(URL.value(), "<title>After</title>"));

        fetchPage.process(sendFor("n1"));

        assertEquals(List.of(URL.value()), reused, "no object-created event comes for its body: it is inline");
        assertEquals(List.of("n1"), noticesSent.stream().map(NotifyQueue.Message::batchId).toList());
        var event = noticesSent.getFirst().change().orElseThrow();
        assertEquals(URL, event.url());
        assertEquals(fetchedAt(URL), event.fetchedAt());
    }

    @Test
    void process_whenRecordingTheChangeRequestsFails_putsTheWaitersBackSoTheRetryRecordsThemToo() {
        java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger(1);
        urlStore = new io.spiderling.core.testing.DelegatingUrlStore(urls) {
            @Override
            public Optional<io.spiderling.core.change.ContentChange> requestChangeNotices(String urlHash,
                    Instant fetchedAt, String contentSha256, Set<String> batchIds) {
                if (failures.getAndDecrement() > 0) {
                    throw new IllegalStateException("urls table unavailable");
                }
                return super.requestChangeNotices(urlHash, fetchedAt, contentSha256, batchIds);
            }
        };
        notices = new ChangeNotices(urlStore, (message, delay) -> noticesSent.add(message));
        noticeBatch("n1", true);
        noticeBatch("n2", true);
        FetchJob job = sendFor("n1", "n2");
        site.answer(URL.value(), ok(URL.value(), "<title>New</title>"));

        assertThrows(IllegalStateException.class, () -> fetchPage().process(job));
        assertTrue(urls.claimed(URL.urlHash()), "the waiter is back on the claim");
        fetchPage().process(job); // the message's retry

        assertEquals(1, site.urls().stream().filter(URL.value()::equals).count(), "the retry asks the site nothing");
        assertEquals(Set.of("n1", "n2"), urls.changeNoticeRequests(URL.urlHash(), fetchedAt(URL)));
        assertEquals(ItemState.FETCHED, batches.item("n2", URL.urlHash()).orElseThrow().state());
        assertFalse(urls.claimed(URL.urlHash()));
    }

    @Test
    void process_whenBlobStoreThrows_propagatesAndLeavesItemQueuedAndItsPlaceTaken() {
        RuntimeException outage = new IllegalStateException("S3 unavailable");
        site.answer(URL.value(), ok(URL.value(), "x"));
        FetchJob job = send(URL);
        BlobStore failing = new InMemoryBlobStore(new CallLog()) {
            @Override
            public boolean putIfAbsent(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
                throw outage;
            }
        };

        assertSame(outage, assertThrows(RuntimeException.class, () -> fetchPage(failing).process(job)));

        assertEquals(ItemState.QUEUED, state(URL));
        assertEquals(1, frontierStore.released(URL.siteKey()), "the message's retry still counts against the site");
    }

    @Test
    void deadLettered_whenJobReachesTheDeadLetterQueue_endsItsItemAndWaitersFailedDlq() {
        batches.createBatch(BatchHeader.builder().batchId("b2").total(1).source(BatchSource.HTTP).createdAt(START)
                .build());
        batches.addItems("b2", List.of(URL), START);
        FetchJob job = send(URL);
        urls.claim(URL.urlHash(), URL.value(), "b2", START, START.minusSeconds(1800));

        fetchPage().deadLettered(job);

        assertEquals(ItemState.FAILED, state(URL));
        assertEquals(ItemState.FAILED, batches.item("b2", URL.urlHash()).orElseThrow().state());
        assertEquals(0, frontierStore.released(URL.siteKey()));
        assertEquals(List.of(), site.urls());
    }

    @Test
    void process_whenRedeliveredAfterRequeue_doesNotRequeueTwice() {
        site.answer(ROBOTS, status(ROBOTS, 503));
        FetchJob job = send(URL);
        fetchPage().process(job);

        fetchPage().process(job); // the same message again

        assertEquals(1, frontierStore.pending(URL.siteKey()));
        assertEquals(0, frontierStore.released(URL.siteKey()));
    }

    /** What each case sets up before its URL is processed; see {@code item-reason-cases.csv}. */
    private FetchPage.Outcome runCase(String name) {
        FetchPage fetchPage = fetchPage();
        switch (name) {
            case "fetched" -> site.answer(URL.value(), ok(URL.value(), "the page"));
            case "not-modified" -> {
                urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED,
                        START.minus(Duration.ofDays(2))).httpStatus(200).contentKey("content/aa/x")
                        .contentSha256("sha").headers(Map.of("etag", "\"v1\"")).build());
                site.answer(URL.value(), status(URL.value(), 304));
            }
            case "fresh-copy" -> urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED,
                    START.minus(Duration.ofHours(1))).httpStatus(200).contentKey("content/aa/x").contentSha256("sha")
                    .freshUntil(START.plus(Duration.ofDays(1))).build());
            case "lastmod-not-after-copy" -> {
                urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED,
                        START.minus(Duration.ofHours(1))).httpStatus(200).contentKey("content/aa/x")
                        .contentSha256("sha").freshUntil(START.plus(Duration.ofDays(1))).build());
                return runToEnd(fetchPage, sendListed(URL, START.minus(Duration.ofDays(3))));
            }
            case "opt-out" -> {
                optOut = Set.of(URL.siteKey());
                fetchPage = fetchPage();
            }
            case "robots-disallowed" -> site.answer(ROBOTS, ok(ROBOTS,
                    "User-agent: otherbot\nDisallow: /page\nUser-agent: *\nDisallow: /page\n"));
            case "robots-disallowed-all" -> site.answer(ROBOTS, ok(ROBOTS, "User-agent: *\nDisallow: /\n"));
            case "robots-disallowed-own-group" -> site.answer(ROBOTS, ok(ROBOTS,
                    "User-agent: *\nAllow: /\n\nUser-agent: spiderling\nDisallow: /page # not for us\n"));
            case "robots-disallowed-wildcard" -> site.answer(ROBOTS, ok(ROBOTS, "User-agent: *\nDisallow: /*ag*$\n"));
            case "robots-disallowed-stale-copy" -> {
                site.answer(ROBOTS, ok(ROBOTS, "User-agent: *\nDisallow: /page\n"), status(ROBOTS, 503));
                site.answer(OTHER.value(), ok(OTHER.value(), "allowed"));
                runToEnd(fetchPage, send(OTHER));
                clock.set(START.plus(Duration.ofHours(25)));
            }
            case "robots-unreachable" -> site.answer(ROBOTS, status(ROBOTS, 500));
            case "robots-blocked" -> site.answer(ROBOTS, failure(FailureKind.BLOCKED,
                    "link-local address 169.254.169.254"));
            case "http-error" -> site.answer(URL.value(), status(URL.value(), 404));
            case "http-error-after-retries" -> site.answer(URL.value(), status(URL.value(), 503));
            case "connect-failed" -> site.answer(URL.value(), failure(FailureKind.CONNECT, "connection refused"));
            case "timeout" -> site.answer(URL.value(), failure(FailureKind.TIMEOUT, "read timed out"));
            case "dns-failed" -> site.answer(URL.value(), failure(FailureKind.DNS, "no such host"));
            case "tls-failed" -> site.answer(URL.value(), failure(FailureKind.TLS, "handshake failed"));
            case "read-failed" -> site.answer(URL.value(), failure(FailureKind.IO, "broken body"));
            case "blocked" -> site.answer(URL.value(), failure(FailureKind.BLOCKED,
                    "link-local address 169.254.169.254"));
            case "redirect-invalid" -> site.answer(URL.value(), redirect(URL.value(), 301, "http://exa mple.com/"));
            case "redirect-limit" -> {
                site.answer(URL.value(), redirect(URL.value(), 301, "https://example.com/r1"));
                for (int i = 1; i <= 6; i++) {
                    String hop = "https://example.com/r" + i;
                    site.answer(hop, redirect(hop, 301, "https://example.com/r" + (i + 1)));
                }
            }
            case "redirect-loop" -> {
                site.answer(URL.value(), redirect(URL.value(), 301, "https://example.com/a"));
                site.answer("https://example.com/a", redirect("https://example.com/a", 301, URL.value()));
            }
            case "dead-letter" -> {
                return fetchPage.deadLettered(send(URL));
            }
            case "batch-cancelled" -> batches.markCancelled(BATCH, START);
            case "sitemap-expanded", "sitemap-limit" -> {
                site.answer(URL.value(), ok(URL.value(), "<urlset/>"));
                sitemapReader = new ScriptedSitemapReader(50_000_000, Reason.ofCode(name).orElseThrow());
                return runToEnd(fetchPage(), sendSitemap(URL));
            }
            case "sitemap-unreadable" -> {
                site.answer(URL.value(), ok(URL.value(), "<urlset/>"));
                return runToEnd(fetchPage, sendSitemap(URL));
            }
            case "sitemap-robots-disallowed" -> {
                site.answer(ROBOTS, ok(ROBOTS, "User-agent: *\nDisallow: /page\n"));
                return runToEnd(fetchPage, sendSitemap(URL));
            }
            case "sitemap-http-error" -> {
                site.answer(URL.value(), status(URL.value(), 404));
                return runToEnd(fetchPage, sendSitemap(URL));
            }
            default -> throw new IllegalArgumentException("no setup for case " + name);
        }
        return runToEnd(fetchPage, send(URL));
    }

    @Test
    void process_whenTheJobReadsASitemap_asksWithTheReadersBodyCapAndHandsItTheAnswerWithoutAnEvent() {
        site.answer(URL.value(), ok(URL.value(), "<urlset/>"));
        ScriptedSitemapReader reader = new ScriptedSitemapReader(52_428_800, Reason.SITEMAP_EXPANDED);
        sitemapReader = reader;

        runToEnd(fetchPage(), sendSitemap(URL));

        assertEquals(List.of(URL.value() + " <urlset/>"), reader.read);
        assertEquals(java.util.OptionalInt.of(52_428_800), site.seen().getLast().request().maxBodyBytes());
        assertEquals(List.of(), fetchedEvents, "no url.fetched for a sitemap");
        assertEquals(ItemState.FETCHED, batches.item(BATCH, ItemKind.SITEMAP.key(URL)).orElseThrow().state());
        assertEquals(ItemState.QUEUED, state(URL), "the page of the same URL is another item");
    }

    @Test
    void process_whenTheJobReadsARobotsTxtThatIsMissing_handsTheReaderThe404WithThePageBodyCap() {
        NormalizedUrl robots = NormalizedUrl.parse(ROBOTS);
        site.answer(ROBOTS, status(ROBOTS, 404));
        List<Integer> read = new java.util.ArrayList<>();
        sitemapReader = new SitemapReader() {
            @Override
            public int maxBodyBytes() {
                return 52_428_800;
            }

            @Override
            public Ending read(FetchJob job, FetchJob at, FetchResult.Response response) {
                read.add(response.status());
                return new Ending(Reason.SITEMAP_EXPANDED, "robots.txt answered 404");
            }
        };

        FetchPage.Outcome outcome = runToEnd(fetchPage(), sendSitemap(robots,
                io.spiderling.core.fetch.SitemapTask.robotsTxtOfSite()));

        assertEquals(List.of(404), read, "the site has no robots.txt: it names no sitemap, which is no failure");
        assertEquals(ItemState.FETCHED, assertInstanceOf(FetchPage.Outcome.Ended.class, outcome).state());
        assertEquals(java.util.OptionalInt.empty(), site.seen().getLast().request().maxBodyBytes(),
                "a robots.txt is not given a sitemap's 50 MB");
    }

    @Test
    void process_whenTheJobReadsARobotsTxtThatFailsWithAServerError_retriesItAsAnyFetch() {
        NormalizedUrl robots = NormalizedUrl.parse(ROBOTS);
        // the gate's fetch for the rules succeeds; the job's own request of robots.txt then fails
        site.answer(ROBOTS, ok(ROBOTS, "Sitemap: https://example.com/sitemap.xml\n"), status(ROBOTS, 503));
        sitemapReader = new SitemapReader() {
            @Override
            public int maxBodyBytes() {
                return 52_428_800;
            }

            @Override
            public Ending read(FetchJob job, FetchJob at, FetchResult.Response response) {
                throw new AssertionError("a 503 is not read");
            }
        };
        FetchPage fetchPage = fetchPage();
        FetchJob job = sendSitemap(robots, io.spiderling.core.fetch.SitemapTask.robotsTxtOfSite());

        FetchPage.Outcome outcome = fetchPage.process(job);

        assertTrue(assertInstanceOf(FetchPage.Outcome.Requeued.class, outcome).why().startsWith("retry after"),
                outcome.toString());
        assertEquals(2, site.seen().size(), "the gate's request and the job's");
    }

    @Test
    void process_whenASitemapDatedThePageAfterItsFreshCopy_fetchesItAgain() {
        urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED,
                START.minus(Duration.ofHours(1))).httpStatus(200).contentKey("content/aa/x").contentSha256("sha")
                .freshUntil(START.plus(Duration.ofDays(1))).build());
        site.answer(URL.value(), ok(URL.value(), "<title>new</title>"));

        runToEnd(fetchPage(), sendListed(URL, START.minus(Duration.ofMinutes(30))));

        assertEquals(ItemState.FETCHED, state(URL));
        assertEquals(1, site.seen().stream().filter(s -> s.request().url().equals(URL.value())).count());
    }

    /** Claims {@code url} and parks it as a URL a sitemap listed with {@code lastmod}, as planning would. */
    private FetchJob sendListed(NormalizedUrl url, Instant lastmod) {
        urls.claim(url.urlHash(), url.value(), BATCH, clock.instant(), clock.instant().minusSeconds(1800));
        frontier.park(BATCH, List.of(Hop.of(url).withLastmod(lastmod)));
        return lastSent();
    }

    /** A sitemap reader that ends every sitemap with one reason, and keeps what it was handed: URL and body. */
    private static final class ScriptedSitemapReader implements SitemapReader {
        private final int maxBodyBytes;
        private final Reason reason;
        private final List<String> read = new java.util.ArrayList<>();

        ScriptedSitemapReader(int maxBodyBytes, Reason reason) {
            this.maxBodyBytes = maxBodyBytes;
            this.reason = reason;
        }

        @Override
        public int maxBodyBytes() {
            return maxBodyBytes;
        }

        @Override
        public Ending read(FetchJob job, FetchJob at, FetchResult.Response response) {
            read.add(at.request().value() + " " + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8));
            return new Ending(reason, "read " + response.body().length + " bytes");
        }
    }

    /** Adds {@code url} to the batch as a sitemap to read, and parks it as planning would. */
    private FetchJob sendSitemap(NormalizedUrl url) {
        return sendSitemap(url, io.spiderling.core.fetch.SitemapTask.named());
    }

    /** Adds {@code url} to the batch as a sitemap to read as {@code task} says, and parks it as planning would. */
    private FetchJob sendSitemap(NormalizedUrl url, io.spiderling.core.fetch.SitemapTask task) {
        batches.addEntries(BATCH, List.of(new io.spiderling.core.batch.ManifestEntry(9, url, ItemKind.SITEMAP)),
                clock.instant());
        frontier.park(BATCH, List.of(new Hop(url, io.spiderling.core.url.RequestUrl.parse(url.value()),
                Optional.empty(), List.of(), Optional.of(task))));
        return lastSent();
    }

    private static FetchResult failure(FailureKind kind, String message) {
        return new FetchResult.Failure(kind, message, Duration.ZERO);
    }

    @ParameterizedTest(name = "{0}: {1}, {2}")
    @org.junit.jupiter.params.provider.CsvFileSource(resources = "/pipeline/item-reason-cases.csv",
            numLinesToSkip = 1)
    void process_whenTheCaseEnds_recordsItsStateReasonAndDetail(String name, String state, String reason,
            String detail) {
        FetchPage.Outcome outcome = runCase(name);

        assertEquals(ItemState.fromWireName(state), assertInstanceOf(FetchPage.Outcome.Ended.class, outcome).state());
        boolean sitemap = name.startsWith("sitemap-");
        InMemoryBatchStore.Item item = batches.item(BATCH, (sitemap ? ItemKind.SITEMAP : ItemKind.PAGE).key(URL))
                .orElseThrow();
        assertEquals(ItemState.fromWireName(state), item.state(), name);
        assertEquals(Reason.ofCode(reason).orElseThrow(), item.reason(), name);
        if (detail == null) {
            assertEquals(null, item.detail(), name);
        } else {
            assertTrue(item.detail() != null && item.detail().matches(detail), name + ": " + item.detail());
        }
        urls.find(URL.urlHash()).flatMap(UrlStore.UrlRecord::fetch).filter(r -> r.fetchedAt().equals(item.endedAt()))
                .ifPresent(record -> assertEquals(item.reason(), record.reason(), name + ": the URL's row agrees"));
        if (sitemap) {
            assertEquals(Optional.empty(), urls.find(URL.urlHash()).flatMap(UrlStore.UrlRecord::fetch),
                    name + ": a sitemap leaves the page's row alone");
            assertTrue(blobs.isEmpty(), name + ": and stores no body");
        }
    }

    @Test
    void itemReasonCases_coverEveryReasonAFetchCanEndIn() throws java.io.IOException {
        Set<String> covered;
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(java.util.Objects.requireNonNull(
                getClass().getResourceAsStream("/pipeline/item-reason-cases.csv")),
                java.nio.charset.StandardCharsets.UTF_8)).lines()) {
            covered = lines.skip(1).map(line -> line.split(",")[2]).collect(java.util.stream.Collectors.toSet());
        }
        // Planning's own: a line that is no URL, a sitemap's entry the protocol refuses or that its lastmod skips, an
        // upload's chunk over its client's quota (PlanUploadTest).
        Set<Reason> planning = java.util.EnumSet.of(Reason.INVALID_URL, Reason.SITEMAP_OTHER_SITE,
                Reason.SITEMAP_OUTSIDE_PATH, Reason.OVER_QUOTA);
        Set<String> expected = java.util.EnumSet.complementOf(java.util.EnumSet.copyOf(planning)).stream()
                .map(Reason::code).collect(java.util.stream.Collectors.toSet());

        assertEquals(expected, covered, "planning's reasons are in BatchItemStoreContract and ExpandSitemapTest");
    }

    /** A batch over {@link #URL} created now, asking for Markdown or not. */
    private void markdownBatch(String batchId, boolean markdown) {
        batches.createBatch(BatchHeader.builder().batchId(batchId).total(1).source(BatchSource.HTTP)
                .createdAt(clock.instant()).options(BatchOptions.builder().markdown(markdown).build()).build());
        batches.addItems(batchId, List.of(URL), clock.instant());
    }

    private Map<String, String> storedMetadata(NormalizedUrl url) {
        String key = urls.find(url.urlHash()).orElseThrow().fetch().orElseThrow().contentKey().orElseThrow();
        return blobs.get(key).orElseThrow().metadata();
    }

    @Test
    void process_whenTheBatchAsksForMarkdown_flagsTheStoredBodyForTheExtractStageAndAsksNothingMore() {
        markdownBatch("m1", true);
        site.answer(URL.value(), ok(URL.value(), "<title>Page</title>"));

        fetchPage().process(sendFor("m1"));

        assertEquals("true", storedMetadata(URL).get(ObjectMetadata.MARKDOWN));
        assertEquals(List.of(), markdownWanted, "the extraction of the stored body renders it");
    }

    @Test
    void process_whenNoBatchAsksForMarkdown_leavesTheBodyUnflagged() {
        markdownBatch("m0", false);
        site.answer(URL.value(), ok(URL.value(), "<title>Page</title>"));

        fetchPage().process(sendFor("m0"));

        assertNull(storedMetadata(URL).get(ObjectMetadata.MARKDOWN));
        assertEquals(List.of(), markdownWanted);
    }

    @Test
    void process_whenOnlyAJoinedBatchAsksForMarkdown_asksForItOnTheRecord() {
        markdownBatch("m0", false);
        markdownBatch("m1", true);
        site.answer(URL.value(), ok(URL.value(), "<title>Page</title>"));

        fetchPage().process(sendFor("m0", "m1"));

        assertNull(storedMetadata(URL).get(ObjectMetadata.MARKDOWN), "the fetch was the other batch's");
        assertEquals(List.of(URL.value() + " fetched"), markdownWanted);
    }

    @Test
    void process_whenAFreshCopyAnswersABatchAskingForMarkdown_asksForItOnTheCopy() {
        site.answer(URL.value(), ok(URL.value(), "<title>Page</title>"));
        fetchPage().process(send(URL));
        clock.advance(Duration.ofMinutes(5));
        markdownBatch("m1", true);
        int asked = site.urls().size();

        FetchPage.Outcome outcome = fetchPage().process(sendFor("m1"));

        assertEquals(ItemState.SKIPPED, ((FetchPage.Outcome.Ended) outcome).state(), "a fresh copy answers it");
        assertEquals(asked, site.urls().size(), "the site is not asked again");
        assertEquals(List.of(URL.value() + " fetched"), markdownWanted);
    }

    @Test
    void process_whenTheRowHasTheMarkdownOfTheCopyAlready_asksForNone() {
        site.answer(URL.value(), ok(URL.value(), "<title>Page</title>"));
        fetchPage().process(send(URL));
        FetchRecord copy = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow();
        urls.recordExtraction(io.spiderling.core.extract.ExtractionRecord.builder().urlHash(URL.urlHash())
                .url(URL.value()).page(io.spiderling.core.extract.PageMetadata.builder().title("Page").build())
                .contentSha256(copy.contentSha256().orElseThrow()).contentFetchedAt(copy.fetchedAt())
                .extractedAt(copy.fetchedAt()).build());
        urls.recordMarkdown(URL.urlHash(), new io.spiderling.core.content.MarkdownCopy("d".repeat(64), 10,
                copy.contentSha256().orElseThrow(), Optional.empty(), Optional.empty()));
        clock.advance(Duration.ofMinutes(5));
        markdownBatch("m1", true);

        fetchPage().process(sendFor("m1"));

        assertEquals(List.of(), markdownWanted, "the row read at the start shows it");
    }

    @Test
    void process_whenARecrawlGetsTheSameBytesAndTheRowHasTheirMarkdown_rendersNoneAgain() {
        markdownBatch("m1", true);
        site.answer(URL.value(), ok(URL.value(), "<title>Page</title>"));
        fetchPage().process(sendFor("m1"));
        FetchRecord first = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow();
        urls.recordExtraction(io.spiderling.core.extract.ExtractionRecord.builder().urlHash(URL.urlHash())
                .url(URL.value()).page(io.spiderling.core.extract.PageMetadata.builder().title("Page").build())
                .contentSha256(first.contentSha256().orElseThrow()).contentFetchedAt(first.fetchedAt())
                .extractedAt(first.fetchedAt()).build());
        urls.recordMarkdown(URL.urlHash(), new io.spiderling.core.content.MarkdownCopy("e".repeat(64), 10,
                first.contentSha256().orElseThrow(), Optional.empty(), Optional.empty()));
        clock.advance(Duration.ofDays(60)); // past any freshness: fetched again, the same bytes
        markdownBatch("m2", true);

        fetchPage().process(sendFor("m2"));

        assertEquals(List.of(false), reusedAskingMarkdown, "the inline extraction is not asked to render again");
        assertEquals(List.of(), markdownWanted);
    }
}
