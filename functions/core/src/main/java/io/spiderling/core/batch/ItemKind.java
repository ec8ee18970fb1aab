package io.spiderling.core.batch;

import io.spiderling.core.content.Hashing;
import io.spiderling.core.url.NormalizedUrl;
import java.util.Arrays;
import java.util.Optional;

/**
 * What an item of a batch asks for: a page to fetch, or a sitemap to read (ADR 19). Each kind keys its items its own
 * way, so that a batch may name one URL as a page and as a sitemap.
 */
public enum ItemKind {
    /** A page: its item is keyed by the URL's hash. */
    PAGE("page"),
    /** A sitemap: its item is keyed by the hash of {@code "sitemap " + url}. */
    SITEMAP("sitemap");

    private final String wireName;

    ItemKind(String wireName) {
        this.wireName = wireName;
    }

    /** The name stored and shown. */
    public String wireName() {
        return wireName;
    }

    /** The key of the item of this kind for {@code url}: of the batch item, its claim and its frontier entry. */
    public String key(NormalizedUrl url) {
        return this == PAGE ? url.urlHash() : Hashing.sha256Hex("sitemap " + url.value());
    }

    /** The kind of {@code name}, empty for none. */
    public static Optional<ItemKind> fromWireName(String name) {
        return Arrays.stream(values()).filter(k -> k.wireName.equals(name)).findFirst();
    }
}
