package io.spiderling.core.pipeline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.BucketKeys;
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
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A batch that asks for its sites' own sitemaps ({@code "sitemapsFromRobots": true}, ADR 19), from submission to
 * planning: one robots.txt item per site (scheme, host, port) of its URLs and named sitemaps, counted in its total,
 * parked to be read for the sitemaps it names.
 */
class SitemapsFromRobotsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private final CallLog log = new CallLog();
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final RecordingFetchQueue queue = new RecordingFetchQueue(log);
    private final Ingest ingest = Ingest.builder().normalizer(UrlNormalizer.create()).batches(batches).blobs(blobs)
            .clock(CLOCK).build();
    private final Canonicalize canonicalize = new Canonicalize(PlanningParts.builder().blobs(blobs)
            .batches(BatchStores.of(batches, new InMemoryBatchOriginStore())).urls(new InMemoryUrlStore(log))
            .frontier(new Frontier(new InMemoryFrontierStore(), queue, CLOCK, Frontier.Settings.DEFAULTS))
            .clock(CLOCK).build());

    private Ingest.Result submit(String batchId, List<String> urls, List<String> sitemaps, boolean fromRobots) {
        return ingest.submit(batchId, "", new Ingest.Submission(urls, sitemaps, BatchOptions.NONE, fromRobots),
                BatchSource.HTTP);
    }

    private String manifest(String batchId) {
        return new String(blobs.get(BucketKeys.manifest(batchId)).orElseThrow().bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void submit_whenUrlsOnTwoSitesAndASitemapOnAThird_addsOneRobotsTxtPerSiteToTheManifestAndTheTotal() {
        BatchHeader header = assertInstanceOf(Ingest.Result.Accepted.class, submit("r1", List.of(
                "https://a.example/1", "https://A.example/2", "http://a.example/3", "https://a.example:8443/4",
                "https://b.example/x"), List.of("https://c.example/sitemap.xml"), true)).header();

        assertEquals(5 + 1 + 5, header.total(), "five pages, a sitemap and the robots.txt of five sites");
        assertEquals("""
                https://a.example/1
                https://a.example/2
                http://a.example/3
                https://a.example:8443/4
                https://b.example/x
                sitemap\thttps://c.example/sitemap.xml
                robots\thttps://a.example/robots.txt
                robots\thttp://a.example/robots.txt
                robots\thttps://a.example:8443/robots.txt
                robots\thttps://b.example/robots.txt
                robots\thttps://c.example/robots.txt
                """, manifest("r1"));
    }

    @Test
    void submit_whenNotAsked_readsNoRobotsTxt() {
        BatchHeader header = assertInstanceOf(Ingest.Result.Accepted.class,
                submit("r2", List.of("https://a.example/1"), List.of(), false)).header();

        assertEquals(1, header.total());
        assertEquals("https://a.example/1\n", manifest("r2"));
    }

    @Test
    void submit_whenTheSameUrlsWithAndWithoutTheAsk_areTwoRequests() {
        List<String> urls = List.of("https://a.example/1");
        String without = assertInstanceOf(Ingest.Result.Accepted.class, submit("f1", urls, List.of(), false))
                .header().fingerprint();
        String with = assertInstanceOf(Ingest.Result.Accepted.class, submit("f2", urls, List.of(), true))
                .header().fingerprint();

        assertNotEquals(without, with);
        assertEquals(new Ingest.Result.Conflict("batch f1 already exists for a different request"),
                submit("f1", urls, List.of(), true), "an idempotency key reused for the other request");
        assertEquals(with, assertInstanceOf(Ingest.Result.Accepted.class, submit("f2", urls, List.of(), true))
                .header().fingerprint(), "a retry is the same batch");
    }

    @Test
    void submit_whenANamedSitemapIsOneOfTheSitesRobotsTxt_readsItOnceAsRobotsTxt() {
        BatchHeader header = assertInstanceOf(Ingest.Result.Accepted.class, submit("r3",
                List.of("https://a.example/1"), List.of("https://a.example/robots.txt"), true)).header();

        assertEquals(1 + 1, header.total());
        assertEquals(1, header.duplicates());
        assertEquals("https://a.example/1\nrobots\thttps://a.example/robots.txt\n", manifest("r3"));
    }

    @Test
    void submit_whenUrlsOnMoreSitesThanTheRobotsTxtLimit_refusesAndStoresNothing() {
        List<String> urls = IntStream.rangeClosed(0, Ingest.MAX_ROBOTS_TXT)
                .mapToObj(i -> "https://site" + i + ".example/").toList();

        Ingest.Result result = submit("r4", urls, List.of(), true);

        assertEquals(new Ingest.Result.Refused("sitemapsFromRobots: the batch's URLs are on 1001 sites; the"
                + " robots.txt of at most 1000 are read per batch", List.of()), result);
        assertEquals(List.of(), log.entries());
        assertInstanceOf(Ingest.Result.Accepted.class, submit("r5", urls.subList(0, Ingest.MAX_ROBOTS_TXT),
                List.of(), true));
    }

    @Test
    void onManifest_whenTheBatchAsksForItsSitesSitemaps_parksEachRobotsTxtAsASitemapItemToReadForItsSitemaps() {
        submit("p1", List.of("https://a.example/1", "https://b.example/1"), List.of("https://a.example/s.xml"), true);

        Canonicalize.Outcome outcome = canonicalize.onManifest(BucketKeys.manifest("p1")).orElseThrow();

        assertEquals(2 + 1 + 2, outcome.items());
        Map<String, Optional<SitemapTask>> sitemapJobs = queue.sends().stream().flatMap(List::stream)
                .filter(job -> job.hop().sitemap().isPresent())
                .collect(Collectors.toMap(job -> job.url().value(), job -> job.hop().sitemap()));
        assertEquals(Map.of("https://a.example/s.xml", Optional.of(SitemapTask.named()),
                "https://a.example/robots.txt", Optional.of(SitemapTask.robotsTxtOfSite()),
                "https://b.example/robots.txt", Optional.of(SitemapTask.robotsTxtOfSite())), sitemapJobs);
        for (String robots : List.of("https://a.example/robots.txt", "https://b.example/robots.txt")) {
            assertEquals(ItemState.QUEUED, batches.item("p1", ItemKind.SITEMAP.key(NormalizedUrl.parse(robots)))
                    .orElseThrow().state(), robots);
        }
        FetchJob robotsJob = queue.sends().stream().flatMap(List::stream)
                .filter(job -> job.url().value().equals("https://a.example/robots.txt")).findFirst().orElseThrow();
        assertEquals(ItemKind.SITEMAP.key(robotsJob.url()), robotsJob.itemHash(),
                "keyed apart from a page of the same URL");
    }

    @Test
    void onManifest_whenPlannedAgain_parksNoRobotsTxtTwice() {
        submit("p2", List.of("https://a.example/1"), List.of(), true);
        canonicalize.onManifest(BucketKeys.manifest("p2"));
        int sent = queue.sends().stream().mapToInt(List::size).sum();

        canonicalize.onManifest(BucketKeys.manifest("p2"));

        assertEquals(sent, queue.sends().stream().mapToInt(List::size).sum());
        assertEquals(2, batches.items("p2", Optional.empty(), Optional.empty(), 10).items().size());
    }
}
