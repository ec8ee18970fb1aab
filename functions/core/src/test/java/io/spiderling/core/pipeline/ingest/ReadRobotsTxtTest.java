package io.spiderling.core.pipeline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

/** A site's robots.txt, read for the sitemaps it names, into its batch (sitemapsFromRobots, ADR 19). */
class ReadRobotsTxtTest {

    private static final Instant NOW = Instant.parse("2026-12-01T07:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String BATCH = "rb1";
    private static final NormalizedUrl ROBOTS = NormalizedUrl.parse("https://example.com/robots.txt");
    private static final String TWO_SITEMAPS = "User-agent: *\nDisallow: /private/\n\n"
            + "Sitemap: https://example.com/sitemap.xml\n"
            + "Sitemap: https://cdn.example.net/example/products.xml\n";

    private final CallLog log = new CallLog();
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final RecordingFetchQueue queue = new RecordingFetchQueue(log);
    private final PlanningParts parts = PlanningParts.builder().blobs(new InMemoryBlobStore(log))
            .batches(BatchStores.of(batches, new InMemoryBatchOriginStore())).urls(new InMemoryUrlStore(log))
            .frontier(new Frontier(new InMemoryFrontierStore(), queue, CLOCK, Frontier.Settings.DEFAULTS))
            .clock(CLOCK).build();
    private final ReadRobotsTxt robots = new ReadRobotsTxt(parts, UrlNormalizer.create(),
            ReadRobotsTxt.DEFAULT_MAX_SITEMAPS, ExpandSitemap.Settings.DEFAULTS.maxSitemapsPerBatch());

    @BeforeEach
    void aBatchWhoseSiteHasItsRobotsTxtItem() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(2).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        batches.addEntries(BATCH, List.of(new ManifestEntry(0, NormalizedUrl.parse("https://example.com/")),
                new ManifestEntry(1, ROBOTS, ItemKind.SITEMAP)), NOW);
    }

    /** How the robots.txt's item ends: a robots.txt is read where it is fetched, never handed to the planners. */
    private ExpandSitemap.Read.Ended read(String requested, int status, String body) {
        return (ExpandSitemap.Read.Ended) robots.read(BATCH, ROBOTS, requested, status,
                body.getBytes(StandardCharsets.UTF_8), "text/plain");
    }

    private Map<String, BatchItem> items() {
        return batches.items(BATCH, Optional.empty(), Optional.empty(), 100).items().stream()
                .collect(Collectors.toMap(i -> i.kind().wireName() + " " + i.url(), i -> i));
    }

    private List<FetchJob> sent() {
        return queue.sends().stream().flatMap(List::stream).toList();
    }

    private long total() {
        return batches.status(BATCH).orElseThrow().header().total();
    }

    @Test
    void read_whenTwoSitemapLines_addsEachAsASitemapItemNamedByTheRobotsTxtAndParksIt() {
        ExpandSitemap.Read.Ended read = read(ROBOTS.value(), 200, TWO_SITEMAPS);

        assertEquals(Reason.SITEMAP_EXPANDED, read.reason());
        assertEquals("robots.txt names 2 sitemaps: 2 items, 0 duplicates, 0 refused", read.detail());
        Map<String, BatchItem> items = items();
        assertEquals(ItemState.QUEUED, items.get("sitemap https://example.com/sitemap.xml").state());
        assertEquals(ItemState.QUEUED, items.get("sitemap https://cdn.example.net/example/products.xml").state());
        assertEquals(2 + 2, total(), "the page, the robots.txt and its two sitemaps");
        List<FetchJob> sent = sent();
        assertEquals(2, sent.size(), sent.toString());
        sent.forEach(job -> assertEquals(Optional.of(SitemapTask.namedIn(List.of(ROBOTS.value()))),
                job.hop().sitemap(), "depth 0, vouched for by the robots.txt"));
        sent.forEach(job -> assertEquals(ItemKind.SITEMAP.key(job.url()), job.itemHash()));
    }

