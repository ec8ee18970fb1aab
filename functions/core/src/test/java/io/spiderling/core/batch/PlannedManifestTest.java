package io.spiderling.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlannedManifestTest {

    private static final UrlNormalizer NORMALIZER = UrlNormalizer.create();

    @Test
    void write_whenSpellingEqualsKey_writesTheKeyAloneAndReadsItBack() {
        List<Accepted> urls = List.of(accepted("https://example.com/a"), accepted("https://example.com/b?x=1"));

        byte[] manifest = PlannedManifest.write(urls);

        assertEquals("https://example.com/a\nhttps://example.com/b?x=1\n", text(manifest));
        assertEquals(urls, PlannedManifest.read(manifest));
    }

    @Test
    void write_whenSpellingDiffers_writesKeyTabSpellingAndReadsBothBack() {
        List<Accepted> urls = List.of(accepted("https://example.com/p?b=2&utm_source=x&a=1"));

        byte[] manifest = PlannedManifest.write(urls);

        assertEquals("https://example.com/p?a=1&b=2\thttps://example.com/p?b=2&utm_source=x&a=1\n", text(manifest));
        assertEquals(urls, PlannedManifest.read(manifest));
    }

    @Test
    void write_whenSitemapsAndRobotsTxtFiles_marksEachLineAndReadsEachListApart() {
        List<Accepted> urls = List.of(accepted("https://example.com/a"));
        List<Accepted> sitemaps = List.of(accepted("https://example.com/sitemap.xml"));
        List<Accepted> robots = List.of(accepted("https://example.com/robots.txt"),
                accepted("http://other.example:8080/robots.txt"));

        byte[] manifest = PlannedManifest.write(urls, sitemaps, robots);

        assertEquals("https://example.com/a\nsitemap\thttps://example.com/sitemap.xml\n"
                + "robots\thttps://example.com/robots.txt\nrobots\thttp://other.example:8080/robots.txt\n",
                text(manifest));
        assertEquals(urls, PlannedManifest.read(manifest));
        assertEquals(sitemaps, PlannedManifest.readSitemaps(manifest));
        assertEquals(robots, PlannedManifest.readRobots(manifest));
        assertEquals(List.of(), PlannedManifest.readRobots(PlannedManifest.write(urls, sitemaps)),
                "a manifest written before them has none");
    }

    @Test
    void read_whenBlankLines_skipsThem() {
        assertEquals(List.of(accepted("https://example.com/a")),
                PlannedManifest.read("\nhttps://example.com/a\n\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void read_whenTheSpellingIsNoRequestUrl_refusesTheManifest() {
        assertThrows(IllegalArgumentException.class, () -> PlannedManifest.read(
                "https://example.com/a\tftp://example.com/a\n".getBytes(StandardCharsets.UTF_8)));
    }

    private static Accepted accepted(String url) {
        return (Accepted) NORMALIZER.normalize(url);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
