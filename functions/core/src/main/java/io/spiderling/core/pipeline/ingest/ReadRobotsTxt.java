package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.sitemap.RobotsTxtSitemaps;
import io.spiderling.core.sitemap.SitemapExpander;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Takes the sitemaps a site's robots.txt names into its batch, for a batch that asks for the sites' own
 * ({@code "sitemapsFromRobots": true}, ADR 19). The robots.txt is an item of the batch of kind sitemap, fetched like
 * any sitemap; its {@code Sitemap:} lines ({@link RobotsTxtSitemaps}) become sitemap items at index depth 0, each
 * named by that robots.txt, so the sitemaps protocol's cross-submit rule lets it list the site's URLs wherever it is
 * hosted. They take an index's path ({@link SitemapItems}): parked to be read in their turn, and counted on the batch
 * once.
 */
public final class ReadRobotsTxt {

    /** The most sitemaps taken from one robots.txt: as many as one index may name. */
    public static final int DEFAULT_MAX_SITEMAPS = SitemapExpander.Settings.DEFAULTS.maxSitemapsPerIndex();

    private static final String ROBOTS_PATH = "/robots.txt";

    private final PlanningParts parts;
    private final SitemapItems sitemaps;
    private final int maxSitemaps;
    private final long maxSitemapsPerBatch;

    /**
     * @param maxSitemaps the most sitemaps taken from one robots.txt; the rest are left out, and reported
     * @param maxSitemapsPerBatch how many sitemaps a batch may read: a robots.txt read for its sitemaps is one
     */
    public ReadRobotsTxt(PlanningParts parts, UrlNormalizer normalizer, int maxSitemaps, long maxSitemapsPerBatch) {
        this.parts = Objects.requireNonNull(parts, "parts");
        this.sitemaps = new SitemapItems(parts, Objects.requireNonNull(normalizer, "normalizer"));
        if (maxSitemaps < 1 || maxSitemaps > SitemapExpander.Settings.PROTOCOL_MAX_URLS) {
            throw new IllegalArgumentException("maxSitemaps must be 1 to " + SitemapExpander.Settings.PROTOCOL_MAX_URLS
                    + ", was " + maxSitemaps);
        }
        this.maxSitemaps = maxSitemaps;
        this.maxSitemapsPerBatch = maxSitemapsPerBatch;
    }

    /**
     * Reads the robots.txt at {@code itemUrl} (its item's URL), which {@code requested} answered for {@code batchId}.
     *
     * @param status the answer's status: a 2xx, or a 4xx that says the site has none
     *     ({@link RobotsTxtSitemaps#unavailable})
     * @param contentType the answer's Content-Type, or null
     * @return how the robots.txt's item ends: {@code sitemap-expanded}, with what it named
     * @throws IllegalArgumentException for another status
     */
    public ExpandSitemap.Read read(String batchId, NormalizedUrl itemUrl, String requested, int status, byte[] body,
            String contentType) {
        if (RobotsTxtSitemaps.unavailable(status)) {
            return new ExpandSitemap.Read.Ended(Reason.SITEMAP_EXPANDED, "robots.txt answered " + status
                    + ": the site has none, so it names no sitemap");
        }
        if (status < 200 || status >= 300) {
            throw new IllegalArgumentException("a robots.txt is read from a 2xx or 4xx answer, not " + status);
        }
        RequestUrl answered = RequestUrl.parse(requested);
        Set<RobotsOrigin> sites = sites(itemUrl, answered);
        RobotsTxtSitemaps.Listed listed = RobotsTxtSitemaps.read(answered, sites, body, contentType, maxSitemaps);
        String key = ItemKind.SITEMAP.key(itemUrl);
        // As for an index: it takes a place among the batch's sitemaps, and until its list is counted, the batch's
        // total is not final.
        if (!parts.batches().uploads().sitemapReading(batchId, key, maxSitemapsPerBatch, parts.clock().instant())
                .begun()) {
            return new ExpandSitemap.Read.Ended(Reason.SITEMAP_LIMIT, "the batch has begun " + maxSitemapsPerBatch
                    + " sitemaps, its limit; this robots.txt's were not taken in");
        }
        List<String> namedBy = sites.stream().map(RobotsOrigin::robotsUrl).toList();
        SitemapItems.Taken taken = sitemaps.take(batchId, key, listed.sitemaps(), SitemapTask.namedIn(namedBy));
        int refused = listed.refused().size() + taken.invalid();
        if (listed.sitemaps().isEmpty() && refused == 0) {
            return new ExpandSitemap.Read.Ended(Reason.SITEMAP_EXPANDED, "robots.txt names no sitemap");
        }
        int named = listed.sitemaps().size() + listed.refused().size();
        return new ExpandSitemap.Read.Ended(Reason.SITEMAP_EXPANDED, "robots.txt names " + named
                + (named == 1 ? " sitemap: " : " sitemaps: ") + taken.items() + " items, "
                + taken.duplicates() + " duplicates, " + refused + " refused" + ExpandSitemap.leftOut(listed.limit()));
    }

    /**
     * The sites this robots.txt speaks for: the one the batch asked about, and the one whose robots.txt answered when
     * a redirect led there ({@code http} to {@code https}, most often), since RFC 9309 takes the redirect's target as
     * the first site's robots.txt and it is its own site's too.
     */
    private static Set<RobotsOrigin> sites(NormalizedUrl itemUrl, RequestUrl answered) {
        Set<RobotsOrigin> sites = new LinkedHashSet<>(List.of(RobotsOrigin.of(itemUrl)));
        if (answered.target().equals(ROBOTS_PATH)) {
            sites.add(RobotsOrigin.of(answered));
        }
        return sites;
    }
}
