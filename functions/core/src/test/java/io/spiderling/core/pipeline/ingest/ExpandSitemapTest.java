package io.spiderling.core.pipeline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchOriginStore;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryFrontierStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.testing.RecordingFetchQueue;
import io.spiderling.core.testing.RecordingPlanQueue;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A fetched sitemap's list into its batch, through the uploaded manifest's path (ADR 19). */
class ExpandSitemapTest {

    private static final Instant NOW = Instant.parse("2026-11-28T07:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String BATCH = "sm1";
    private static final NormalizedUrl SITEMAP = NormalizedUrl.parse("https://example.com/catalog/sitemap.xml");

    private final CallLog log = new CallLog();
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final InMemoryFrontierStore frontierStore = new InMemoryFrontierStore();
    private final RecordingFetchQueue queue = new RecordingFetchQueue(log);
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final PlanningParts parts = PlanningParts.builder().blobs(new InMemoryBlobStore(log))
            .batches(BatchStores.of(batches, new InMemoryBatchOriginStore())).urls(urls)
            .frontier(new Frontier(frontierStore, queue, CLOCK, Frontier.Settings.DEFAULTS)).clock(CLOCK).build();
    private final RecordingPlanQueue planQueue = new RecordingPlanQueue();
    private final ExpandSitemap expand = new ExpandSitemap(parts, UrlNormalizer.create(), planQueue,
            ExpandSitemap.Settings.DEFAULTS);
    private final PlanSitemap plan = new PlanSitemap(parts, UrlNormalizer.create(),
            new io.spiderling.core.pipeline.BatchTracker(batches, batches));
    /** How many of the plan queue's chunk messages were planned. */
    private int chunksPlanned;

    /**
     * Reads {@code body} as the sitemap {@code url} with {@code reader}, then plans each chunk message it sent, as the
     * plan function would, and returns how the sitemap's item ended.
     */
    private Ended read(ExpandSitemap reader, NormalizedUrl url, byte[] body) {
        ExpandSitemap.Read read = reader.read(BATCH, url, url.value(), SitemapTask.named(), body, "application/xml");
        if (read instanceof ExpandSitemap.Read.Ended ended) {
            return new Ended(ended.reason(), ended.detail());
        }
        planPending();
        BatchItem item = items().get("sitemap " + url.value());
        return new Ended(item.reason().orElseThrow(), item.detail().orElseThrow());
    }

    private Ended read(byte[] body) {
        return read(expand, SITEMAP, body);
    }

    private void planPending() {
        List<RecordingPlanQueue.SitemapChunkMessage> sent = planQueue.sitemapChunks();
        for (; chunksPlanned < sent.size(); chunksPlanned++) {
            RecordingPlanQueue.SitemapChunkMessage m = sent.get(chunksPlanned);
            plan.onChunk(m.batchId(), m.sitemapKey(), m.chunk());
        }
    }

    /** How a sitemap's item ended. */
    private record Ended(Reason reason, String detail) {}

    @BeforeEach
    void aBatchThatNamedOneSitemap() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(1).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        batches.addEntries(BATCH, List.of(new ManifestEntry(0, SITEMAP, ItemKind.SITEMAP)), NOW);
    }

    private static byte[] urlset(String... urls) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (String url : urls) {
            xml.append("<url><loc>").append(url).append("</loc></url>\n");
        }
        return xml.append("</urlset>\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, BatchItem> items() {
        return batches.items(BATCH, Optional.empty(), Optional.empty(), 100).items().stream()
                .collect(Collectors.toMap(i -> i.kind().wireName() + " " + i.url(), i -> i));
    }

    @Test
    void read_whenAUrlsetListsPagesOneTwiceAndOneElsewhere_addsEachOnceAndRefusesTheOther() {
        byte[] body = urlset("https://example.com/catalog/a", "https://example.com/catalog/b",
                "https://EXAMPLE.com/catalog/a", "https://other.example/x", "https://example.com/admin/y");

        Ended read = read(body);

        assertEquals(Reason.SITEMAP_EXPANDED, read.reason());
        assertEquals("listed 3 URLs, 2 refused: 4 items, 1 duplicates", read.detail());
        Map<String, BatchItem> items = items();
        assertEquals(ItemState.QUEUED, items.get("page https://example.com/catalog/a").state());
        assertEquals(ItemState.QUEUED, items.get("page https://example.com/catalog/b").state());
        BatchItem otherSite = items.get("page https://other.example/x");
        assertEquals(ItemState.INVALID, otherSite.state());
        assertEquals(Optional.of(Reason.SITEMAP_OTHER_SITE), otherSite.reason());
        assertEquals(Optional.of("listed by https://example.com/catalog/sitemap.xml, of another site, whose robots.txt"
                + " does not name the sitemap"), otherSite.detail());
        BatchItem outside = items.get("page https://example.com/admin/y");
        assertEquals(Optional.of(Reason.SITEMAP_OUTSIDE_PATH), outside.reason());
        assertEquals(Optional.of("listed by https://example.com/catalog/sitemap.xml, outside its directory /catalog/"),
                outside.detail());
        assertEquals(1 + 4, batches.status(BATCH).orElseThrow().header().total(), "the sitemap and its four items");
        List<String> sent = queue.sends().stream().flatMap(List::stream).map(FetchJob::url)
                .map(NormalizedUrl::value).toList();
        assertTrue(sent.contains("https://example.com/catalog/a"), sent.toString());
    }

