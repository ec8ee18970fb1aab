package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What {@link FrontierStore}'s javadoc promises, run against every implementation. Implementations may share one
 * store between the tests of a class, so each test works on sites named after the test.
 */
public abstract class FrontierStoreContract {

    protected static final Instant NOW = Instant.parse("2025-03-01T10:00:00.123Z");

    protected FrontierStore store;
    private String base;

    /** A store for one test; it may hold other tests' sites. */
    protected abstract FrontierStore createStore();

    @BeforeEach
    void createStoreAndNameSites(TestInfo test) {
        store = createStore();
        base = Contracts.nameOf(test);
    }

    @Test
    void due_whenEntriesParked_returnsDueEntriesByNumericOrderUpToLimit() {
        FrontierEntry o100 = entry("a", 100, NOW);
        FrontierEntry o9 = entry("b", 9, NOW.minusSeconds(60));
        FrontierEntry o10 = entry("c", 10, NOW);
        FrontierEntry notYet = entry("d", 1, NOW.plusMillis(1));
        FrontierEntry o50 = entry("e", 50, NOW);
        for (FrontierEntry e : List.of(o100, o9, o10, notYet, o50)) {
            assertTrue(store.park(e), e::toString);
        }

        assertEquals(List.of(o9, o10, o50), store.due(site(), NOW, 3));
        assertEquals(List.of(o9, o10, o50, o100), store.due(site(), NOW, 10));
        assertEquals(List.of(notYet, o9, o10, o50, o100), store.due(site(), NOW.plusSeconds(1), 10));
        assertEquals(List.of(), store.due(site("other"), NOW, 10));
    }

    @Test
    void due_whenEntriesInSeveralPartitions_mergesThemInReleaseOrderWithinTheSpreadRead() {
        List<FrontierEntry> entries = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            // Orders 12 down to 1 over partitions 0 to 3, so that no partition holds consecutive orders.
            FrontierEntry e = inPartition(entry("p" + i, 12 - i, NOW), i % 4);
            entries.add(e);
            assertTrue(store.park(e), e::toString);
        }
        FrontierStore.SiteState state = store.state(site()).orElseThrow();
        assertEquals(4, state.spread(), "one more than the highest partition parked in");
        List<FrontierEntry> byOrder = entries.stream().sorted(Comparator.comparingLong(FrontierEntry::order)).toList();

