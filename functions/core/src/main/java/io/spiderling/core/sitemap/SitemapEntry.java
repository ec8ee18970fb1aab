package io.spiderling.core.sitemap;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An accepted URL of a sitemap.
 *
 * @param url the URL as the sitemap wrote it (surrounding white space removed; an RSS link resolved against the
 *     feed's URL), to be normalized like any URL a client submits
 * @param lastmod the entry's {@code lastmod} (Atom {@code updated}, RSS {@code pubDate}); empty when it has none or
 *     crawler-commons could not read it
 */
public record SitemapEntry(String url, Optional<Instant> lastmod) {

    public SitemapEntry {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(lastmod, "lastmod");
    }
}
