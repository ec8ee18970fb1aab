package io.spiderling.local.nativecheck;

import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.Hashing;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What both builds share: a small web site on 127.0.0.2 for the fetch stage to crawl, a webhook receiver on 127.0.0.3
 * for the notify stage to call, the uploaded manifest the plan stage cuts into chunks, and a rate overrides file. Both
 * builds see the same URLs (the same hosts and ports), so their answers can be compared as they are.
 */
public final class Fixture implements AutoCloseable {

    /** The page the fetch stage gets, and the extract stage reads: every field the extractor looks for. */
    static final String PAGE = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>Native check: the sample page</title>
            <meta name="description" content="A page with something for every extractor rule.">
            <meta property="og:title" content="Native check">
            <meta property="og:image" content="/logo.png">
            <meta name="twitter:card" content="summary">
            <link rel="canonical" href="/">
            <script type="application/ld+json">
            {"@context":"https://schema.org","@type":"Product","name":"Spiderling",
            "offers":{"@type":"Offer","price":"0","priceCurrency":"EUR"}}
            </script>
            </head><body><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
            <main><article><h1>Sample</h1>
            <p>Überall Zeichen außerhalb von ASCII, damit die Kodierung zählt. The article goes on long enough for
            the main-content extractor to find it: a paragraph, a list, a table and a code block, each of which the
            Markdown keeps, while the navigation and the footer are left out.</p>
            <p><a href="/about">About</a> <a href="/gone">Gone</a> <a href="http://127.0.0.9/elsewhere">Elsewhere</a></p>
            <ul><li>one point</li><li>another point</li></ul>
            <table><thead><tr><th>Name</th><th>Price</th><th>Stock</th></tr></thead><tbody>
            <tr><td>Spiderling</td><td>0 EUR</td><td>many</td></tr><tr><td>Crawler</td><td>9 EUR</td><td>few</td></tr>
            <tr><td>Fetcher</td><td>5 EUR</td><td>some</td></tr></tbody></table>
            <pre><code class="language-java">var page = MainContent.create().render(body, type, url);</code></pre>
            </article></main><footer>Footer: imprint and privacy</footer>
            </body></html>
            """;
    /** Allows the pages the check fetches; the disallowed path makes the parser keep a rule. */
    static final String ROBOTS = "User-agent: *\nDisallow: /private/\n";
    static final String HOOK_PATH = "/hooks/spiderling";
    /** Lines per upload: enough for three chunks at the smallest chunk size, 16 KiB. */
    private static final int UPLOAD_LINES = 700;

    private final LocalSites sites;
    private final Path rateOverrides;
    private final byte[] page = PAGE.getBytes(StandardCharsets.UTF_8);

    private Fixture(LocalSites sites, Path rateOverrides) {
        this.sites = sites;
        this.rateOverrides = rateOverrides;
    }

    /** Starts the sites; {@code workDirectory} receives the rate overrides file. */
    public static Fixture start(Path workDirectory) {
        LocalSites sites = LocalSites.start(2);
        try {
            Fixture fixture = new Fixture(sites, sites.rateOverrides(Files.createDirectories(workDirectory), 50));
            sites.site(0).page("/", PAGE).respond("/robots.txt", 200, "text/plain", ROBOTS.getBytes(
                    StandardCharsets.UTF_8));
            sites.site(0).respond("/sitemap.xml", 200, "application/xml", sitemap(sites.site(0)));
            sites.site(1).respond(HOOK_PATH, 204, "text/plain", new byte[0]);
            return fixture;
        } catch (IOException | RuntimeException e) {
            sites.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** A urlset of two pages of the crawled site, with a lastmod, and one of another site, which it refuses. */
    private static byte[] sitemap(LocalSite site) {
        return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                + "  <url><loc>" + site.url("/") + "</loc><lastmod>2026-11-01T10:00:00+00:00</lastmod></url>\n"
                + "  <url><loc>" + site.url("/listed") + "</loc></url>\n"
                + "  <url><loc>https://elsewhere.example/</loc></url>\n"
                + "</urlset>\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The crawled site's sitemap, read by the fetch stage and its list planned by the plan stage. */
    public String sitemapUrl() {
        return crawled().url("/sitemap.xml");
    }

    public LocalSite crawled() {
        return sites.site(0);
    }

    public LocalSite receiver() {
        return sites.site(1);
    }

    /** The page, as its normalized URL. */
    public String pageUrl() {
        return crawled().url("/");
    }

    /** A URL of the same site that is never fetched; the dead-letter stage ends it. */
    public String goneUrl() {
        return crawled().url("/gone");
    }

    public String hookUrl() {
        return receiver().url(HOOK_PATH);
    }

    /** Where the fetch stage stores the page: its content-addressed key. */
    public String pageContentKey() {
        return BucketKeys.content(Hashing.sha256Hex(page));
    }

    public int pageBytes() {
        return page.length;
    }

    /**
     * A JSON-lines manifest of {@value #UPLOAD_LINES} URLs on a site nobody fetches here (the jobs stay queued):
     * objects and bare strings, as the format allows, and a duplicate spelled differently.
     */
    public byte[] upload() {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < UPLOAD_LINES; i++) {
            lines.append(i % 2 == 0 ? "{\"url\":\"https://example.com/upload/" + i + "\"}"
                    : "\"https://example.com/upload/" + i + "\"").append('\n');
        }
        lines.append("\"HTTPS://EXAMPLE.COM:443/upload/0#again\"\n");
        return lines.toString().getBytes(StandardCharsets.UTF_8);
    }

    public Path rateOverrides() {
        return rateOverrides;
    }

    /** How many requests the sites have seen so far; pass it to {@link #requestsSince}. */
    public int requestCount() {
        return sites.allRequests().size();
    }

    public List<RecordedRequest> requestsSince(int count) {
        List<RecordedRequest> all = sites.allRequests();
        return all.subList(Math.min(count, all.size()), all.size());
    }

    @Override
    public void close() {
        sites.close();
    }
}