    @Test
    void read_whenTheSameSitemapIsReadAgainAfterACrash_countsItsListOnce() {
        byte[] body = urlset("https://example.com/catalog/a", "https://example.com/catalog/b");
        read(body);
        chunksPlanned = 0; // and every chunk message delivered again

        Ended again = read(body);

        assertEquals(Reason.SITEMAP_EXPANDED, again.reason());
        assertEquals("listed 2 URLs, 0 refused: 2 items, 0 duplicates", again.detail());
        assertEquals(1 + 2, batches.status(BATCH).orElseThrow().header().total());
        assertEquals(3, items().size());
        assertTrue(batches.status(BATCH).orElseThrow().planned());
    }

    @Test
    void read_whenAnIndex_addsItsSitemapsAsSitemapItemsOneLevelDeeperAndParksThem() {
        byte[] index = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                + "<sitemap><loc>https://example.com/catalog/s1.xml</loc></sitemap>\n"
                + "<sitemap><loc>https://example.com/catalog/s2.xml.gz</loc></sitemap>\n"
                + "</sitemapindex>\n").getBytes(StandardCharsets.UTF_8);

        Ended read = read(index);

        assertEquals(Reason.SITEMAP_EXPANDED, read.reason());
        assertEquals("an index of 2 sitemaps: 2 items, 0 duplicates, 0 refused", read.detail());
        Map<String, BatchItem> items = items();
        assertEquals(ItemState.QUEUED, items.get("sitemap https://example.com/catalog/s1.xml").state());
        assertEquals(ItemState.QUEUED, items.get("sitemap https://example.com/catalog/s2.xml.gz").state());
        List<FetchJob> sent = queue.sends().stream().flatMap(List::stream).toList();
        assertEquals(Optional.of(new SitemapTask(1, List.of())), sent.getFirst().hop().sitemap(), sent.toString());
        assertEquals(ItemKind.SITEMAP.key(sent.getFirst().url()), sent.getFirst().itemHash());
    }

    @Test
    void read_whenEntriesHaveLastmods_skipsAFreshCopyNotOlderAndFetchesOneTheSiteSaysChangedSince() {
        Instant copy = NOW.minus(java.time.Duration.ofMinutes(10)); // fresh in the default hour
        for (String page : List.of("unchanged", "changed", "no-lastmod", "stale")) {
            NormalizedUrl url = NormalizedUrl.parse("https://example.com/catalog/" + page);
            urls.recordFetch(io.spiderling.core.fetch.FetchRecord.builder(url.urlHash(), url.value(), ItemState.FETCHED,
                    page.equals("stale") ? NOW.minus(java.time.Duration.ofHours(3)) : copy).build());
        }
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                + "<url><loc>https://example.com/catalog/unchanged</loc><lastmod>2026-11-01</lastmod></url>\n"
                + "<url><loc>https://example.com/catalog/changed</loc><lastmod>2026-11-28T06:55:00Z</lastmod></url>\n"
                + "<url><loc>https://example.com/catalog/no-lastmod</loc></url>\n"
                + "<url><loc>https://example.com/catalog/stale</loc><lastmod>2026-11-01</lastmod></url>\n"
                + "</urlset>\n").getBytes(StandardCharsets.UTF_8);

        read(body);

        Map<String, BatchItem> items = items();
        BatchItem unchanged = items.get("page https://example.com/catalog/unchanged");
        assertEquals(ItemState.SKIPPED, unchanged.state());
        assertEquals(Optional.of(Reason.SITEMAP_LASTMOD), unchanged.reason());
        assertEquals(Optional.of("fresh copy fetched at " + copy + ", not before the sitemap's lastmod"
                + " 2026-11-01T00:00:00Z"), unchanged.detail());
        assertEquals(ItemState.QUEUED, items.get("page https://example.com/catalog/changed").state(),
                "the site says it changed after the copy: fetched again, fresh or not");
        assertEquals(Optional.of(Reason.FRESH_COPY), items.get("page https://example.com/catalog/no-lastmod").reason());
        assertEquals(ItemState.QUEUED, items.get("page https://example.com/catalog/stale").state(),
                "a lastmod never holds back a fetch the batch's window asks for");
    }

    @Test
    void read_whenTheBatchHasReadItsLimitOfSitemaps_takesNothingAndSaysWhichLimit() {
        ExpandSitemap one = new ExpandSitemap(parts, UrlNormalizer.create(), planQueue, new ExpandSitemap.Settings(
                io.spiderling.core.sitemap.SitemapExpander.Settings.DEFAULTS, 1_000_000, 1));
        read(one, SITEMAP, urlset("https://example.com/catalog/a"));
        NormalizedUrl second = NormalizedUrl.parse("https://example.com/catalog/second.xml");
        batches.addEntries(BATCH, List.of(new ManifestEntry(1, second, ItemKind.SITEMAP)), NOW);

        Ended read = read(one, second, urlset("https://example.com/catalog/b"));

        assertEquals(Reason.SITEMAP_LIMIT, read.reason());
        assertEquals("the batch has begun 1 sitemaps, its limit; this one's list was not taken in", read.detail());
        assertEquals(new io.spiderling.core.batch.SitemapCounts(0, 1), batches.status(BATCH).orElseThrow().sitemaps());
        assertEquals(List.of("page https://example.com/catalog/a", "sitemap " + second.value(),
                "sitemap " + SITEMAP.value()), items().keySet().stream().sorted().toList(), "nothing of the second");
    }

    @Test
    void read_whenTheBodyIsNoSitemap_failsItsItemSayingWhy() {
        Ended read = read("<html><title>Not found</title></html>".getBytes(StandardCharsets.UTF_8));

        assertEquals(Reason.SITEMAP_UNREADABLE, read.reason());
        assertTrue(read.detail().startsWith("sitemap-"), read.detail());
        assertEquals(1, items().size(), "nothing added");
        assertEquals(new io.spiderling.core.batch.SitemapCounts(0, 1), batches.status(BATCH).orElseThrow().sitemaps(),
                "it took a place among the batch's sitemaps, and is no longer being read");
    }

    @Test
    void read_whenAUrlsetListsMoreThanAChunk_cutsItForThePlannersAndEndsTheItemWithTheLastChunk() {
        String[] pages = java.util.stream.IntStream.range(0, SitemapListing.ENTRIES_PER_CHUNK + 5)
                .mapToObj(i -> "https://example.com/catalog/p" + i).toArray(String[]::new);

        ExpandSitemap.Read read = expand.read(BATCH, SITEMAP, SITEMAP.value(), SitemapTask.named(), urlset(pages),
                "application/xml");

        assertEquals(new ExpandSitemap.Read.Planning("listed 10005 URLs, 0 refused; planning in 2 chunks"), read);
        assertEquals(2, planQueue.sitemapChunks().size());
        assertEquals(1, batches.status(BATCH).orElseThrow().sitemapsReading(), "not final while the list is planned");
        RecordingPlanQueue.SitemapChunkMessage last = planQueue.sitemapChunks().get(1);
        PlanSitemap.ChunkOutcome second = plan.onChunk(BATCH, last.sitemapKey(), 1);
        assertEquals(new io.spiderling.core.batch.ChunkCounts(5, 0), second.counts());
        assertTrue(!second.lastChunk(), "the first chunk is not planned yet");
        assertEquals(ItemState.QUEUED, items().get("sitemap " + SITEMAP.value()).state());

        PlanSitemap.ChunkOutcome first = plan.onChunk(BATCH, last.sitemapKey(), 0);

        assertTrue(first.lastChunk());
        BatchItem sitemap = batches.items(BATCH, Optional.of(ItemState.FETCHED), Optional.empty(), 10).items()
                .getFirst();
        assertEquals(Optional.of("listed 10005 URLs, 0 refused: 10005 items, 0 duplicates"), sitemap.detail());
        assertEquals(1 + 10_005, batches.status(BATCH).orElseThrow().header().total());
        assertTrue(batches.status(BATCH).orElseThrow().planned());
    }

    @Test
    void firstPosition_whenTwoSitemapsOfABatch_leavesRoomForEveryEntryOfEach() {
        long a = ExpandSitemap.firstPosition(ItemKind.SITEMAP.key(SITEMAP));
        long b = ExpandSitemap.firstPosition(ItemKind.SITEMAP.key(NormalizedUrl.parse("https://example.com/s2.xml")));

        assertTrue(Math.abs(a - b) >= 1 << 24, a + " and " + b);
    }
}
