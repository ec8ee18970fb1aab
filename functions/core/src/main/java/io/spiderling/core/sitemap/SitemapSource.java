package io.spiderling.core.sitemap;

import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.url.RequestUrl;
import java.util.Objects;
import java.util.Set;

/**
 * Where a sitemap came from, which decides what it may list ({@link SitemapLocation}).
 *
 * @param url the sitemap's URL, as requested
 * @param namedBy the origins whose robots.txt named the sitemap in a {@code Sitemap:} line; empty when a client named
 *     it directly. A child of an index keeps its index's: the robots.txt that named the index vouched for the list
 *     the index is the head of.
 * @param indexDepth how many indexes were followed to reach it: 0 for a sitemap named by a client or a robots.txt
 */
public record SitemapSource(RequestUrl url, Set<RobotsOrigin> namedBy, int indexDepth) {

    public SitemapSource {
        Objects.requireNonNull(url, "url");
        namedBy = Set.copyOf(namedBy);
        if (indexDepth < 0) {
            throw new IllegalArgumentException("indexDepth must not be negative, was " + indexDepth);
        }
    }

    /**
     * A sitemap a client named.
     *
     * @throws IllegalArgumentException if {@code url} is no absolute http(s) URL, or has user info
     */
    public static SitemapSource named(String url) {
        return new SitemapSource(RequestUrl.from(url), Set.of(), 0);
    }

    /**
     * A sitemap named by the robots.txt of {@code origins}, each of which it may list URLs of wherever it is hosted.
     *
     * @throws IllegalArgumentException if {@code url} is no absolute http(s) URL, or has user info
     */
    public static SitemapSource fromRobots(String url, Set<RobotsOrigin> origins) {
        return new SitemapSource(RequestUrl.from(url), origins, 0);
    }

    /** A sitemap this one, an index, names. */
    public SitemapSource child(RequestUrl childUrl) {
        return new SitemapSource(childUrl, namedBy, indexDepth + 1);
    }

    /** The scheme, host and port the sitemap is served from. */
    public RobotsOrigin origin() {
        return RobotsOrigin.of(url);
    }

    /**
     * The path up to and including its last {@code /}, the query left out: {@code /catalog/} for
     * {@code /catalog/sitemap.xml?page=2}.
     */
    public String directory() {
        String target = url.target();
        int query = target.indexOf('?');
        String path = query < 0 ? target : target.substring(0, query);
        return path.substring(0, path.lastIndexOf('/') + 1);
    }
}
