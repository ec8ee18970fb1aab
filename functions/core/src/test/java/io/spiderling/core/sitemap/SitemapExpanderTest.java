package io.spiderling.core.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.sitemap.SitemapExpander.Budget;
import io.spiderling.core.sitemap.SitemapExpander.Settings;
import io.spiderling.core.sitemap.SitemapOutcome.Index;
import io.spiderling.core.sitemap.SitemapOutcome.Unreadable;
import io.spiderling.core.sitemap.SitemapOutcome.Unreadable.Why;
import io.spiderling.core.sitemap.SitemapOutcome.Urls;
import io.spiderling.core.url.RequestUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class SitemapExpanderTest {

    private static final Budget PLENTY = new Budget(1_000_000, 1_000);
    private static final SitemapSource ROOT = SitemapSource.named("https://example.com/sitemap.xml");
    private static final SitemapSource CATALOG = SitemapSource.named("https://example.com/catalog/sitemap.xml");
    private static final SitemapSource INDEX = SitemapSource.named("https://example.com/sitemaps/index.xml");

    private static final List<SitemapEntry> URLSET_ENTRIES = List.of(
            entry("https://example.com/a", "2025-03-01T00:00:00Z"),
            entry("https://example.com/b?x=1&y=2", "2025-03-02T08:30:00Z"),
            entry("https://example.com/c", null),
            entry("https://example.com/d", null),
            entry("https://example.com/e", null));

    private final SitemapExpander expander = SitemapExpander.create();

    // --- formats

    @Test
    void expand_whenUrlsetHasLastmods_returnsEntriesInDocumentOrderWithTheirLastmods() {
        Urls urls = urls(expander.expand(ROOT, fixture("urlset-with-lastmods.xml"), "application/xml", PLENTY));

        // d's "yesterday" is no W3C date; crawler-commons does not strip the white space around e's, so reads neither
        assertEquals(URLSET_ENTRIES, urls.accepted());
        assertEquals(List.of(), urls.refused());
        assertEquals(Optional.empty(), urls.limit());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"application/x-gzip", "application/gzip", "application/octet-stream",
            "application/xml; charset=UTF-8", "text/plain"})
    void expand_whenUrlsetIsGzipped_readsItWhateverTheContentTypeSays(String contentType) {
        byte[] body = gzip(fixture("urlset-with-lastmods.xml"));

        Urls urls = urls(expander.expand(ROOT, body, contentType, PLENTY));

        assertEquals(URLSET_ENTRIES, urls.accepted());
    }

    @Test
    void expand_whenUrlsetIsServedAsTextPlain_readsItAsXml() {
        Urls urls = urls(expander.expand(ROOT, fixture("urlset-with-lastmods.xml"), "text/plain", PLENTY));

        assertEquals(URLSET_ENTRIES, urls.accepted());
    }

    @Test
    void expand_whenSitemapIsAnIndex_returnsItsChildSitemapsOneLevelDeeper() {
        Index index = index(expander.expand(INDEX, fixture("sitemap-index.xml"), "application/xml", PLENTY));

        assertEquals(List.of("https://example.com/sitemaps/products.xml.gz", "https://example.com/sitemaps/pages.xml",
                "https://example.com/sitemaps/blog.xml"), urlsOf(index.sitemaps()));
        assertTrue(index.sitemaps().stream().allMatch(s -> s.indexDepth() == 1 && s.namedBy().isEmpty()));
        assertEquals(List.of(new RefusedEntry("https://cdn.example/sitemaps/images.xml", SitemapRefusal.OTHER_SITE),
                new RefusedEntry("https://example.com/other/news.xml", SitemapRefusal.OUTSIDE_PATH),
                new RefusedEntry("news.xml", SitemapRefusal.INVALID_URL)), index.refused());
        assertEquals(Optional.empty(), index.limit());
    }

    @Test
    void expand_whenIndexWasNamedByAnotherHostsRobots_acceptsThatHostsSitemapsAndPassesTheProofOn() {
        Set<RobotsOrigin> namedBy = Set.of(RobotsOrigin.of("https://cdn.example"));
        SitemapSource source = SitemapSource.fromRobots("https://example.com/sitemaps/index.xml", namedBy);

        Index index = index(expander.expand(source, fixture("sitemap-index.xml"), "application/xml", PLENTY));

        assertTrue(urlsOf(index.sitemaps()).contains("https://cdn.example/sitemaps/images.xml"));
        assertTrue(index.sitemaps().stream().allMatch(s -> s.namedBy().equals(namedBy)));
    }

    @Test
    void expand_whenTextSitemap_acceptsItsLinesAndRefusesTheRest() {
        Urls urls = urls(expander.expand(ROOT, fixture("text-sitemap.txt"), "text/plain", PLENTY));

        assertEquals(List.of(entry("https://example.com/a", null), entry("https://example.com/b", null),
                entry("https://example.com/e", null)), urls.accepted());
        assertEquals(List.of(new RefusedEntry("https://other.example/c", SitemapRefusal.OTHER_SITE),
                new RefusedEntry("page-d", SitemapRefusal.INVALID_URL)), urls.refused());
    }

    @Test
    void expand_whenEntriesAreOffSiteOutsideThePathOrMalformed_refusesEachWithItsReasonInDocumentOrder() {
        Urls urls = urls(expander.expand(CATALOG, fixture("cross-site-and-outside-path.xml"), "text/xml", PLENTY));

        assertEquals(List.of(entry("https://example.com/catalog/1", null), entry("https://example.com/catalog/7",
                null)), urls.accepted());
        // crawler-commons drops /catalog/4 and javascript: itself (java.net.URL refuses them): they are still reported
        assertEquals(List.of(new RefusedEntry("https://partner.example/catalog/2", SitemapRefusal.OTHER_SITE),
                new RefusedEntry("https://example.com/images/3.png", SitemapRefusal.OUTSIDE_PATH),
                new RefusedEntry("/catalog/4", SitemapRefusal.INVALID_URL),
                new RefusedEntry("ftp://example.com/catalog/5", SitemapRefusal.INVALID_URL),
                new RefusedEntry("javascript:alert(6)", SitemapRefusal.INVALID_URL)), urls.refused());
    }

    @Test
    void expand_whenTheOtherSiteNamedTheSitemapInItsRobots_acceptsItsUrls() {
        SitemapSource source = SitemapSource.fromRobots("https://example.com/catalog/sitemap.xml",
                Set.of(RobotsOrigin.of("https://partner.example")));

        Urls urls = urls(expander.expand(source, fixture("cross-site-and-outside-path.xml"), "text/xml", PLENTY));

        assertTrue(urls.accepted().contains(entry("https://partner.example/catalog/2", null)));
        assertFalse(urls.refused().stream().anyMatch(r -> r.reason() == SitemapRefusal.OTHER_SITE));
    }

    @Test
    void expand_whenRssFeed_takesItemLinksResolvedAgainstTheFeed() {
        SitemapSource feed = SitemapSource.named("https://example.com/news/feed.xml");

        Urls urls = urls(expander.expand(feed, fixture("rss-feed.xml"), "application/rss+xml", PLENTY));

        assertEquals(List.of(entry("https://example.com/news/1", "2025-03-01T10:00:00Z"),
                entry("https://example.com/news/2", null)), urls.accepted());
        assertEquals(List.of(new RefusedEntry("https://other.example/3", SitemapRefusal.OTHER_SITE)), urls.refused());
    }

    @Test
    void expand_whenAtomFeed_takesEntryLinksWithTheirUpdatedTime() {
        SitemapSource feed = SitemapSource.named("https://example.com/news/atom.xml");

        Urls urls = urls(expander.expand(feed, fixture("atom-feed.xml"), "application/atom+xml", PLENTY));

        assertEquals(List.of(entry("https://example.com/news/1", "2025-03-01T10:00:00Z")), urls.accepted());
        assertEquals(List.of(new RefusedEntry("https://example.com/about", SitemapRefusal.OUTSIDE_PATH)),
                urls.refused());
    }

    @Test
    void expand_whenUrlsetIsEmpty_returnsNoUrlsAndNoLimit() {
        Urls urls = urls(expander.expand(ROOT, fixture("empty-urlset.xml"), "application/xml", PLENTY));

        assertEquals(new Urls(List.of(), List.of(), Optional.empty()), urls);
    }

    // --- unreadable bodies

    @Test
    void expand_whenXmlIsBroken_isUnreadableAsBrokenXmlWithTheParsersMessage() {
        Unreadable unreadable = unreadable(expander.expand(ROOT, fixture("broken-xml.xml"), "application/xml",
                PLENTY));

        assertEquals(Why.BROKEN_XML, unreadable.why());
        assertTrue(unreadable.detail().contains("url"), unreadable.detail());
    }

    @Test
    void expand_whenXmlDeclaresADoctype_isUnreadableAsBrokenXmlAndExpandsNoEntity() {
        Unreadable unreadable = unreadable(expander.expand(ROOT, fixture("doctype-entity.xml"), "application/xml",
                PLENTY));

        assertEquals(Why.BROKEN_XML, unreadable.why());
        assertTrue(unreadable.detail().contains("DOCTYPE"), unreadable.detail());
    }

    @Test
    void expand_whenBodyIsAnHtmlPage_isNotASitemap() {
        Unreadable unreadable = unreadable(expander.expand(ROOT, fixture("not-a-sitemap.html"),
                "text/html; charset=utf-8", PLENTY));

        assertEquals(new Unreadable(Why.NOT_A_SITEMAP,
                "the body starts like no sitemap, and its content type is text/html"), unreadable);
    }

    @Test
    void expand_whenXmlHasAnotherRootElement_isNotASitemap() {
        Unreadable unreadable = unreadable(expander.expand(ROOT, fixture("well-formed-other-xml.xml"),
                "application/xml", PLENTY));

        assertEquals(Why.NOT_A_SITEMAP, unreadable.why());
    }

    @Test
    void expand_whenBodyIsEmptyWithoutContentType_isNotASitemap() {
        Unreadable unreadable = unreadable(expander.expand(ROOT, new byte[0], null, PLENTY));

        assertEquals(Why.NOT_A_SITEMAP, unreadable.why());
    }

    @Test
    void expand_whenBodyIsAboveTheByteLimit_isTooLarge() {
        SitemapExpander small = SitemapExpander.create(Settings.builder().maxBytes(100).build());

        Unreadable unreadable = unreadable(small.expand(ROOT, fixture("urlset-with-lastmods.xml"), "application/xml",
                PLENTY));

        assertEquals(Why.TOO_LARGE, unreadable.why());
    }

    @Test
    void expand_whenGzipDecompressesAboveTheByteLimit_isTooLarge() {
        byte[] bomb = gzip(("<urlset>" + " ".repeat(100_000) + "</urlset>").getBytes(StandardCharsets.UTF_8));
        SitemapExpander small = SitemapExpander.create(Settings.builder().maxBytes(10_000).build());

        Unreadable unreadable = unreadable(small.expand(ROOT, bomb, "application/gzip", PLENTY));

        assertTrue(bomb.length < 10_000, "the compressed body is within the limit");
        assertEquals(new Unreadable(Why.TOO_LARGE, "more than 10000 bytes once decompressed"), unreadable);
    }

    @Test
    void expand_whenGzipIsTruncated_isBadGzip() {
        byte[] gzip = gzip(fixture("urlset-with-lastmods.xml"));

        Unreadable unreadable = unreadable(expander.expand(ROOT, Arrays.copyOf(gzip, gzip.length / 2),
                "application/gzip", PLENTY));

        assertEquals(Why.BAD_GZIP, unreadable.why());
    }

    @Test
    void expand_whenGzipHoldsGzip_isBadGzip() {
        byte[] twice = gzip(gzip(fixture("urlset-with-lastmods.xml")));

        Unreadable unreadable = unreadable(expander.expand(ROOT, twice, "application/gzip", PLENTY));

        assertEquals(new Unreadable(Why.BAD_GZIP, "gzip inside gzip"), unreadable);
    }

    @Test
    void expand_whenContentTypeSaysGzipOverABodyThatIsNot_isBadGzip() {
        byte[] body = "no sitemap here".getBytes(StandardCharsets.UTF_8);

        Unreadable unreadable = unreadable(expander.expand(ROOT, body, "application/x-gzip", PLENTY));

        assertEquals(Why.BAD_GZIP, unreadable.why());
    }

    // --- limits

    @Test
    void expand_whenUrlsetHasMoreThan50000Urls_takesTheFirst50000AndCountsTheRest() {
        Urls urls = urls(expander.expand(ROOT, urlset(50_001), "application/xml", PLENTY));

        assertEquals(50_000, urls.accepted().size());
        assertEquals("https://example.com/p49999", urls.accepted().getLast().url());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.URLS_PER_SITEMAP, 1)), urls.limit());
    }

    @Test
    void expand_whenTextSitemapHasMoreThan50000Lines_countsTheLinesCrawlerCommonsLeavesUnread() {
        String text = "\n".repeat(10) + lines(50_003);

        Urls urls = urls(expander.expand(ROOT, text.getBytes(StandardCharsets.UTF_8), "text/plain", PLENTY));

        // crawler-commons reads 50,000 lines, the 10 blank ones among them
        assertEquals(49_990, urls.accepted().size());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.URLS_PER_SITEMAP, 13)), urls.limit());
    }

    @Test
    void expand_whenTheLimitPerSitemapIsSmall_leavesOutTheEntriesAfterItRefusedOrNot() {
        SitemapExpander three = SitemapExpander.create(Settings.builder().maxUrlsPerSitemap(3).build());

        Urls urls = urls(three.expand(CATALOG, fixture("cross-site-and-outside-path.xml"), "text/xml", PLENTY));

        assertEquals(List.of(entry("https://example.com/catalog/1", null)), urls.accepted());
        assertEquals(2, urls.refused().size());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.URLS_PER_SITEMAP, 4)), urls.limit());
    }

    @Test
    void expand_whenIndexListsMoreSitemapsThanTheLimit_countsTheRest() {
        SitemapExpander two = SitemapExpander.create(Settings.builder().maxUrlsPerSitemap(2).build());

        Index index = index(two.expand(INDEX, fixture("sitemap-index.xml"), "application/xml", PLENTY));

        assertEquals(2, index.sitemaps().size());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.URLS_PER_SITEMAP, 4)), index.limit());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rss-feed.xml", "atom-feed.xml"})
    void expand_whenFeedHasMoreEntriesThanTheLimit_takesTheFirstAndCountsTheRest(String name) {
        SitemapExpander one = SitemapExpander.create(Settings.builder().maxUrlsPerSitemap(1).build());
        SitemapSource feed = SitemapSource.named("https://example.com/news/feed.xml");

        Urls urls = urls(one.expand(feed, fixture(name), "application/xml", PLENTY));

        assertEquals(List.of("https://example.com/news/1"), urls.accepted().stream().map(SitemapEntry::url).toList());
        assertEquals(List.of(), urls.refused());
        long entries = name.startsWith("rss") ? 3 : 2;
        assertEquals(Optional.of(new LimitHit(SitemapLimit.URLS_PER_SITEMAP, entries - 1)), urls.limit());
    }

    @Test
    void expand_whenTheBatchTakesFewerUrls_stopsAtTheFirstUrlBeyondIt() {
        Urls urls = urls(expander.expand(ROOT, fixture("urlset-with-lastmods.xml"), "application/xml",
                new Budget(2, 10)));

        assertEquals(URLSET_ENTRIES.subList(0, 2), urls.accepted());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.URLS_PER_BATCH, 3)), urls.limit());
    }

    @Test
    void expand_whenTheBatchTakesNoMoreUrls_acceptsNone() {
        Urls urls = urls(expander.expand(ROOT, fixture("urlset-with-lastmods.xml"), "application/xml",
                new Budget(0, 10)));

        assertEquals(new Urls(List.of(), List.of(), Optional.of(new LimitHit(SitemapLimit.URLS_PER_BATCH, 5))), urls);
    }

    @Test
    void expand_whenTheBatchBudgetIsSpentOnItsLastUrl_refusesTheRestWithoutALimit() {
        Urls urls = urls(expander.expand(CATALOG, fixture("cross-site-and-outside-path.xml"), "text/xml",
                new Budget(2, 10)));

        assertEquals(2, urls.accepted().size());
        assertEquals(5, urls.refused().size());
        assertEquals(Optional.empty(), urls.limit());
    }

    @Test
    void expand_whenTheBatchBudgetRunsOutMidway_classifiesTheEntriesBeforeTheCut() {
        Urls urls = urls(expander.expand(CATALOG, fixture("cross-site-and-outside-path.xml"), "text/xml",
                new Budget(1, 10)));

        assertEquals(List.of(entry("https://example.com/catalog/1", null)), urls.accepted());
        assertEquals(5, urls.refused().size());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.URLS_PER_BATCH, 1)), urls.limit());
    }

    @Test
    void expand_whenBothTheBatchAndTheSitemapLimitCut_reportsTheBatchsWithEverythingLeftOut() {
        SitemapExpander three = SitemapExpander.create(Settings.builder().maxUrlsPerSitemap(3).build());

        Urls urls = urls(three.expand(ROOT, fixture("urlset-with-lastmods.xml"), "application/xml",
                new Budget(1, 10)));

        assertEquals(Optional.of(new LimitHit(SitemapLimit.URLS_PER_BATCH, 4)), urls.limit());
    }

    @Test
    void expand_whenTheBatchReadsFewerSitemaps_stopsAtTheFirstChildBeyondIt() {
        Index index = index(expander.expand(INDEX, fixture("sitemap-index.xml"), "application/xml",
                new Budget(1_000, 2)));

        assertEquals(2, index.sitemaps().size());
        assertEquals(3, index.refused().size());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.SITEMAPS_PER_BATCH, 1)), index.limit());
    }

    @Test
    void expand_whenAnIndexNamesMoreThanOneIndexMayGive_stopsThereAndSaysSo() {
        SitemapExpander two = SitemapExpander.create(Settings.builder().maxSitemapsPerIndex(2).build());

        Index index = index(two.expand(INDEX, fixture("sitemap-index.xml"), "application/xml", PLENTY));

        assertEquals(2, index.sitemaps().size());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.SITEMAPS_PER_INDEX, 1)), index.limit());
    }

    @Test
    void expand_whenIndexIsAtTheMaximumDepth_namesNoSitemaps() {
        SitemapSource deep = INDEX.child(RequestUrl.from("https://example.com/sitemaps/a.xml"))
                .child(RequestUrl.from("https://example.com/sitemaps/b.xml"));

        Index index = index(expander.expand(deep, fixture("sitemap-index.xml"), "application/xml", PLENTY));

        assertEquals(2, deep.indexDepth());
        assertEquals(new Index(List.of(), List.of(), Optional.of(new LimitHit(SitemapLimit.INDEX_DEPTH, 6))), index);
    }

    // --- settings and sources

    @Test
    void settings_whenBuiltWithoutChanges_areTheProtocolsLimits() {
        assertEquals(new Settings(52_428_800, 50_000, 2, 1_000), Settings.builder().build());
        assertEquals(Settings.DEFAULTS, SitemapExpander.create().settings());
    }

    @Test
    void settings_whenAboveTheProtocolOrNotPositive_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().maxUrlsPerSitemap(50_001).build());
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().maxBytes(52_428_801).build());
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().maxBytes(0).build());
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().maxIndexDepth(-1).build());
        assertThrows(IllegalArgumentException.class, () -> new Budget(-1, 0));
    }

    @Test
    void source_whenUrlIsNoHttpUrl_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> SitemapSource.named("ftp://example.com/sitemap.xml"));
        assertThrows(IllegalArgumentException.class, () -> SitemapSource.named("/sitemap.xml"));
    }

    // --- helpers

    private static SitemapEntry entry(String url, String lastmod) {
        return new SitemapEntry(url, Optional.ofNullable(lastmod).map(Instant::parse));
    }

    private static List<String> urlsOf(List<SitemapSource> sources) {
        return sources.stream().map(s -> s.url().value()).toList();
    }

    private static Urls urls(SitemapOutcome outcome) {
        return assertInstanceOf(Urls.class, outcome);
    }

    private static Index index(SitemapOutcome outcome) {
        return assertInstanceOf(Index.class, outcome);
    }

    private static Unreadable unreadable(SitemapOutcome outcome) {
        return assertInstanceOf(Unreadable.class, outcome);
    }

    private static byte[] urlset(int count) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for (int i = 0; i < count; i++) {
            xml.append("<url><loc>https://example.com/p").append(i).append("</loc></url>\n");
        }
        return xml.append("</urlset>\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String lines(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("https://example.com/p").append(i).append('\n');
        }
        return text.toString();
    }

    private static byte[] fixture(String name) {
        try (InputStream in = SitemapExpanderTest.class.getResourceAsStream("/sitemap/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
