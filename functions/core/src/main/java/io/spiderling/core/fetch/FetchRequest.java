package io.spiderling.core.fetch;

import java.util.Objects;
import java.util.Optional;

/**
 * One GET to make. The fetcher follows no redirect: the fetch stage checks each hop against robots.txt and the rate
 * limit, and works out its target with {@link io.spiderling.core.url.UrlNormalizer#resolve}.
 *
 * @param ifNoneMatch the stored copy's ETag, for a conditional GET
 * @param ifModifiedSince the stored copy's Last-Modified, for a conditional GET
 */
public record FetchRequest(String url, Optional<String> ifNoneMatch, Optional<String> ifModifiedSince) {

    public FetchRequest {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(ifNoneMatch, "ifNoneMatch");
        Objects.requireNonNull(ifModifiedSince, "ifModifiedSince");
    }

    /** A plain GET. */
    public static FetchRequest get(String url) {
        return new FetchRequest(url, Optional.empty(), Optional.empty());
    }

    /** A GET that asks for the body only if it changed since the stored copy's validators. */
    public static FetchRequest conditional(String url, Optional<String> ifNoneMatch, Optional<String> ifModifiedSince) {
        return new FetchRequest(url, ifNoneMatch, ifModifiedSince);
    }
}
