package io.spiderling.core.fetch;

import java.util.Objects;
import java.util.Optional;

/**
 * One GET to make.
 *
 * @param maxRedirects redirects the fetcher follows itself; 0 for pages, whose hops the fetch stage checks against
 *     robots.txt and the rate limit one by one; robots.txt itself follows up to 5
 * @param ifNoneMatch the stored copy's ETag, for a conditional GET
 * @param ifModifiedSince the stored copy's Last-Modified, for a conditional GET
 */
public record FetchRequest(String url, int maxRedirects, Optional<String> ifNoneMatch,
        Optional<String> ifModifiedSince) {

    public FetchRequest {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(ifNoneMatch, "ifNoneMatch");
        Objects.requireNonNull(ifModifiedSince, "ifModifiedSince");
        if (maxRedirects < 0) {
            throw new IllegalArgumentException("maxRedirects must not be negative, was " + maxRedirects);
        }
    }

    /** A plain GET that follows no redirect. */
    public static FetchRequest get(String url) {
        return new FetchRequest(url, 0, Optional.empty(), Optional.empty());
    }
}
