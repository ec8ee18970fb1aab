package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.port.BatchItemStore.Added;
import io.spiderling.core.port.BatchItemStore.Invalid;
import io.spiderling.core.url.NormalizedUrl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What {@link BatchItemStore}'s javadoc promises, run against every implementation. The counts are read with
 * {@link BatchHeaderStore#status}, the items with {@link BatchItemStore#items}.
 */
public abstract class BatchItemStoreContract extends BatchPortsContract {

    private static final int THREADS = 8;

    private BatchItemStore items() {
        return stores.items();
    }

    private BatchStatus status() {
        return stores.headers().status(batchId).orElseThrow();
    }

    @Test
    void addItems_whenFirstCall_returnsEveryUrlQueued() {
        List<NormalizedUrl> urls = urls(5);
        stores.headers().createBatch(header(5));

        assertEquals(urls, items().addItems(batchId, urls, CREATED));

        assertEquals(urls.stream().map(NormalizedUrl::value).sorted().toList(),
                drain(Optional.of(ItemState.QUEUED), 10).stream().map(BatchItem::url).sorted().toList());
    }

    @Test
    void addItems_whenCalledAgainAfterOneFinished_returnsOnlyTheStillQueuedAndLeavesTheEndedOne() {
        List<NormalizedUrl> urls = urls(4);
        stores.headers().createBatch(header(4));
        items().addItems(batchId, urls, CREATED);
        assertTrue(items().finishItem(batchId, urls.get(1).urlHash(), Reason.FETCHED, null, LATER).ended());

        List<NormalizedUrl> pending = items().addItems(batchId, urls, LATER);

        assertEquals(List.of(urls.get(0), urls.get(2), urls.get(3)), pending);
        assertEquals(ItemState.FETCHED, item(urls.get(1)).state());
        assertEquals(Map.of(ItemState.FETCHED, 1), status().terminalCounts());
    }

    @Test
    void addEntries_whenABatchNamesAUrlAsAPageAndAsASitemap_keepsAnItemOfEachKind() {
        stores.headers().createBatch(header(0));
        NormalizedUrl url = urls(1).getFirst();

        assertEquals(List.of(Added.CREATED, Added.CREATED), items().addEntries(batchId, List.of(
                new ManifestEntry(0, url), new ManifestEntry(1, url, ItemKind.SITEMAP)), CREATED));
        assertEquals(List.of(Added.DUPLICATE, Added.PENDING), items().addEntries(batchId, List.of(
                new ManifestEntry(2, url, ItemKind.SITEMAP), new ManifestEntry(1, url, ItemKind.SITEMAP)), CREATED),
                "a sitemap named twice is a duplicate; its own line read again is its item");
        assertTrue(items().finishItem(batchId, ItemKind.SITEMAP.key(url), Reason.FETCHED, "read", LATER).ended());

        Map<ItemKind, BatchItem> byKind = drain(Optional.empty(), 10).stream()
                .collect(Collectors.toMap(BatchItem::kind, i -> i));
        assertEquals(url.value(), byKind.get(ItemKind.SITEMAP).url());
        assertEquals(ItemKind.SITEMAP.key(url), byKind.get(ItemKind.SITEMAP).urlHash());
        assertEquals(ItemState.FETCHED, byKind.get(ItemKind.SITEMAP).state());
        assertEquals(url.urlHash(), byKind.get(ItemKind.PAGE).urlHash());
        assertEquals(ItemState.QUEUED, byKind.get(ItemKind.PAGE).state(), "the page's item is another");
    }

    @Test
    void addEntries_whenSameUrlAtAnotherPositionOrSameLineAgain_tellsDuplicateFromRetry() {
        stores.headers().createBatch(header(0));
        List<NormalizedUrl> urls = urls(150); // more than one write of an adapter that batches them
        List<ManifestEntry> entries = IntStream.range(0, urls.size())
                .mapToObj(i -> new ManifestEntry(1000L + i, urls.get(i))).toList();

        assertEquals(Collections.nCopies(150, Added.CREATED), items().addEntries(batchId, entries, CREATED));
        items().finishItem(batchId, urls.get(1).urlHash(), Reason.FETCHED, null, LATER);

        List<Added> again = items().addEntries(batchId, List.of(
                entries.get(0), entries.get(1), new ManifestEntry(5, urls.get(2)),
                new ManifestEntry(9, NormalizedUrl.parse("https://new.example/"))), LATER);

        assertEquals(List.of(Added.PENDING, Added.ENDED, Added.DUPLICATE, Added.CREATED), again);
    }

    @Test
    void addInvalid_whenRecordedTwice_makesOneInvalidItemCountedOnce() {
        stores.headers().createBatch(uploadHeader());

        assertTrue(items().addInvalid(batchId, Invalid.url(42, "ftp://x/", "unsupported scheme: ftp"), CREATED));
        assertFalse(items().addInvalid(batchId, Invalid.url(42, "ftp://x/", "unsupported scheme: ftp"), LATER));

        assertEquals(Map.of(ItemState.INVALID, 1), status().terminalCounts());
        List<BatchItem> invalid = items().items(batchId, Optional.of(ItemState.INVALID), Optional.empty(), 10)
                .items();
        assertEquals(1, invalid.size());
        assertEquals("ftp://x/", invalid.getFirst().url());
        assertEquals(Optional.of(Reason.INVALID_URL), invalid.getFirst().reason());
        assertEquals(Optional.of("unsupported scheme: ftp"), invalid.getFirst().detail());
        assertEquals(Optional.of(CREATED), invalid.getFirst().endedAt());
    }

    @Test
    void addInvalid_whenBatchHasNoHeader_returnsFalseAndRecordsNothing() {
        assertFalse(items().addInvalid(batchId, Invalid.url(42, "ftp://x/", "unsupported scheme: ftp"), CREATED));

        assertEquals(List.of(), drain(Optional.empty(), 10));
        assertEquals(Optional.empty(), stores.headers().status(batchId));
    }

    @Test
    void addInvalid_keepsTheEntrysOwnReason() {
        stores.headers().createBatch(uploadHeader());

        assertTrue(items().addInvalid(batchId, new Invalid(7, "https://other.example/a",
                Reason.SITEMAP_OTHER_SITE, "listed by https://example.com/sitemap.xml"), CREATED));

        BatchItem item = items().items(batchId, Optional.of(ItemState.INVALID), Optional.empty(), 10).items()
                .getFirst();
        assertEquals(Optional.of(Reason.SITEMAP_OTHER_SITE), item.reason());
        assertEquals(Optional.of("listed by https://example.com/sitemap.xml"), item.detail());
        assertEquals(Map.of(ItemState.INVALID, 1), status().terminalCounts());
    }

    @Test
    void finishItem_whenFirstCall_returnsTrueAndCountsIt() {
        NormalizedUrl url = urls(1).getFirst();
        stores.headers().createBatch(header(1));
        items().addItems(batchId, List.of(url), CREATED);

        assertTrue(items().finishItem(batchId, url.urlHash(), Reason.HTTP_ERROR, "HTTP 503", LATER).ended());

        assertEquals(Map.of(ItemState.FAILED, 1), status().terminalCounts());
        assertEquals(BatchItem.builder().url(url.value()).urlHash(url.urlHash()).state(ItemState.FAILED)
                .reason(Optional.of(Reason.HTTP_ERROR)).detail(Optional.of("HTTP 503")).endedAt(Optional.of(LATER))
                .build(), item(url));
    }

    @Test
    void finishItem_whenItemsEndOneByOne_saysMaybeLastAtTheLastAndNeverWhileOthersAreQueued() {
        List<NormalizedUrl> urls = urls(40);
        stores.headers().createBatch(header(urls.size()));
        items().addItems(batchId, urls, CREATED);

        List<BatchItemStore.Ending> endings = new ArrayList<>();
        for (NormalizedUrl url : urls) {
            BatchItemStore.Ending ending = items().finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER);
            endings.add(ending);
            if (ending == BatchItemStore.Ending.ENDED) {
                assertTrue(status().queued() > 0, "ENDED with nothing queued, after " + endings);
            }
        }

        assertEquals(BatchItemStore.Ending.ENDED_MAYBE_LAST, endings.getLast());
        assertTrue(status().done());
    }

    @Test
    void finishItem_whenAnItemEndsAgain_saysToCheckCompletionButCountsNothing() {
        NormalizedUrl url = urls(1).getFirst();
        stores.headers().createBatch(header(1));
        items().addItems(batchId, List.of(url), CREATED);
        items().finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER);

        BatchItemStore.Ending again = items().finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER);

        assertEquals(BatchItemStore.Ending.ALREADY_ENDED, again);
        assertTrue(again.mayComplete());
        assertEquals(Map.of(ItemState.FETCHED, 1), status().terminalCounts());
    }

    @Test
    void finishItem_whenDuplicateWithSameOrOtherState_returnsFalseAndCountsNothing() {
        NormalizedUrl url = urls(1).getFirst();
        stores.headers().createBatch(header(1));
        items().addItems(batchId, List.of(url), CREATED);
        assertTrue(items().finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER).ended());

        assertFalse(items().finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER.plusSeconds(1)).ended());
        assertFalse(items().finishItem(batchId, url.urlHash(), Reason.HTTP_ERROR, "late", LATER.plusSeconds(2)).ended());

        assertEquals(Map.of(ItemState.FETCHED, 1), status().terminalCounts());
        assertEquals(BatchItem.builder().url(url.value()).urlHash(url.urlHash()).state(ItemState.FETCHED)
                .reason(Optional.of(Reason.FETCHED)).endedAt(Optional.of(LATER)).build(), item(url));
    }

    @Test
    void finishItem_whenItemUnknown_returnsFalseAndCountsNothing() {
        stores.headers().createBatch(header(1));

        assertFalse(items().finishItem(batchId, "0".repeat(64), Reason.FETCHED, null, LATER).ended());

        assertEquals(Map.of(), status().terminalCounts());
    }

    @Test
    void addItems_whenBatchHasNoHeader_throwsIllegalStateAndAddsNothing() {
        NormalizedUrl url = urls(1).getFirst();

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> items().addItems(batchId, List.of(url), CREATED));

        assertTrue(e.getMessage().contains(batchId), e.getMessage());
        assertEquals(List.of(), drain(Optional.empty(), 10));
        assertFalse(items().finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER).ended());
        assertEquals(Optional.empty(), stores.headers().status(batchId));
    }

    @Test
    void status_whenItemsFinished_countsByStateAndDerivesQueuedAndDone() {
        List<NormalizedUrl> urls = urls(4);
        stores.headers().createBatch(header(4));
        items().addItems(batchId, urls, CREATED);
        items().finishItem(batchId, urls.get(0).urlHash(), Reason.FETCHED, null, LATER);
        items().finishItem(batchId, urls.get(1).urlHash(), Reason.FETCHED, null, LATER);
        items().finishItem(batchId, urls.get(2).urlHash(), Reason.ROBOTS_DISALLOWED, "robots.txt", LATER);

        BatchStatus partial = status();

        assertEquals(Map.of(ItemState.FETCHED, 2, ItemState.DISALLOWED, 1), partial.terminalCounts());
        assertEquals(1, partial.queued());
        assertFalse(partial.done());

        items().finishItem(batchId, urls.get(3).urlHash(), Reason.NOT_MODIFIED, null, LATER);
        BatchStatus finished = status();

        assertEquals(Map.of(ItemState.FETCHED, 2, ItemState.DISALLOWED, 1, ItemState.NOT_MODIFIED, 1),
                finished.terminalCounts());
        assertEquals(0, finished.queued());
        assertTrue(finished.done());
        assertEquals(Optional.empty(), finished.completedAt());
    }

    @Test
    void finishItem_whenThreadsRaceOnOneItem_exactlyOneWinsAndCountsOnce() throws Exception {
        NormalizedUrl url = urls(1).getFirst();
        stores.headers().createBatch(header(1));
        items().addItems(batchId, List.of(url), CREATED);
        Reason[] states = {Reason.FETCHED, Reason.HTTP_ERROR};

        List<Boolean> results = Contracts.race(IntStream.range(0, THREADS)
                .mapToObj(i -> (Callable<Boolean>) () -> items().finishItem(
                        batchId, url.urlHash(), states[i % 2], "thread " + i, LATER).ended())
                .toList());

        assertEquals(1, results.stream().filter(won -> won).count(), "winners among " + results);
        BatchStatus status = status();
        assertEquals(Map.of(item(url).state(), 1), status.terminalCounts());
    }

    @Test
    void finishItem_whenThreadsRaceOnDifferentItems_countsEveryItemWithoutLostUpdates() throws Exception {
        int itemsPerThread = 4;
        List<NormalizedUrl> urls = urls(THREADS * itemsPerThread);
        stores.headers().createBatch(header(urls.size()));
        items().addItems(batchId, urls, CREATED);

        List<Boolean> results = Contracts.race(IntStream.range(0, THREADS)
                .mapToObj(t -> (Callable<Boolean>) () -> {
                    boolean all = true;
                    for (NormalizedUrl url : urls.subList(t * itemsPerThread, (t + 1) * itemsPerThread)) {
                        all &= items().finishItem(batchId, url.urlHash(), Reason.FETCHED, null, LATER).ended();
                    }
                    return all;
                })
                .toList());

        assertEquals(Collections.nCopies(THREADS, true), results);
        BatchStatus status = status();
        assertEquals(Map.of(ItemState.FETCHED, urls.size()), status.terminalCounts());
        assertTrue(status.done());
    }

    @Test
    void items_whenPagedWithSmallLimit_returnsEveryItemOnceAndFiltersByState() {
        List<NormalizedUrl> urls = urls(40);
        stores.headers().createBatch(header(urls.size()));
        items().addItems(batchId, urls, CREATED);
        for (int i = 0; i < 10; i++) {
            items().finishItem(batchId, urls.get(i).urlHash(), Reason.HTTP_ERROR, "http 500", LATER);
        }

        List<BatchItem> all = drain(Optional.empty(), 7);
        List<BatchItem> failed = drain(Optional.of(ItemState.FAILED), 3);

        assertEquals(urls.stream().map(NormalizedUrl::value).collect(Collectors.toSet()),
                all.stream().map(BatchItem::url).collect(Collectors.toSet()));
        assertEquals(40, all.size(), "no item twice");
        assertEquals(10, failed.size());
        assertTrue(failed.stream().allMatch(i -> i.state() == ItemState.FAILED
                && i.detail().equals(Optional.of("http 500")) && i.endedAt().equals(Optional.of(LATER))));
    }

    @Test
    void items_whenBatchHasNone_returnsAnEmptyLastPage() {
        assertEquals(new ItemPage(List.of(), Optional.empty()),
                items().items(batchId, Optional.empty(), Optional.empty(), 10));
    }

    @Test
    void items_whenCursorIsForged_throwsIllegalArgument() {
        stores.headers().createBatch(header(1));

        assertThrows(IllegalArgumentException.class,
                () -> items().items(batchId, Optional.empty(), Optional.of("bm90IGEgY3Vyc29y"), 10));
    }

    /** Every item of the batch, optionally in one state, read a page at a time. */
    protected List<BatchItem> drain(Optional<ItemState> state, int limit) {
        List<BatchItem> all = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        for (int pages = 0; pages < 100; pages++) {
            ItemPage page = items().items(batchId, state, cursor, limit);
            assertTrue(page.items().size() <= limit);
            all.addAll(page.items());
            cursor = page.cursor();
            if (cursor.isEmpty()) {
                return all;
            }
        }
        throw new AssertionError("paging did not end");
    }

    /** The batch's item for {@code url}. */
    protected BatchItem item(NormalizedUrl url) {
        return drain(Optional.empty(), 100).stream().filter(i -> i.urlHash().equals(url.urlHash())).findFirst()
                .orElseThrow();
    }
}