    @Test
    void read_whenASitemapItNamesIsHostedElsewhere_thatSitemapMayListTheSitesUrls() {
        read(ROBOTS.value(), 200, TWO_SITEMAPS);
        FetchJob cdn = sent().stream().filter(j -> j.url().value().startsWith("https://cdn.")).findFirst()
                .orElseThrow();
        io.spiderling.core.testing.RecordingPlanQueue planQueue = new io.spiderling.core.testing.RecordingPlanQueue();
        ExpandSitemap expand = new ExpandSitemap(parts, UrlNormalizer.create(), planQueue,
                ExpandSitemap.Settings.DEFAULTS);
        String urlset = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                + "<url><loc>https://example.com/products/1</loc></url>\n"
                + "<url><loc>https://third.example.org/p</loc></url>\n</urlset>\n";

        expand.read(BATCH, cdn.url(), cdn.request().value(), cdn.hop().sitemap().orElseThrow(),
                urlset.getBytes(StandardCharsets.UTF_8), "application/xml");
        PlanSitemap plan = new PlanSitemap(parts, UrlNormalizer.create(),
                new io.spiderling.core.pipeline.BatchTracker(batches, batches));
        planQueue.sitemapChunks().forEach(m -> plan.onChunk(m.batchId(), m.sitemapKey(), m.chunk()));

        assertEquals(Optional.of("listed 1 URLs, 1 refused: 2 items, 0 duplicates"),
                items().get("sitemap " + cdn.url().value()).detail());
        assertEquals(ItemState.QUEUED, items().get("page https://example.com/products/1").state(),
                "the cross-submit rule: the robots.txt of example.com named the sitemap");
        assertEquals(Optional.of(Reason.SITEMAP_OTHER_SITE), items().get("page https://third.example.org/p").reason());
    }

    @Test
    void read_whenNoSitemapLine_addsNothingAndSaysSo() {
        ExpandSitemap.Read.Ended read = read(ROBOTS.value(), 200, "User-agent: *\nDisallow:\n");

        assertEquals(Reason.SITEMAP_EXPANDED, read.reason());
        assertEquals("robots.txt names no sitemap", read.detail());
        assertEquals(2, items().size());
        assertEquals(2, total());
    }

    @Test
    void read_whenTheSiteHasNoRobotsTxt_endsItsItemSayingSo() {
        ExpandSitemap.Read.Ended read = read(ROBOTS.value(), 404, "<html>not found</html>");

        assertEquals(Reason.SITEMAP_EXPANDED, read.reason());
        assertEquals("robots.txt answered 404: the site has none, so it names no sitemap", read.detail());
        assertEquals(2, items().size());
    }

    @Test
    void read_whenAServerError_refusesIt() {
        assertThrows(IllegalArgumentException.class, () -> read(ROBOTS.value(), 503, ""));
    }

    @Test
    void read_whenRelativeAndInvalidLines_addsTheResolvedOneAndCountsTheRefused() {
        ExpandSitemap.Read.Ended read = read(ROBOTS.value(), 200, "Sitemap: /news.xml\nSitemap: ftp://example.com/s.xml\n");

        assertEquals("robots.txt names 2 sitemaps: 1 items, 0 duplicates, 1 refused", read.detail());
        assertEquals(ItemState.QUEUED, items().get("sitemap https://example.com/news.xml").state());
    }

    @Test
    void read_whenItNamesASitemapTheBatchAlreadyHas_countsADuplicate() {
        batches.addEntries(BATCH, List.of(new ManifestEntry(2, NormalizedUrl.parse("https://example.com/sitemap.xml"),
                ItemKind.SITEMAP)), NOW);

        ExpandSitemap.Read.Ended read = read(ROBOTS.value(), 200, TWO_SITEMAPS);

        assertEquals("robots.txt names 2 sitemaps: 1 items, 1 duplicates, 0 refused", read.detail());
        assertEquals(1, sent().size());
    }

    @Test
    void read_whenReadAgainAfterACrash_countsItsSitemapsOnce() {
        read(ROBOTS.value(), 200, TWO_SITEMAPS);

        ExpandSitemap.Read.Ended again = read(ROBOTS.value(), 200, TWO_SITEMAPS);

        assertEquals(Reason.SITEMAP_EXPANDED, again.reason());
        assertEquals(2 + 2, total());
        assertEquals(4, items().size());
    }

    @Test
    void read_whenARedirectLedToTheHttpsRobotsTxt_itsSitemapsAreNamedByBothSites() {
        NormalizedUrl http = NormalizedUrl.parse("http://example.com/robots.txt");
        batches.addEntries(BATCH, List.of(new ManifestEntry(2, http, ItemKind.SITEMAP)), NOW);

        robots.read(BATCH, http, ROBOTS.value(), 200, TWO_SITEMAPS.getBytes(StandardCharsets.UTF_8), null);

        assertEquals(Optional.of(SitemapTask.namedIn(List.of(http.value(), ROBOTS.value()))),
                sent().getFirst().hop().sitemap());
    }
}
