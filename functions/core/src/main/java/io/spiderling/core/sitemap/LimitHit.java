package io.spiderling.core.sitemap;

import java.util.Objects;

/**
 * A limit that cut a sitemap short, and how many of its entries were left out: the entries from the first one the
 * limit stopped to the end of the file, neither accepted nor refused.
 *
 * @param limit which limit
 * @param leftOut how many entries were not taken, at least 1
 */
public record LimitHit(SitemapLimit limit, long leftOut) {

    public LimitHit {
        Objects.requireNonNull(limit, "limit");
        if (leftOut < 1) {
            throw new IllegalArgumentException("a limit that was hit left out at least one entry, not " + leftOut);
        }
    }
}
