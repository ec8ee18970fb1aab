package io.spiderling.core.sitemap;

/** A limit that stopped the reading of a sitemap before its end; see {@link SitemapExpander.Settings}. */
public enum SitemapLimit {

    /**
     * The protocol's 50,000 entries per file (URLs of a urlset, sitemaps of an index), or the configured number:
     * entries after it are not read.
     */
    URLS_PER_SITEMAP("sitemap-limit-urls-per-sitemap"),

    /** The batch may take no more URLs. */
    URLS_PER_BATCH("sitemap-limit-urls-per-batch"),

    /** An index names more sitemaps than are taken from one index. */
    SITEMAPS_PER_INDEX("sitemap-limit-sitemaps-per-index"),

    /** The batch may read no more sitemaps. */
    SITEMAPS_PER_BATCH("sitemap-limit-sitemaps-per-batch"),

    /** The index is nested deeper than the indexes the batch follows. */
    INDEX_DEPTH("sitemap-limit-index-depth");

    private final String wireName;

    SitemapLimit(String wireName) {
        this.wireName = wireName;
    }

    /** The code clients see. */
    public String wireName() {
        return wireName;
    }
}
