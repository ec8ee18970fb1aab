package io.spiderling.core.sitemap;

/**
 * Why an entry of a sitemap, or a child sitemap of an index, is not taken: the location rules of the sitemaps protocol
 * (see {@link SitemapLocation}), or a URL Spiderling cannot fetch. These are the sitemap's own codes, kept apart from
 * the batch's item reasons until the fetch stage records them.
 */
public enum SitemapRefusal {

    /** Not an absolute http(s) URL, malformed, or with user info, which the fetcher never sends. */
    INVALID_URL("sitemap-invalid-url"),

    /** Another scheme, host or port than the sitemap's, and no robots.txt of that origin named the sitemap. */
    OTHER_SITE("sitemap-other-site"),

    /** The sitemap's own origin, but outside the directory the sitemap lives in. */
    OUTSIDE_PATH("sitemap-outside-path");

    private final String wireName;

    SitemapRefusal(String wireName) {
        this.wireName = wireName;
    }

    /** The code clients see. */
    public String wireName() {
        return wireName;
    }
}
