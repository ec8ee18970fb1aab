package io.spiderling.core.fetch;

import java.util.Objects;
import java.util.Optional;

/**
 * One GET to make. The fetcher follows no redirect: the fetch stage checks each hop against robots.txt and the rate
 * limit, and works out its target with {@link io.spiderling.core.url.UrlNormalizer#resolve}.
 *
 * @param ifNoneMatch the stored copy's ETag, for a conditional GET
 * @param ifModifiedSince the stored copy's Last-Modified, for a conditional GET
 * @param capture keep the exchange as it went over the wire ({@link WireExchange}), for WARC; costs a copy of the
 *     transferred payload when the body was content-encoded
 * @param send when the request may be written to the connection ({@link SendWindow}: held until it opens, not
 *     sent after it closes); empty: at once
 */
public record FetchRequest(String url, Optional<String> ifNoneMatch, Optional<String> ifModifiedSince,
        boolean capture, Optional<SendWindow> send) {

    public FetchRequest {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(ifNoneMatch, "ifNoneMatch");
        Objects.requireNonNull(ifModifiedSince, "ifModifiedSince");
        Objects.requireNonNull(send, "send");
    }

    public FetchRequest(String url, Optional<String> ifNoneMatch, Optional<String> ifModifiedSince) {
        this(url, ifNoneMatch, ifModifiedSince, false, Optional.empty());
    }

    /** The same request, with the exchange captured or not. */
    public FetchRequest withCapture(boolean value) {
        return new FetchRequest(url, ifNoneMatch, ifModifiedSince, value, send);
    }

    /** The same request, to be written within {@code window} or not at all. */
    public FetchRequest withSend(SendWindow window) {
        return new FetchRequest(url, ifNoneMatch, ifModifiedSince, capture, Optional.of(window));
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
