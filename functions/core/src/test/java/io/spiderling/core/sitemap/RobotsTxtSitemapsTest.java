package io.spiderling.core.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.sitemap.RobotsTxtSitemaps.Listed;
import io.spiderling.core.url.RequestUrl;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RobotsTxtSitemapsTest {

    private static final RequestUrl ROBOTS = RequestUrl.from("https://example.com/robots.txt");
    private static final Set<RobotsOrigin> SITE = Set.of(RobotsOrigin.of(ROBOTS));

    @Test
    void read_whenTwoSitemapLines_listsBothInOrderEachVouchedForByTheSite() {
        Listed listed = RobotsTxtSitemaps.read(ROBOTS, SITE, fixture("robots-two-sitemaps.txt"), "text/plain", 1_000);

        assertEquals(List.of(SitemapSource.fromRobots("https://example.com/sitemap.xml", SITE),
                SitemapSource.fromRobots("https://cdn.example.net/example/sitemap-products.xml.gz", SITE)),
                listed.sitemaps());
        assertEquals(List.of(), listed.refused());
        assertEquals(Optional.empty(), listed.limit());
    }

    @Test
    void read_whenASitemapIsHostedOnAnotherSite_itMayListTheUrlsOfTheSiteWhoseRobotsTxtNamedIt() {
        SitemapSource elsewhere = RobotsTxtSitemaps.read(ROBOTS, SITE, fixture("robots-two-sitemaps.txt"), null,
                1_000).sitemaps().get(1);

        assertEquals(0, elsewhere.indexDepth());
        assertEquals(Optional.empty(), SitemapLocation.refusal(elsewhere, "https://example.com/products/1"),
                "the cross-submit rule");
        assertEquals(Optional.of(SitemapRefusal.OTHER_SITE),
                SitemapLocation.refusal(elsewhere, "https://third.example.org/p"));
    }

    @Test
    void read_whenNoSitemapLine_listsNothing() {
        Listed listed = RobotsTxtSitemaps.read(ROBOTS, SITE, fixture("robots-no-sitemap.txt"), "text/plain", 1_000);

        assertEquals(new Listed(List.of(), List.of(), Optional.empty()), listed);
    }

    @Test
    void read_whenEmpty_listsNothing() {
        assertEquals(new Listed(List.of(), List.of(), Optional.empty()),
                RobotsTxtSitemaps.read(ROBOTS, SITE, new byte[0], "text/plain", 1_000));
    }

    @Test
    void read_whenRelativeAndInvalidLines_resolvesTheRelativeOneAndRefusesWhatCannotBeFetched() {
        Listed listed = RobotsTxtSitemaps.read(ROBOTS, SITE, fixture("robots-relative-and-invalid-sitemaps.txt"),
                "text/plain; charset=utf-8", 1_000);

        assertEquals(List.of(SitemapSource.fromRobots("https://example.com/sitemaps/news.xml", SITE)),
                listed.sitemaps(), "resolved against the robots.txt URL, and listed once");
        assertEquals(List.of(new RefusedEntry("ftp://example.com/sitemap.xml", SitemapRefusal.INVALID_URL),
                new RefusedEntry("https://user:secret@example.com/sitemap.xml", SitemapRefusal.INVALID_URL),
                new RefusedEntry("https://example.com/robots.txt", SitemapRefusal.INVALID_URL)), listed.refused());
    }

    @Test
    void read_whenMoreSitemapsThanTheLimit_takesTheFirstAndCountsTheRestLeftOut() {
        String text = "Sitemap: https://example.com/a.xml\nSitemap: https://example.com/b.xml\n"
                + "Sitemap: https://example.com/c.xml\n";

        Listed listed = RobotsTxtSitemaps.read(ROBOTS, SITE, text.getBytes(StandardCharsets.UTF_8), null, 1);

        assertEquals(List.of(SitemapSource.fromRobots("https://example.com/a.xml", SITE)), listed.sitemaps());
        assertEquals(Optional.of(new LimitHit(SitemapLimit.SITEMAPS_PER_BATCH, 2)), listed.limit());
    }

    @Test
    void read_whenAnHtmlPageIsServedForRobotsTxt_listsNothing() {
        byte[] page = "<html><body>\nSitemap: https://example.com/sitemap.xml\n</body></html>"
                .getBytes(StandardCharsets.UTF_8);

        assertTrue(RobotsTxtSitemaps.read(ROBOTS, SITE, page, "text/html", 1_000).sitemaps().isEmpty());
    }

    @Test
    void read_whenLongerThanTheParseLimit_readsTheLinesWithinIt() {
        String within = "Sitemap: https://example.com/within.xml\n";
        String padding = ("# " + "x".repeat(98) + "\n").repeat(RobotsTxtSitemaps.MAX_BYTES / 101 + 1);
        byte[] body = (within + padding + "Sitemap: https://example.com/beyond.xml\n")
                .getBytes(StandardCharsets.UTF_8);

        Listed listed = RobotsTxtSitemaps.read(ROBOTS, SITE, body, "text/plain", 1_000);

        assertEquals(List.of(SitemapSource.fromRobots("https://example.com/within.xml", SITE)), listed.sitemaps());
    }

    @ParameterizedTest
    @CsvSource({"200,false", "301,false", "400,true", "401,true", "403,true", "404,true", "410,true", "429,false",
            "500,false", "503,false"})
    void unavailable_whenStatus_isA4xxOtherThan429(int status, boolean unavailable) {
        assertEquals(unavailable, RobotsTxtSitemaps.unavailable(status));
    }

    private static byte[] fixture(String name) {
        try (InputStream in = RobotsTxtSitemapsTest.class.getResourceAsStream("/sitemap/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