        assertEquals(byOrder.subList(0, 5), store.due(site(), state.spread(), NOW, 5));
        assertEquals(byOrder, store.due(site(), state.spread(), NOW, 100));
        assertEquals(byOrder, store.due(site(), NOW, 100), "the counter's spread when the caller has none");
        assertEquals(byOrder.stream().filter(e -> e.partition() == 0).toList(), store.due(site(), 1, NOW, 100),
                "a spread of one reads the first partition only");
    }

    @Test
    void done_whenJobOfAnEntryInAPartition_findsItByTheJobsPartitionOnly() {
        FrontierEntry e = inPartition(entry("a", 1, NOW), 3);
        assertTrue(store.park(e));
        assertTrue(store.release(e, NOW, 5));
        FetchJob job = e.job();
        assertEquals(3, job.partition(), "the job carries its entry's partition");

        store.done(site(), new FrontierStore.EntryKey(e.batchId(), e.urlHash(), 0), NOW);
        assertEquals(1, store.released(site()), "another partition's key is another entry");
        store.done(site(), FrontierStore.EntryKey.of(job), NOW);
        assertEquals(0, store.released(site()));
    }

    @Test
    void requeue_whenJobOfAnEntryInAPartition_putsItBackThereWithItsPartition() {
        FrontierEntry e = inPartition(entry("a", 1, NOW), 2);
        assertTrue(store.park(e));
        assertTrue(store.release(e, NOW, 5));
        assertEquals(List.of(e.with(e.attempt(), e.notBefore(), 1)), store.releasedBefore(site(), NOW.plusSeconds(1)),
                "the released entry is found in its partition");

        assertTrue(store.requeue(e.job(), 1, NOW.plusSeconds(5), NOW));

        List<FrontierEntry> due = store.due(site(), NOW.plusSeconds(5), 10);
        assertEquals(1, due.size());
        assertEquals(2, due.getFirst().partition());
        assertEquals(List.of(due.getFirst()), store.pendingOfBatch(site(), e.batchId(), 10));
        assertTrue(store.release(due.getFirst(), NOW.plusSeconds(5), 5));
        assertEquals(2, due.getFirst().job().partition());
    }

    @Test
    void parkReleased_whenEntriesInPartitions_countsThemInTheSpread() {
        FrontierEntry e = inPartition(entry("a", 1, NOW), 5);

        assertEquals(java.util.Set.of(site()), store.parkReleased(List.of(e), NOW, site -> 10));

        assertEquals(6, store.state(site()).orElseThrow().spread());
        store.done(site(), FrontierStore.EntryKey.of(e.job()), NOW);
        assertEquals(0, store.released(site()));
    }

    @Test
    void park_whenSameBatchAndUrlAlreadyPending_returnsFalseAndDueListsItOnce() {
        FrontierEntry first = entry("a", 1, NOW);

        assertTrue(store.park(first));
        assertFalse(store.park(new FrontierEntry(first.batchId(), first.url(), 2, 7, NOW)));

        assertEquals(List.of(first), store.due(site(), NOW, 10));
    }

    @Test
    void park_whenSameUrlInAnotherBatch_parksBoth() {
        FrontierEntry first = entry("a", 1, NOW);
        FrontierEntry other = new FrontierEntry("other-batch", first.url(), 0, 2, NOW);

        assertTrue(store.park(first));
        assertTrue(store.park(other));

        assertEquals(List.of(first, other), store.due(site(), NOW, 10));
    }

    @Test
    void park_whenSameBatchAndUrlReleased_returnsFalse() {
        FrontierEntry e = entry("a", 1, NOW);
        store.park(e);
        assertTrue(store.release(e, NOW, 5));

        assertFalse(store.park(e));

        assertEquals(List.of(), store.due(site(), NOW, 10));
        assertEquals(1, store.released(site()));
    }

    @Test
    void parkAll_whenSomeAlreadyParkedOrReleased_parksTheRestOnce() {
        List<FrontierEntry> entries = new ArrayList<>();
        for (int i = 0; i < 120; i++) { // more than one write of an adapter that batches them
            entries.add(entry("p" + i, i, NOW));
        }
        store.park(entries.get(5));
        store.park(entries.get(60));
        assertTrue(store.release(entries.get(60), NOW, 10));

        assertEquals(118, store.parkAll(entries));
        assertEquals(0, store.parkAll(entries), "parked again");

        assertEquals(119, store.due(site(), NOW, 500).size());
        assertEquals(1, store.released(site()));
    }

    @Test
    void parkAll_whenEntriesOfManySites_parksEachInItsSite() {
        List<FrontierEntry> entries = new ArrayList<>();
        for (int i = 0; i < 90; i++) { // 30 sites, interleaved
            entries.add(entry("s" + (i % 30), "p" + i, i, NOW));
        }

        assertEquals(90, store.parkAll(entries));

        for (int s = 0; s < 30; s++) {
            assertEquals(3, store.due(site("s" + s), NOW, 10).size(), "site s" + s);
        }
    }

    @Test
    void pendingOfBatch_whenBatchesShareASite_listsOnlyTheBatchsPendingEntriesUpToLimit() {
        FrontierEntry a1 = entry("a1", 1, NOW);
        FrontierEntry a2 = entry("a2", 2, NOW.plusSeconds(60));
        FrontierEntry a3 = entry("a3", 3, NOW);
        FrontierEntry other = new FrontierEntry("other-batch", a1.url(), 0, 4, NOW);
        List.of(a1, a2, a3, other).forEach(store::park);
        store.release(a3, NOW, 5);

        List<FrontierEntry> pending = store.pendingOfBatch(site(), a1.batchId(), 10);

        assertEquals(List.of(a1, a2), pending.stream().sorted(Comparator.comparingLong(FrontierEntry::order)).toList());
        assertEquals(1, store.pendingOfBatch(site(), a1.batchId(), 1).size());
        assertEquals(List.of(), store.pendingOfBatch(site(), "no-such-batch", 10));
    }

    @Test
    void release_whenPending_movesItOutOfDueAndCountsIt() {
        FrontierEntry e = entry("a", 4, NOW);
        store.park(e);

        assertTrue(store.release(e, NOW, 5));

        assertEquals(List.of(), store.due(site(), NOW, 10));
        assertEquals(1, store.released(site()));
    }

    @Test
    void release_whenNoLongerPending_returnsFalseAndCountsNothing() {
        FrontierEntry e = entry("a", 1, NOW);
        store.park(e);
        store.release(e, NOW, 5);

        assertFalse(store.release(e, NOW, 5));
        assertFalse(store.release(entry("never-parked", 2, NOW), NOW, 5));

        assertEquals(1, store.released(site()));
    }

    @Test
    void release_whenTheCopyReadWasSentAndCameBackSince_returnsFalseAndCountsNothing() {
        store.park(entry("stale", 1, NOW));
        FrontierEntry readByTheSweep = store.due(site(), NOW, 1).getFirst();
        // Meanwhile another releaser sends it, and its job is refused and comes back to wait.
        assertTrue(store.release(store.due(site(), NOW, 1).getFirst(), NOW, 5));
        assertTrue(store.requeue(readByTheSweep.sentJob(), 1, NOW, NOW));

        assertFalse(store.release(readByTheSweep, NOW, 5), "a stale copy would re-send a deduplication id just seen");
        assertFalse(store.releaseAll(site(), List.of(readByTheSweep, entry("stale-other", 2, NOW)), NOW, 5)
                .contains(readByTheSweep));

        assertEquals(0, store.released(site()));
        FrontierEntry current = store.due(site(), NOW, 1).getFirst();
        assertEquals(readByTheSweep.send() + 1, current.send());
        assertEquals(List.of(current), store.releaseAll(site(), List.of(current), NOW, 5));
    }

    @Test
    void release_whenSiteAtCap_refusesUntilOneIsDone() {
        List<FrontierEntry> entries = IntStream.range(0, 5).mapToObj(i -> entry("p" + i, i, NOW)).toList();
        entries.forEach(store::park);

        List<Boolean> results = entries.stream().map(e -> store.release(e, NOW, 3)).toList();

        assertEquals(List.of(true, true, true, false, false), results);
        assertEquals(3, store.released(site()));
        assertEquals(entries.subList(3, 5), store.due(site(), NOW, 10), "refused entries stay pending");

        FrontierEntry first = entries.getFirst();
        store.done(site(), FrontierStore.EntryKey.of(first), NOW);
        assertEquals(2, store.released(site()));
        assertTrue(store.release(entries.get(3), NOW, 3));
        assertFalse(store.release(entries.get(4), NOW, 3));

        store.done(site(), FrontierStore.EntryKey.of(first), NOW);
        store.done(site(), new FrontierStore.EntryKey("no-such-batch", first.urlHash(), 0), NOW);
        assertEquals(3, store.released(site()), "a repeated done must not count twice");
        assertEquals(List.of(entries.get(4)), store.due(site(), NOW, 10));
    }

    @Test
    void release_whenThreadsRaceAtCap_exactlyCapSucceed() throws Exception {
        List<FrontierEntry> entries = IntStream.range(0, 20).mapToObj(i -> entry("p" + i, i, NOW)).toList();
        entries.forEach(store::park);
        int cap = 5;

        List<Integer> wins = Contracts.race(IntStream.range(0, 8).mapToObj(t -> (Callable<Integer>) () -> {
            int won = 0;
            for (int i = 0; i < entries.size(); i++) {
                // Each thread starts at another entry, so threads race on the same entries and on the count.
                won += store.release(entries.get((i + t * 3) % entries.size()), NOW, cap) ? 1 : 0;
            }
            return won;
        }).toList());

        assertEquals(cap, wins.stream().mapToInt(Integer::intValue).sum(), "wins per thread " + wins);
        assertEquals(cap, store.released(site()));
        assertEquals(entries.size() - cap, store.due(site(), NOW, 100).size());
    }

    @Test
    void releaseAll_whenRoomForAll_releasesThemAllInOrderAndCountsThem() {
        List<FrontierEntry> entries = IntStream.range(0, 4).mapToObj(i -> entry("all" + i, i, NOW)).toList();
        entries.forEach(store::park);

        assertEquals(entries, store.releaseAll(site(), entries, NOW, 10));

        assertEquals(4, store.released(site()));
        assertEquals(List.of(), store.due(site(), NOW, 10));
    }

    @Test
    void releaseAll_whenTheCapLeavesRoomForSome_releasesUpToIt() {
        List<FrontierEntry> entries = IntStream.range(0, 5).mapToObj(i -> entry("some" + i, i, NOW)).toList();
        entries.forEach(store::park);

        assertEquals(entries.subList(0, 3), store.releaseAll(site(), entries, NOW, 3));

        assertEquals(3, store.released(site()));
        assertEquals(entries.subList(3, 5), store.due(site(), NOW, 10), "what found no room stays pending");
    }

    @Test
    void requeue_whenReleased_goesBackToPendingWithItsOrderAndSendCount() {
        FrontierEntry e = entry("p", 7, NOW);
        store.park(e);
        store.release(e, NOW, 10);

        assertTrue(store.requeue(e.sentJob(), 2, NOW.plusSeconds(60), NOW));
        assertFalse(store.requeue(e.sentJob(), 2, NOW.plusSeconds(60), NOW), "a duplicate delivery");

        assertEquals(List.of(), store.due(site(), NOW, 10), "not due before its time");
        assertEquals(0, store.released(site()));
        FrontierEntry back = store.due(site(), NOW.plusSeconds(60), 10).getFirst();
        assertEquals(7, back.order());
        assertEquals(2, back.attempt());
        assertEquals(1, back.send(), "sent once so far");
        assertTrue(store.release(back, NOW.plusSeconds(60), 10));
        assertEquals(2, store.releasedBefore(site(), NOW.plusSeconds(61)).getFirst().send(), "its second send");
    }

    @Test
    void requeue_whenTheChainWaitsAtALaterHop_keepsTheItemsKeyAndResumesAtThatHop() {
        FrontierEntry e = entry("chain/3", 4, NOW);
        store.park(e);
        store.release(e, NOW, 10);
        NormalizedUrl second = NormalizedUrl.parse("https://www." + site("").value() + "/chain/2");
        FetchJob atSecondHop = e.job().continuedAt(new Hop(second, RequestUrl.parse(second.value()),
                Optional.of(e.url()), List.of(e.url().value())));

        assertTrue(store.requeue(atSecondHop, 1, NOW.plusSeconds(5), NOW));

        FrontierEntry back = store.due(site(), NOW.plusSeconds(5), 10).getFirst();
        assertEquals(e.urlHash(), back.urlHash(), "still the item's entry");
        assertEquals(4, back.order());
        assertEquals(second, back.url());
        assertEquals(Optional.of(e.url()), back.origin());
        assertEquals(List.of(e.url().value()), back.via());
        assertTrue(store.release(back, NOW.plusSeconds(5), 10));
        assertEquals(atSecondHop.url(), store.releasedBefore(site(), NOW.plusSeconds(6)).getFirst().job().url());
    }

    @Test
    void park_whenTheSpellingDiffersFromTheKey_keepsTheSpellingThroughReleaseAndRequeue() {
        NormalizedUrl key = NormalizedUrl.parse("https://www." + site("").value() + "/p?a=1&b=2");
        RequestUrl written = RequestUrl.parse("https://www." + site("").value() + "/p?b=2&utm_source=x&a=1");
        FrontierEntry e = new FrontierEntry("batch-1", new Hop(key, written, Optional.empty(), List.of()), 1, 3, NOW);
        store.park(e);

        FrontierEntry due = store.due(site(), NOW, 10).getFirst();
        assertEquals(written, due.hop().request());
        assertTrue(store.release(due, NOW, 10));
        assertEquals(written, store.releasedBefore(site(), NOW.plusSeconds(1)).getFirst().job().request());
        assertTrue(store.requeue(due.job(), 1, NOW, NOW));
        assertEquals(written, store.due(site(), NOW, 10).getFirst().hop().request());
    }

    @Test
    void park_whenABatchNamesAUrlAsAPageAndAsASitemap_keepsTwoEntriesAndTheSitemapKeepsItsTask() {
        NormalizedUrl url = NormalizedUrl.parse("https://www." + site("").value() + "/sitemap.xml");
        SitemapTask task = new SitemapTask(2, List.of("https://www." + site("").value() + "/robots.txt"));
        FrontierEntry page = new FrontierEntry("batch-1", Hop.of(url), 1, 1, NOW);
        FrontierEntry sitemap = new FrontierEntry("batch-1", new Hop(url, RequestUrl.parse(url.value()),
                Optional.empty(), List.of(), Optional.of(task)), 1, 2, NOW);
        store.park(page);
        store.park(sitemap);

        List<FrontierEntry> due = store.due(site(), NOW, 10);

        assertEquals(2, due.size(), due.toString());
        assertEquals(Optional.of(task), due.get(1).hop().sitemap());
        assertEquals(SitemapTask.itemKey(url), due.get(1).urlHash(), "the sitemap's own item key");
        assertEquals(url.urlHash(), due.get(0).urlHash());
        assertTrue(store.release(due.get(1), NOW, 10));
        assertEquals(Optional.of(task), store.releasedBefore(site(), NOW.plusSeconds(1)).getFirst().job().hop()
                .sitemap());
    }

    @Test
    void park_whenASitemapDatedThePage_keepsItsLastmodThroughTheRelease() {
        Instant lastmod = Instant.parse("2026-11-01T10:00:00.123Z");
        NormalizedUrl url = NormalizedUrl.parse("https://www." + site("").value() + "/p");
        FrontierEntry dated = new FrontierEntry("batch-1", Hop.of(url).withLastmod(lastmod), 1, 1, NOW);
        store.park(dated);

        FrontierEntry due = store.due(site(), NOW, 10).getFirst();

        assertEquals(Optional.of(lastmod), due.hop().lastmod());
        assertTrue(store.release(due, NOW, 10));
        assertEquals(Optional.of(lastmod), store.releasedBefore(site(), NOW.plusSeconds(1)).getFirst().job().hop()
                .lastmod());
    }

    @Test
    void park_whenTheEntryReadsARobotsTxtForItsSitemaps_keepsTheMarkThroughDueAndRelease() {
        NormalizedUrl url = NormalizedUrl.parse("https://www." + site("").value() + "/robots.txt");
        SitemapTask task = SitemapTask.robotsTxtOfSite();
        store.park(new FrontierEntry("batch-1", new Hop(url, RequestUrl.parse(url.value()), Optional.empty(),
                List.of(), Optional.of(task)), 1, 1, NOW));

        FrontierEntry due = store.due(site(), NOW, 10).getFirst();

        assertEquals(Optional.of(task), due.hop().sitemap());
        assertTrue(store.release(due, NOW, 10));
        assertEquals(Optional.of(task), store.releasedBefore(site(), NOW.plusSeconds(1)).getFirst().job().hop()
                .sitemap());
    }

    @Test
    void requeue_whenNeverReleased_returnsFalseAndLeavesThePendingEntry() {
        FrontierEntry e = entry("p", 7, NOW);
        store.park(e);

        assertFalse(store.requeue(e.sentJob(), 3, NOW.plusSeconds(60), NOW));

        assertEquals(List.of(e), store.due(site(), NOW, 10));
    }

    @Test
    void doneAll_whenOneIsNotReleased_removesTheOthersAndCountsEachOnce() {
        List<FrontierEntry> entries = IntStream.range(0, 3).mapToObj(i -> entry("done" + i, i, NOW)).toList();
        entries.forEach(store::park);
        store.releaseAll(site(), entries, NOW, 10);
        store.done(site(), FrontierStore.EntryKey.of(entries.get(1)), NOW); // a duplicate delivery got there first

        store.doneAll(site(), entries.stream().map(FrontierStore.EntryKey::of)
                .toList(), NOW);

        assertEquals(0, store.released(site()));
        assertEquals(List.of(), store.releasedBefore(site(), NOW.plusSeconds(1)));
    }

    @Test
    void doneAndRelease_whenTheDonesPlacesMakeRoom_releasesIntoThemAndCountsOnce() {
        List<FrontierEntry> entries = IntStream.range(0, 4).mapToObj(i -> entry("dr" + i, i, NOW)).toList();
        store.parkAll(entries);
        store.releaseAll(site(), entries.subList(0, 2), NOW, 2);

        List<FrontierEntry> released = store.doneAndRelease(site(), keys(entries.subList(0, 2)),
                entries.subList(2, 4), NOW.plusSeconds(3), 2);

        assertEquals(entries.subList(2, 4), released);
        assertEquals(new FrontierStore.SiteState(0, 2, Optional.of(NOW.plusSeconds(3)), Optional.empty()),
                store.state(site()).orElseThrow(), "the handled jobs are progress");
        assertEquals(List.of(), store.due(site(), NOW, 10));
        assertEquals(List.of(2L, 3L), store.releasedBefore(site(), NOW.plusSeconds(5)).stream()
                .map(FrontierEntry::order).sorted().toList(), "the handled entries are gone");
    }

    @Test
    void doneAndRelease_whenTheCapLeavesRoomForFewer_releasesUpToIt() {
        List<FrontierEntry> entries = IntStream.range(0, 4).mapToObj(i -> entry("few" + i, i, NOW)).toList();
        store.parkAll(entries);
        store.releaseAll(site(), entries.subList(0, 2), NOW, 2);

        List<FrontierEntry> released = store.doneAndRelease(site(), keys(entries.subList(0, 1)),
                entries.subList(2, 4), NOW, 2);

        assertEquals(entries.subList(2, 3), released);
        assertEquals(2, store.released(site()));
        assertEquals(entries.subList(3, 4), store.due(site(), NOW, 10), "what found no room stays pending");
    }

    @Test
    void doneAndRelease_whenOneDoneIsNotReleased_releasesAndCountsEachOnce() {
        List<FrontierEntry> entries = IntStream.range(0, 3).mapToObj(i -> entry("dup" + i, i, NOW)).toList();
        store.parkAll(entries);
        store.releaseAll(site(), entries.subList(0, 2), NOW, 5);
        FrontierEntry first = entries.getFirst();
        store.done(site(), FrontierStore.EntryKey.of(first), NOW); // a duplicate delivery got there first

        List<FrontierEntry> released = store.doneAndRelease(site(), keys(entries.subList(0, 2)),
                entries.subList(2, 3), NOW, 5);

        assertEquals(entries.subList(2, 3), released);
        assertEquals(new FrontierStore.SiteState(0, 1, Optional.of(NOW), Optional.empty()),
                store.state(site()).orElseThrow());
    }

    @Test
    void doneAndRelease_whenAnEntryWasTakenByAnotherReleaser_skipsItAndFreesThePlaces() {
        List<FrontierEntry> entries = IntStream.range(0, 3).mapToObj(i -> entry("took" + i, i, NOW)).toList();
        store.parkAll(entries);
        store.releaseAll(site(), entries.subList(0, 2), NOW, 5);

        List<FrontierEntry> released = store.doneAndRelease(site(), keys(entries.subList(0, 1)),
                entries.subList(1, 3), NOW, 5);

        assertEquals(entries.subList(2, 3), released, "the entry released already is not sent again");
        assertEquals(2, store.released(site()));
        assertEquals(List.of(), store.due(site(), NOW, 10));
    }

    @Test
    void done_whenEntryIsPending_leavesIt() {
        FrontierEntry e = entry("p", 1, NOW);
        store.park(e);

        store.done(site(), FrontierStore.EntryKey.of(e), NOW);

        assertEquals(List.of(e), store.due(site(), NOW, 10));
        assertEquals(0, store.released(site()));
    }

    @Test
    void activeSites_whenSitesHavePendingOrReleasedEntries_listsEachOnce() {
        FrontierEntry pending = entry("pending", "a", 1, NOW);
        FrontierEntry released = entry("released", "a", 1, NOW);
        List.of(pending, released).forEach(store::park);
        store.release(released, NOW, 5);

        List<SiteKey> active = store.activeSites();

        assertTrue(active.containsAll(List.of(pending.site(), released.site())), active::toString);
        assertEquals(active.size(), active.stream().distinct().count(), "no site twice");
    }

    @Test
    void parkReleased_whenTheSiteHasNothingPendingAndRoom_releasesThemForTheirFirstSendInOneGo() {
        FrontierEntry a = entry("a", 1, NOW);
        FrontierEntry b = entry("b", 2, NOW);

        assertTrue(store.parkReleased(List.of(a, b), NOW, s -> 2).contains(site()));

        assertEquals(List.of(), store.due(site(), NOW, 10), "nothing pending");
        FrontierStore.SiteState state = store.state(site()).orElseThrow();
        assertEquals(0, state.pending());
        assertEquals(2, state.released());
        assertEquals(List.of(a.with(a.attempt(), NOW, 1), b.with(b.attempt(), NOW, 1)),
                store.releasedBefore(site(), NOW.plusMillis(1)).stream()
                        .sorted(Comparator.comparingLong(FrontierEntry::order)).toList(), "released for send 1");
        store.done(site(), FrontierStore.EntryKey.of(a), NOW);
        assertEquals(1, store.released(site()));
        assertFalse(store.park(b), "released: not parked again");
    }

    @Test
    void parkReleased_whenTheSiteHasAnEntryPending_refusesAndChangesNothing() {
        FrontierEntry waiting = entry("waiting", 1, NOW.plusSeconds(30));
        assertTrue(store.park(waiting));

        assertFalse(store.parkReleased(List.of(entry("a", 2, NOW)), NOW, s -> 10).contains(site()),
                "an entry pending comes first, even one not due yet");

        assertEquals(new FrontierStore.SiteState(1, 0, Optional.empty(), Optional.empty()),
                store.state(site()).orElseThrow());
        assertEquals(List.of(), store.releasedBefore(site(), NOW.plusSeconds(1)));
    }

    @Test
    void parkReleased_whenTheCapLeavesRoomForFewer_refusesAndChangesNothing() {
        FrontierEntry first = entry("first", 1, NOW);
        assertTrue(store.parkReleased(List.of(first), NOW, s -> 2).contains(site()));

        assertFalse(store.parkReleased(List.of(entry("a", 2, NOW), entry("b", 3, NOW)), NOW, s -> 2)
                .contains(site()));

        assertEquals(1, store.released(site()));
        assertEquals(List.of(first.with(first.attempt(), NOW, 1)), store.releasedBefore(site(), NOW.plusMillis(1)));
    }

    @Test
    void parkReleased_whenOneIsReleasedAlready_refusesAndChangesNothing() {
        FrontierEntry a = entry("a", 1, NOW);
        assertTrue(store.parkReleased(List.of(a), NOW, s -> 10).contains(site()));

        assertFalse(store.parkReleased(List.of(entry("b", 2, NOW), a), NOW.plusSeconds(1), s -> 10).contains(site()),
                "a planning delivered again");

        assertEquals(1, store.released(site()));
        assertEquals(List.of(a.with(a.attempt(), NOW, 1)), store.releasedBefore(site(), NOW.plusSeconds(2)),
                "released once, at its first time");
    }

    @Test
    void parkReleased_whenSitesDiffer_parksEachSiteThatPassesAndLeavesTheOthersUnchanged() {
        FrontierEntry backlog = entry("busy", "waiting", 1, NOW.plusSeconds(30));
        assertTrue(store.park(backlog));
        List<FrontierEntry> entries = new ArrayList<>();
        for (String name : List.of("one", "busy", "two")) {
            entries.add(entry(name, "a", 1, NOW));
            entries.add(entry(name, "b", 2, NOW));
        }

        assertEquals(java.util.Set.of(site("one"), site("two")), store.parkReleased(entries, NOW, s -> 10));

        assertEquals(2, store.released(site("one")));
        assertEquals(2, store.released(site("two")));
        assertEquals(0, store.released(site("busy")));
        assertEquals(List.of(backlog), store.due(site("busy"), NOW.plusSeconds(60), 10), "the backlog alone");
    }

    @Test
    void releasedBefore_whenReleasedLongAgo_listsItUntilResent() {
        FrontierEntry old = entry("old", 1, NOW);
        FrontierEntry recent = entry("recent", 2, NOW);
        FrontierEntry stillPending = entry("pending", 3, NOW);
        List.of(old, recent, stillPending).forEach(store::park);
        store.release(old, NOW, 5);
        store.release(recent, NOW.plusSeconds(120), 5);
        Instant cutoff = NOW.plusSeconds(60);

        FrontierEntry asReleased = old.with(old.attempt(), old.notBefore(), 1);
        assertEquals(List.of(asReleased), store.releasedBefore(site(), cutoff), "as released: its first send");
        assertEquals(List.of(), store.releasedBefore(site(), NOW), "the cutoff itself is not before");

        assertTrue(store.resend(asReleased, NOW.plusSeconds(90)));

        assertEquals(List.of(), store.releasedBefore(site(), cutoff));
        assertEquals(List.of(old.with(0, NOW, 2), recent.with(0, NOW, 1)), store.releasedBefore(site(),
                NOW.plusSeconds(121)).stream().sorted(Comparator.comparingLong(FrontierEntry::order)).toList(),
                "the re-sent one under its second send");
    }

    @Test
    void resend_whenTheSendReadIsNoLongerTheEntrys_returnsFalseAndChangesNothing() {
        FrontierEntry e = entry("twice", 1, NOW);
        store.park(e);
        store.release(e, NOW, 5);
        FrontierEntry readByOne = store.releasedBefore(site(), NOW.plusSeconds(1)).getFirst();

        assertTrue(store.resend(readByOne, NOW.plusSeconds(60)));
        assertFalse(store.resend(readByOne, NOW.plusSeconds(61)), "a second sweep's copy: its job went already");

        FrontierEntry now = store.releasedBefore(site(), NOW.plusSeconds(3600)).getFirst();
        assertEquals(readByOne.send() + 1, now.send());
        assertEquals(readByOne.job().deduplicationId(), now.sentJob().deduplicationId(), "what the re-send sent");
        assertTrue(!readByOne.sentJob().deduplicationId().equals(now.sentJob().deduplicationId()));
        assertEquals(1, store.released(site()));
    }

    @Test
    void resend_whenEntryAlreadyDone_doesNotRecreateIt() {
        FrontierEntry e = entry("a", 1, NOW);
        store.park(e);
        store.release(e, NOW, 5);
        FrontierEntry released = store.releasedBefore(site(), NOW.plusSeconds(1)).getFirst();
        store.done(site(), FrontierStore.EntryKey.of(e), NOW);

        assertFalse(store.resend(released, NOW.plusSeconds(90)));

        assertEquals(List.of(), store.releasedBefore(site(), NOW.plusSeconds(3600)));
        assertEquals(0, store.released(site()));
    }

    @Test
    void state_whenEntriesParkedReleasedAndDone_countsThemAndRecordsProgress() {
        assertEquals(Optional.empty(), store.state(site()), "no entries, no counter");
        List<FrontierEntry> entries = IntStream.range(0, 3).mapToObj(i -> entry("st" + i, i, NOW)).toList();
        store.parkAll(entries);
        store.releaseAll(site(), entries.subList(0, 2), NOW, 5);

        assertEquals(new FrontierStore.SiteState(1, 2, Optional.empty(), Optional.empty()),
                store.state(site()).orElseThrow(), "releases are not progress");

        store.done(site(), FrontierStore.EntryKey.of(entries.getFirst()), NOW.plusSeconds(5));
        assertEquals(Optional.of(NOW.plusSeconds(5)), store.state(site()).orElseThrow().progressAt());
        store.requeue(entries.get(1).job(), 1, NOW.plusSeconds(60), NOW.plusSeconds(9));
        assertEquals(new FrontierStore.SiteState(2, 0, Optional.of(NOW.plusSeconds(9)), Optional.empty()),
                store.state(site()).orElseThrow());
    }

    @Test
    void forget_whenBothCountsAreZero_deletesTheCounterAndItsMark() {
        FrontierEntry e = entry("f", 1, NOW);
        store.park(e);
        assertTrue(store.schedule(site(), Optional.empty(), NOW.plusSeconds(600)));
        store.release(e, NOW, 5);
        store.done(site(), FrontierStore.EntryKey.of(e), NOW);
        FrontierStore.SiteState zero = store.state(site()).orElseThrow();

        assertTrue(store.forget(site(), zero));

        assertEquals(Optional.empty(), store.state(site()));
        assertTrue(marksDue(NOW.plusSeconds(601)).stream().noneMatch(m -> m.site().equals(site())));
        assertTrue(store.park(entry("again", 2, NOW)), "a later park starts a new counter");
        assertEquals(Optional.empty(), store.state(site()).orElseThrow().checkAt(), "to be scheduled again");
    }

    @Test
    void forget_whenAParkRacedIt_refusesAndKeepsTheCount() {
        FrontierEntry e = entry("race", 1, NOW);
        store.park(e);
        store.release(e, NOW, 5);
        store.done(site(), FrontierStore.EntryKey.of(e), NOW);
        FrontierStore.SiteState zero = store.state(site()).orElseThrow();
        store.park(entry("late", 2, NOW)); // after the read, before the delete

        assertFalse(store.forget(site(), zero));

        assertEquals(1, store.state(site()).orElseThrow().pending());
        assertEquals(1, store.due(site(), NOW, 10).size());
    }

    @Test
    void schedule_whenTheCheckReadIsStillTheCounters_movesTheMark() {
        store.park(entry("s", 1, NOW));
        Instant first = NOW.plusSeconds(600);
        Instant second = NOW.plusSeconds(1200);

        assertTrue(store.schedule(site(), Optional.empty(), first));
        assertFalse(store.schedule(site(), Optional.empty(), second), "another releaser scheduled it first");
        assertFalse(store.schedule(site("never-parked"), Optional.empty(), second), "no counter, no mark");
        assertEquals(List.of(new FrontierStore.SweepMark(site(), first)), marksOf(site(), second));

        assertTrue(store.schedule(site(), Optional.of(first), second));

        assertEquals(Optional.of(second), store.state(site()).orElseThrow().checkAt());
        assertEquals(List.of(), marksOf(site(), first.plusSeconds(1)), "not due before its time");
        assertEquals(List.of(new FrontierStore.SweepMark(site(), second)), marksOf(site(), second));
    }

    @Test
    void sweepDue_whenMarksOfManySites_returnsEachShardsDueMarksOldestFirstUpToLimit() {
        List<SiteKey> sites = IntStream.range(0, 40).mapToObj(i -> site("m" + i)).toList();
        for (int i = 0; i < sites.size(); i++) {
            store.park(entry("m" + i, "x", 1, NOW));
            // A second apart, in reverse order of the sites, in the hour other tests read.
            assertTrue(store.schedule(sites.get(i), Optional.empty(), NOW.plusSeconds(100 - i)));
        }
        store.park(entry("later", "x", 1, NOW));
        store.schedule(site("later"), Optional.empty(), NOW.plusSeconds(3600));

        List<FrontierStore.SweepMark> all = new ArrayList<>();
        for (int shard = 0; shard < store.sweepShards(); shard++) {
            List<FrontierStore.SweepMark> due = store.sweepDue(shard, NOW.plusSeconds(100), 1_000).stream()
                    .filter(m -> m.site().value().endsWith(site().value())).toList();
            assertEquals(due.stream().sorted(Comparator.comparing(FrontierStore.SweepMark::at)).toList(), due,
                    "oldest first in shard " + shard);
            all.addAll(due);
        }
        assertEquals(sites.stream().sorted(Comparator.comparing(SiteKey::value)).toList(),
                all.stream().map(FrontierStore.SweepMark::site).sorted(Comparator.comparing(SiteKey::value)).toList(),
                "every due site once, the later one not");
        for (int shard = 0; shard < store.sweepShards(); shard++) {
            List<FrontierStore.SweepMark> due = store.sweepDue(shard, NOW.plusSeconds(100), 1_000);
            assertEquals(due.stream().limit(1).toList(), store.sweepDue(shard, NOW.plusSeconds(100), 1),
                    "limit, shard " + shard);
        }

        FrontierStore.SweepMark gone = all.getFirst();
        store.unmark(gone);
        assertFalse(marksDue(NOW.plusSeconds(100)).contains(gone));
    }

    /** This test's site's marks due by {@code now}, over every shard. */
    private List<FrontierStore.SweepMark> marksOf(SiteKey site, Instant now) {
        return marksDue(now).stream().filter(m -> m.site().equals(site)).toList();
    }

    private List<FrontierStore.SweepMark> marksDue(Instant now) {
        List<FrontierStore.SweepMark> marks = new ArrayList<>();
        for (int shard = 0; shard < store.sweepShards(); shard++) {
            marks.addAll(store.sweepDue(shard, now, 100_000));
        }
        return marks;
    }

    private static List<FrontierStore.EntryKey> keys(List<FrontierEntry> entries) {
        return entries.stream().map(FrontierStore.EntryKey::of).toList();
    }

    private static FrontierEntry inPartition(FrontierEntry e, int partition) {
        return FrontierEntry.builder().batchId(e.batchId()).hop(e.hop()).attempt(e.attempt()).order(e.order())
                .notBefore(e.notBefore()).send(e.send()).partition(partition).build();
    }

    /** This test's site. */
    protected SiteKey site() {
        return site("");
    }

    /** A site of this test; sites named differently have different registrable domains. */
    protected SiteKey site(String name) {
        return new SiteKey((name.isEmpty() ? "" : name + "-") + base + ".example");
    }

    protected FrontierEntry entry(String path, long order, Instant notBefore) {
        return entry("", path, order, notBefore);
    }

    protected FrontierEntry entry(String siteName, String path, long order, Instant notBefore) {
        NormalizedUrl url = NormalizedUrl.parse("https://www." + site(siteName).value() + "/" + path);
        return new FrontierEntry("batch-1", url, 0, order, notBefore);
    }
}
