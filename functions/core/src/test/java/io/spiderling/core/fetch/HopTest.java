package io.spiderling.core.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a hop is for, and what its redirects keep of it. */
class HopTest {

    private static final Instant LASTMOD = Instant.parse("2026-11-01T10:00:00Z");

    private static NormalizationResult.Accepted accepted(String url) {
        return (NormalizationResult.Accepted) UrlNormalizer.create().normalize(url);
    }

    @Test
    void next_whenAPageDatedByASitemapRedirects_theTargetIsNotDated() {
        Hop listed = Hop.listed(accepted("https://example.com/a"), Optional.of(LASTMOD));

        Hop target = listed.next(accepted("https://example.com/b"));

        assertEquals(Optional.of(LASTMOD), listed.lastmod());
        assertEquals(Optional.empty(), target.lastmod(), "the sitemap dated a, not b");
        assertEquals(Hop.Purpose.PAGE, target.purpose());
    }

    @Test
    void next_whenASitemapRedirects_theTargetIsStillTheSitemap() {
        SitemapTask task = new SitemapTask(1, List.of("https://example.com/robots.txt"));
        Hop sitemap = Hop.sitemap(accepted("https://example.com/s.xml"), task);

        Hop target = sitemap.next(accepted("https://example.com/s2.xml"));

        assertEquals(Optional.of(task), target.sitemap());
        assertEquals(SitemapTask.itemKey(NormalizedUrl.parse("https://example.com/s.xml")), target.itemKey());
        assertEquals(Optional.empty(), target.lastmod());
    }

    @Test
    void withLastmod_whenTheHopReadsASitemap_isRefused() {
        Hop sitemap = Hop.sitemap(accepted("https://example.com/s.xml"), SitemapTask.named());

        assertThrows(IllegalArgumentException.class, () -> sitemap.withLastmod(LASTMOD));
    }
}
