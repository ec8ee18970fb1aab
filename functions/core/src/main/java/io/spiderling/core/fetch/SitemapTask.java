package io.spiderling.core.fetch;

import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.url.NormalizedUrl;
import java.util.List;

/**
 * What makes a fetch job the reading of a sitemap (ADR 19) rather than the fetch of a page: how deep in an index it
 * is, which robots.txt files named it, and whether it is a site's robots.txt, read for the sitemaps its
 * {@code Sitemap:} lines name. A sitemap is an item of its batch with a key of its own ({@link #itemKey}), so that a
 * batch may name a URL both as a page and as a sitemap.
 *
 * @param indexDepth 0 for a sitemap the batch named or a robots.txt named; n + 1 for one that an index at depth n
 *     named
 * @param namedBy the robots.txt URLs whose {@code Sitemap:} lines named it, for the protocol's cross-submit rule;
 *     empty when the client named it
 * @param robotsTxt the job reads a robots.txt for its {@code Sitemap:} lines ({@code "sitemapsFromRobots"}), not a
 *     sitemap; stored and sent only when true, so a job written before the field existed reads a sitemap
 */
public record SitemapTask(int indexDepth, List<String> namedBy, boolean robotsTxt) {

    public SitemapTask {
        if (indexDepth < 0) {
            throw new IllegalArgumentException("indexDepth must not be negative, was " + indexDepth);
        }
        namedBy = List.copyOf(namedBy);
        if (robotsTxt && (indexDepth != 0 || !namedBy.isEmpty())) {
            throw new IllegalArgumentException("a robots.txt is read at depth 0 and named by no other robots.txt");
        }
    }

    /** A sitemap at {@code indexDepth}, named by {@code namedBy}. */
    public SitemapTask(int indexDepth, List<String> namedBy) {
        this(indexDepth, namedBy, false);
    }

    /** A sitemap the client named. */
    public static SitemapTask named() {
        return new SitemapTask(0, List.of());
    }

    /** A site's robots.txt, read for the sitemaps it names. */
    public static SitemapTask robotsTxtOfSite() {
        return new SitemapTask(0, List.of(), true);
    }

    /** A sitemap the {@code Sitemap:} lines of these robots.txt files name: they vouch for it (cross-submits). */
    public static SitemapTask namedIn(List<String> robotsTxtUrls) {
        return new SitemapTask(0, robotsTxtUrls);
    }

    /** A sitemap an index at this one's depth names, vouched for by the same robots.txt files. */
    public SitemapTask child() {
        return new SitemapTask(indexDepth + 1, namedBy);
    }

    /** The key of the batch item, the claim and the frontier entry of the sitemap at {@code url}. */
    public static String itemKey(NormalizedUrl url) {
        return ItemKind.SITEMAP.key(url);
    }
}
