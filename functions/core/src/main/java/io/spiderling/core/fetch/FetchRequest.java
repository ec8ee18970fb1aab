package io.spiderling.core.fetch;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One GET to make. The fetcher follows no redirect: the fetch stage checks each hop against robots.txt and the rate
 * limit, and works out its target with {@link io.spiderling.core.url.UrlNormalizer#resolve}.
 *
 * @param validators the stored copy's ETag and Last-Modified, for a conditional GET
 * @param capture keep the exchange as it went over the wire ({@link WireExchange}), for WARC; costs a copy of the
 *     transferred payload when the body was content-encoded
 * @param send when the request may be written to the connection ({@link SendWindow}: held until it opens, not
 *     sent after it closes); empty: at once
 * @param maxBodyBytes the most decoded bytes to keep when this request needs another cap than the fetcher's own for
 *     pages: a sitemap may be 50 MB (ADR 19); empty: the fetcher's
 */
public record FetchRequest(String url, Validators validators, boolean capture, Optional<SendWindow> send,
        OptionalInt maxBodyBytes) {

    public FetchRequest {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(validators, "validators");
        Objects.requireNonNull(send, "send");
        Objects.requireNonNull(maxBodyBytes, "maxBodyBytes");
        if (maxBodyBytes.isPresent() && maxBodyBytes.getAsInt() < 1) {
            throw new IllegalArgumentException("maxBodyBytes must be positive, was " + maxBodyBytes.getAsInt());
        }
    }

    /** The stored copy's validators, each empty when the copy has none. */
    public record Validators(Optional<String> ifNoneMatch, Optional<String> ifModifiedSince) {
        public static final Validators NONE = new Validators(Optional.empty(), Optional.empty());

        public Validators {
            Objects.requireNonNull(ifNoneMatch, "ifNoneMatch");
            Objects.requireNonNull(ifModifiedSince, "ifModifiedSince");
        }
    }

    public FetchRequest(String url, Optional<String> ifNoneMatch, Optional<String> ifModifiedSince) {
        this(url, new Validators(ifNoneMatch, ifModifiedSince), false, Optional.empty(), OptionalInt.empty());
    }

    /** The stored copy's ETag, for {@code If-None-Match}. */
    public Optional<String> ifNoneMatch() {
        return validators.ifNoneMatch();
    }

    /** The stored copy's Last-Modified, for {@code If-Modified-Since}. */
    public Optional<String> ifModifiedSince() {
        return validators.ifModifiedSince();
    }

    /** The same request, with the exchange captured or not. */
    public FetchRequest withCapture(boolean value) {
        return new FetchRequest(url, validators, value, send, maxBodyBytes);
    }

    /** The same request, to be written within {@code window} or not at all. */
    public FetchRequest withSend(SendWindow window) {
        return new FetchRequest(url, validators, capture, Optional.of(window), maxBodyBytes);
    }

    /** The same request, keeping up to {@code bytes} of decoded body instead of the fetcher's cap for pages. */
    public FetchRequest withMaxBodyBytes(int bytes) {
        return new FetchRequest(url, validators, capture, send, OptionalInt.of(bytes));
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
