package io.spiderling.core.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.port.FetchQueue;
import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.testing.InMemoryFrontierStore;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FrontierTest {

    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
    private static final int CAP = 10;

    private final MutableClock clock = new MutableClock(T0);
    private final InMemoryFrontierStore store = new InMemoryFrontierStore();
    private final FakeFifo fifo = new FakeFifo();
    private final Frontier frontier =
            new Frontier(store, fifo, clock, new Frontier.Settings(CAP, Duration.ofSeconds(1), Duration.ofMinutes(15)));

    @Test
    void park_whenOneSiteHasFiveThousandUrls_keepsAtMostTheCapQueuedReleasesAllOnceAndDoesNotHoldBackAnotherSite() {
        frontier.park("big", urls("big.example", 5_000));
        frontier.park("small", urls("small.example", 10));
        assertEquals(CAP, fifo.queued(site("big.example")));
        assertEquals(10, fifo.queued(site("small.example")), "the second site is queued at once, not behind the first");

        Set<String> fetched = new HashSet<>();
        int maxQueued = 0;
        while (!fifo.isEmpty()) {
            FetchJob job = fifo.take();
            assertTrue(fetched.add(job.batchId() + " " + job.url().value()), "released twice: " + job);
            frontier.finished(job);
            maxQueued = Math.max(maxQueued, fifo.queued(site("big.example")));
        }

        assertEquals(5_010, fetched.size(), "everything parked was released");
        assertEquals(CAP, maxQueued);
        assertEquals(0, store.pending(site("big.example")));
        assertEquals(0, store.released(site("big.example")));
    }

    @Test
    void park_whenTwoClientsShareASite_interleavesTheLaterBatchInsteadOfQueueingItBehind() {
        frontier.park("early", urls("shared.example", 100));
        clock.advance(Duration.ofSeconds(20));
        frontier.park("late", urls("shared.example", 5).stream()
                .map(u -> Hop.of(NormalizedUrl.parse(u.url().value() + "-late"))).toList());

        List<String> order = new ArrayList<>();
        while (!fifo.isEmpty()) {
            FetchJob job = fifo.take();
            order.add(job.batchId());
            frontier.finished(job);
        }

        // The late batch's first URL is ordered at park time + 0 s, like the early batch's 21st: it is released within
        // the first few dozen, not after all 100.
        int firstLate = order.indexOf("late");
        assertTrue(firstLate > 0 && firstLate <= 30, "first late job at position " + firstLate);
        assertEquals(5, order.stream().filter("late"::equals).count());
    }

    @Test
    void sweep_whenAReleasedJobWasLost_sendsItAgainUnderANewDeduplicationIdEachTime() {
        frontier.park("b", urls("lossy.example", 1));
        FetchJob lost = fifo.take(); // taken and never finished: the message is gone

        clock.advance(Duration.ofMinutes(14)); // the site's first look is due (7.5 min), but lostAfter has not passed
        assertEquals(0, frontier.sweep().sent());
        clock.advance(Duration.ofMinutes(8)); // its next look, 7.5 min later
        assertEquals(1, frontier.sweep().sent());
        FetchJob again = fifo.take();
        clock.advance(Duration.ofMinutes(23)); // lost again, past lostAfter and at the site's next look
        assertEquals(1, frontier.sweep().sent());
        FetchJob third = fifo.take();

        assertEquals(List.of(lost.url(), lost.url()), List.of(again.url(), third.url()));
        assertEquals(List.of(2, 3), List.of(again.send(), third.send()));
        assertEquals(3, Set.of(lost.deduplicationId(), again.deduplicationId(), third.deduplicationId()).size(),
                "SQS FIFO forgets an id after 5 minutes, or drops the copy while it remembers: each re-send is new");
    }

    @Test
    void sweep_whenAnotherJobOfTheSiteWasDoneWithinLostAfter_doesNotSendAgainAJobStillInTheQueue() {
        frontier.park("b", urls("busy.example", 2));
        FetchJob first = fifo.take();
        clock.advance(Duration.ofMinutes(10));
        frontier.finished(first); // the site moves: the second job, behind it in the queue, is live
        assertEquals(1, fifo.queued(site("busy.example")));

        clock.advance(Duration.ofMinutes(12)); // released 22 minutes ago, but the site moved 12 minutes ago
        Frontier.SweepReport quiet = frontier.sweep();
        assertEquals(1, quiet.visited());
        assertEquals(0, quiet.sent(), "sending a live job again would fetch it twice");

        fifo.take(); // now lost
        clock.advance(Duration.ofMinutes(8)); // the site quiet for 20 minutes, at its next look
        assertEquals(1, frontier.sweep().sent());
        assertEquals(2, fifo.take().send());
    }

    @Test
    void finished_whenTheSitesLastJobEnds_leavesItsCounterToTheSweepWhoseLookDeletesItForGood() {
        frontier.park("b", urls("once.example", 1));
        frontier.finished(fifo.take());

        FrontierStore.SiteState emptied = store.state(site("once.example")).orElseThrow();
        assertTrue(emptied.empty());
        assertTrue(emptied.checkAt().isPresent(), "its mark stays, for the look that deletes it");
        clock.advance(Duration.ofHours(1));
        assertEquals(1, frontier.sweep().visited());
        assertEquals(java.util.Optional.empty(), store.state(site("once.example")));
        clock.advance(Duration.ofHours(1));
        assertEquals(0, frontier.sweep().visited(), "an idle site costs the sweep nothing once looked at");
    }

    @Test
    void park_whenAnEmptiedSiteGetsNewUrlsBeforeTheSweepsLook_keepsItsCounterAndMarkWithoutAnotherSchedule() {
        frontier.park("b1", urls("again.example", 1));
        frontier.finished(fifo.take());
        FrontierStore.SiteState emptied = store.state(site("again.example")).orElseThrow();
        clock.advance(Duration.ofMinutes(1));

        frontier.park("b2", urls("again.example", 2));

        FrontierStore.SiteState refilled = store.state(site("again.example")).orElseThrow();
        assertEquals(emptied.checkAt(), refilled.checkAt(), "the same look, not a new first look");
        assertEquals(2, refilled.released());
        frontier.finished(fifo.take());
        frontier.finished(fifo.take());
        clock.advance(Duration.ofMinutes(10));
        assertEquals(1, frontier.sweep().visited(), "one look, which deletes the emptied counter");
        assertEquals(java.util.Optional.empty(), store.state(site("again.example")));
    }

    @Test
    void release_whenAnEmptiedSiteWasNeverScheduled_deletesItsCounterAtOnce() {
        SiteKey never = site("never.example");
        store.park(new FrontierEntry("b", NormalizedUrl.parse("https://never.example/p"), 1, 0, clock.instant()));
        assertTrue(store.release(store.due(never, clock.instant(), 1).getFirst(), clock.instant(), CAP));
        store.done(never, new FrontierStore.EntryKey("b", NormalizedUrl.parse("https://never.example/p").urlHash(), 0),
                clock.instant());

        frontier.release(never);

        assertEquals(java.util.Optional.empty(), store.state(never), "no mark names it, so no look would delete it");
    }

    @Test
    void sweep_whenMoreSitesAreDueThanItsBound_looksAtTheOldestFirstAndAtTheRestInTheNextSweeps() {
        Frontier bounded = new Frontier(store, fifo, clock, new Frontier.Settings(CAP, Duration.ofSeconds(1),
                Duration.ofMinutes(15)).withSweep(Duration.ofMinutes(10), store.sweepShards()));
        List<SiteKey> sites = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            bounded.park("b" + i, urls("s" + i + ".example", 1));
            sites.add(site("s" + i + ".example"));
            clock.advance(Duration.ofSeconds(1));
        }
        clock.advance(Duration.ofMinutes(10)); // every site's first look is due
        Map<SiteKey, Instant> firstLook = new HashMap<>();
        sites.forEach(s -> firstLook.put(s, store.state(s).orElseThrow().checkAt().orElseThrow()));

        int sweeps = 0;
        int visited = 0;
        while (visited < sites.size()) {
            Frontier.SweepReport report = bounded.sweep();
            assertTrue(report.visited() <= store.sweepShards(), "at most the bound: " + report);
            visited += report.visited();
            sweeps++;
            clock.advance(Duration.ofMinutes(1));
        }

        assertTrue(sweeps <= sites.size(), "the bound leaves the rest for the next sweeps: " + sweeps);
        for (SiteKey s : sites) {
            assertTrue(store.state(s).orElseThrow().checkAt().orElseThrow().isAfter(firstLook.get(s)),
                    "looked at, and its next look set: " + s);
        }
        assertEquals(Duration.ZERO, bounded.sweep().behind());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvFileSource(resources = "/frontier/presumed-lost.csv", numLinesToSkip = 1)
    void presumedLost_whenTheSiteMovedOrNot_decidesFromItsLastProgress(int released, String progressMinutesAgo,
            boolean lost) {
        java.util.Optional<Instant> progressAt = progressMinutesAgo == null ? java.util.Optional.empty()
                : java.util.Optional.of(T0.minus(Duration.ofMinutes(Long.parseLong(progressMinutesAgo))));
        FrontierStore.SiteState state = new FrontierStore.SiteState(3, released, progressAt, java.util.Optional.empty());

        assertEquals(lost, Frontier.presumedLost(state, T0, Duration.ofMinutes(20)));
    }

    @Test
    void resendReleased_afterARestart_sendsEveryReleasedJobAgainAtOnceUnderANewSend() {
        frontier.park("b", urls("restart.example", CAP + 3));
        List<FetchJob> lost = new ArrayList<>();
        while (!fifo.isEmpty()) {
            lost.add(fifo.take()); // the queue was emptied; the jobs were released and never finished
        }
        assertEquals(CAP, lost.size());
        clock.advance(Duration.ofSeconds(5));

        Frontier.Resent resent = frontier.resendReleased();
        assertEquals(CAP, resent.entries());
        assertEquals(Set.of(lost.getFirst().siteKey()), resent.sites());

        List<FetchJob> again = new ArrayList<>();
        while (!fifo.isEmpty()) {
            again.add(fifo.take());
        }
        assertEquals(lost.stream().map(FetchJob::urlHash).sorted().toList(),
                again.stream().map(FetchJob::urlHash).sorted().toList(), "the same jobs, within the site's cap");
        for (FetchJob job : again) {
            assertEquals(2, job.send(), "a new send, so SQS FIFO does not drop it as a duplicate");
        }
        assertEquals(0, frontier.sweep().sent(), "nothing left for the sweep to find lost");
    }

    @Test
    void sweep_whenASiteAtItsCapHasDueEntries_reportsHowLongTheOldestHasWaited() {
        frontier.park("b", urls("backlog.example", CAP + 5));
        clock.advance(Duration.ofMinutes(8)); // the site's first look is due after 7.5 minutes

        Frontier.SweepReport report = frontier.sweep();

        assertEquals(0, report.sent(), "the site's places are all taken");
        assertEquals(Duration.ofMinutes(8), report.lag());
    }

    @Test
    void sweep_whenEveryDueEntryFitsUnderTheCap_reportsNoLag() {
        frontier.park("b", urls("light.example", 3));
        clock.advance(Duration.ofMinutes(8));

        assertEquals(Duration.ZERO, frontier.sweep().lag());
    }

    @Test
    void sweep_whenFetchingIsPaused_reportsTheWaitOfWhatCannotBeReleased() {
        MutableSwitch paused = new MutableSwitch();
        Frontier switched = new Frontier(store, fifo, clock, new Frontier.Settings(CAP, Duration.ofSeconds(1),
                Duration.ofMinutes(15)), paused);
        paused.paused = true;
        switched.park("b", urls("held.example", 2));
        clock.advance(Duration.ofMinutes(8));

        Frontier.SweepReport report = switched.sweep();

        assertEquals(0, report.sent());
        assertEquals(Duration.ofMinutes(8), report.lag());
    }

    @Test
    void sweep_whenFetchingResumes_releasesWhatTheSwitchHeldAtTheNextSweepNotAPeriodLater() {
        MutableSwitch paused = new MutableSwitch();
        Frontier switched = new Frontier(store, fifo, clock, new Frontier.Settings(CAP, Duration.ofSeconds(1),
                Duration.ofMinutes(15)), paused);
        paused.paused = true;
        switched.park("b", urls("held.example", 3));
        assertEquals(0, fifo.queued(site("held.example")), "held while paused");
        clock.advance(Frontier.PAUSED_LOOK);
        assertEquals(0, switched.sweep().sent(), "still paused: looked at, and held");

        paused.paused = false;
        clock.advance(Frontier.PAUSED_LOOK);

        assertEquals(3, switched.sweep().sent());
        assertEquals(3, fifo.queued(site("held.example")));
    }

    @Test
    void park_whenSameBatchParksAgain_keepsOneEntryPerUrl() {
        List<Hop> urls = urls("again.example", 3);
        frontier.park("b", urls);
        frontier.park("b", urls);

        assertEquals(3, fifo.queued(site("again.example")));
    }

    @Test
    void release_whenTheSendFails_putsTheJobsBackSoTheNextReleaseSendsThemUnderANewDeduplicationId() {
        fifo.failNextSend = true;
        RuntimeException failed = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> frontier.park("b", urls("down.example", 3)));
        assertEquals("send refused", failed.getMessage());
        assertEquals(0, store.released(site("down.example")), "nothing stays released without a message");
        assertEquals(1, store.pending(site("down.example")), "the first URL, sent at once, is back to wait");

        frontier.park("b", urls("down.example", 3)); // the planning, delivered again
        assertEquals(3, fifo.queued(site("down.example")), "due at once, not after lostAfter");
        Set<String> ids = new HashSet<>();
        while (!fifo.isEmpty()) {
            ids.add(fifo.take().deduplicationId());
        }
        assertEquals(3, ids.size());
        assertTrue(ids.stream().noneMatch(fifo.refusedIds::contains),
                "a send that failed may have landed: its ids are not reused, or SQS FIFO would drop the new copies");
    }

    @Test
    void parking_whenASiteFillsItsDepthInOneGroup_releasesItThenAndTheRestAtTheEnd() {
        Frontier.Parking parking = frontier.parking("upload");
        parking.park(urls("big.example", 100).subList(0, 50));
        parking.park(urls("small.example", CAP - 1));
        assertEquals(CAP, fifo.queued(site("big.example")), "a full depth is released before the chunk ends");
        assertEquals(1, fifo.queued(site("small.example")),
                "a site short of its depth sends its first URL at once, and the others wait for the end");

        parking.park(urls("big.example", 100).subList(50, 100));
        assertEquals(CAP, fifo.queued(site("big.example")), "released once per site, at its cap");
        parking.release();
        assertEquals(CAP - 1, fifo.queued(site("small.example")));
        assertEquals(100 - CAP, store.pending(site("big.example")));
    }

    @Test
    void park_whenTheSitesAreNew_sendsTheirFirstUrlsInTheWriteThatParksThemAndSchedulesTheirLook() {
        frontier.park("b", urls("new.example", CAP + 2));

        assertEquals(CAP, fifo.queued(site("new.example")));
        assertEquals(2, store.pending(site("new.example")), "beyond the cap they wait");
        FrontierStore.SiteState state = store.state(site("new.example")).orElseThrow();
        assertEquals(CAP, state.released());
        assertTrue(state.checkAt().isPresent(), "the sweep looks at it from now on");
        List<String> sent = new ArrayList<>();
        while (!fifo.isEmpty()) {
            sent.add(fifo.take().url().value());
        }
        assertEquals(urls("new.example", CAP).stream().map(h -> h.url().value()).toList(), sent, "in order");
    }

    @Test
    void parking_whenASitesUrlsComeInSeveralGroups_sendsTheFirstAtOnceAndTheRestWhenTheCapIsReached() {
        Frontier.Parking parking = frontier.parking("upload");
        List<Hop> all = urls("spread.example", CAP + 3);
        parking.park(all.subList(0, 4));
        parking.park(all.subList(4, CAP - 1));
        assertEquals(1, fifo.queued(site("spread.example")), "the first at once: it fetches robots.txt");
        assertEquals(CAP - 2, store.pending(site("spread.example")));
        parking.park(all.subList(CAP - 1, CAP + 3));
        assertEquals(CAP, fifo.queued(site("spread.example")), "the cap reached: released");
        parking.release();

        assertEquals(CAP, fifo.queued(site("spread.example")));
        assertEquals(3, store.pending(site("spread.example")));
        assertEquals(CAP, store.released(site("spread.example")));
        List<String> sent = new ArrayList<>();
        while (!fifo.isEmpty()) {
            sent.add(fifo.take().url().value());
        }
        assertEquals(all.subList(0, CAP).stream().map(h -> h.url().value()).toList(), sent);
    }

    @Test
    void park_whenTheSiteHasABacklog_parksTheNewBatchToInterleaveWithIt() {
        frontier.park("first", urls("busy.example", CAP + 5));
        while (!fifo.isEmpty()) {
            fifo.take();
        }

        frontier.park("second", urls("busy.example", 3));

        assertEquals(0, fifo.queued(site("busy.example")), "at its cap: nothing more goes out");
        assertEquals(5 + 3, store.pending(site("busy.example")), "the second batch waits with the first's backlog");
    }

    @Test
    void park_whenThePlanningIsDeliveredAgain_sendsNothingTwice() {
        frontier.park("b", urls("again.example", 3));
        assertEquals(3, fifo.queued(site("again.example")));

        frontier.park("b", urls("again.example", 3));

        assertEquals(3, fifo.queued(site("again.example")), "parked and sent once");
        assertEquals(3, store.released(site("again.example")));
        assertEquals(0, store.pending(site("again.example")));
    }

    private static List<Hop> urls(String host, int n) {
        return IntStream.range(0, n).mapToObj(i -> Hop.of(NormalizedUrl.parse("https://" + host + "/p/" + i)))
                .toList();
    }

    private static SiteKey site(String host) {
        return NormalizedUrl.parse("https://" + host + "/").siteKey();
    }

    /** The fetch queue seen from outside: jobs in send order, counted per site while they wait. */
    private static final class FakeFifo implements FetchQueue {
        private final Deque<FetchJob> jobs = new ArrayDeque<>();
        private final Map<SiteKey, Integer> perSite = new HashMap<>();
        private final Set<String> refusedIds = new HashSet<>();
        private boolean failNextSend;

        @Override
        public void enqueue(List<FetchJob> batch) {
            if (failNextSend) {
                failNextSend = false;
                batch.forEach(job -> refusedIds.add(job.deduplicationId()));
                throw new IllegalStateException("send refused");
            }
            for (FetchJob job : batch) {
                jobs.add(job);
                perSite.merge(job.siteKey(), 1, Integer::sum);
            }
        }

        FetchJob take() {
            FetchJob job = jobs.removeFirst();
            perSite.merge(job.siteKey(), -1, Integer::sum);
            return job;
        }

        int queued(SiteKey site) {
            return perSite.getOrDefault(site, 0);
        }

        boolean isEmpty() {
            return jobs.isEmpty();
        }
    }

    private static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    /** The kill switch, flipped by the test. */
    private static final class MutableSwitch implements io.spiderling.core.port.FetchSwitch {
        boolean paused;

        @Override
        public boolean paused() {
            return paused;
        }
    }
}
