package io.spiderling.core.sitemap;

import java.util.Objects;

/**
 * An entry that is not taken, and why.
 *
 * @param url the entry as the sitemap wrote it (surrounding white space removed)
 * @param reason why it is refused
 */
public record RefusedEntry(String url, SitemapRefusal reason) {

    public RefusedEntry {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(reason, "reason");
    }
}
