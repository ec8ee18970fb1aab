package io.spiderling.core.fetch;

import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.url.NormalizedUrl;
import java.util.List;

/**
 * What makes a fetch job the reading of a sitemap (ADR 19) rather than the fetch of a page: how deep in an index it
 * is, and which robots.txt files named it. A sitemap is an item of its batch with a key of its own
 * ({@link #itemKey}), so that a batch may name a URL both as a page and as a sitemap.
 *
 * @param indexDepth 0 for a sitemap the batch named; n + 1 for one that an index at depth n named
 * @param namedBy the robots.txt URLs whose {@code Sitemap:} lines named it, for the protocol's cross-submit rule;
 *     empty when the client named it
 */
public record SitemapTask(int indexDepth, List<String> namedBy) {

    public SitemapTask {
        if (indexDepth < 0) {
            throw new IllegalArgumentException("indexDepth must not be negative, was " + indexDepth);
        }
        namedBy = List.copyOf(namedBy);
    }

    /** A sitemap the client named. */
    public static SitemapTask named() {
        return new SitemapTask(0, List.of());
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
