package io.spiderling.core.politeness;

import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.fetch.FailureKind;
import java.util.Arrays;
import java.util.Optional;

/**
 * What one fetch says about the site and about the URL, in the few classes that the rate limiter and the retry policy
 * treat differently. One classification for both, so a status the limiter reads as "slow down" is never one the retry
 * policy reads as "give up".
 *
 * <p><b>Evidence, not one URL.</b> Only an explicit request to slow down is {@link #THROTTLED}: a 429, or a 5xx that
 * says when to come back (a readable {@code Retry-After}). A 503 without one is a {@link #SERVER_ERROR} like any other
 * 5xx: one URL failing says little about the site, so it retries that URL and widens the site's interval, and only
 * several different URLs failing in a row pause the site (see {@link RateLimiter}).
 */
public enum FetchOutcome {
    /** 1xx–3xx: an answer to record (a redirect is followed elsewhere, and a 304 is a success). */
    OK("ok", false),
    /** 429 Too Many Requests, or a 5xx with a Retry-After: the site asks us to slow down or come back later. */
    THROTTLED("throttled", true),
    /** Other 5xx: the site failed, perhaps briefly. */
    SERVER_ERROR("server-error", true),
    /** Other 4xx: asking again gets the same answer. */
    CLIENT_ERROR("client-error", false),
    /** No answer in time, or 408 Request Timeout, where the site itself says the exchange took too long. */
    TIMEOUT("timeout", true),
    /** The connection was refused or reset. */
    CONNECT("connect", true),
    /** The name did not resolve. Often permanent, but resolvers fail briefly too, so it gets the same attempts. */
    DNS("dns", true),
    /** The TLS handshake failed. */
    TLS("tls", true),
    /** Any other failure to read an answer. */
    IO("io", true),
    /** The fetcher refused the request (SSRF guard, scheme, decompression limit): the site was never asked. */
    BLOCKED("blocked", false),
    /**
     * The fetcher did not send the request, since it could not go out within its slot's window (see
     * {@link RateLimiter}): the site was not asked, and the URL takes a new slot.
     */
    LATE("late", true);

    private final String wireName;
    private final boolean retryable;

    FetchOutcome(String wireName, boolean retryable) {
        this.wireName = wireName;
        this.retryable = retryable;
    }

    /** The outcome of a response (its status and whether it carries a Retry-After) or of a failure to get one. */
    public static FetchOutcome of(FetchResult result) {
        return switch (result) {
            case FetchResult.Response r -> ofStatus(r.status(), r.headers().containsKey("retry-after"));
            case FetchResult.Failure f -> of(f.kind());
        };
    }

    /**
     * Status codes outside 100–599 are read as client errors: a broken answer is not worth asking for again.
     *
     * @param retryAfter whether the answer carries a Retry-After header
     */
    public static FetchOutcome ofStatus(int status, boolean retryAfter) {
        if (status == 429 || (status >= 500 && status < 600 && retryAfter)) {
            return THROTTLED;
        }
        if (status == 408) {
            return TIMEOUT;
        }
        if (status >= 100 && status < 400) {
            return OK;
        }
        return status >= 500 && status < 600 ? SERVER_ERROR : CLIENT_ERROR;
    }

    public static FetchOutcome of(FailureKind kind) {
        return switch (kind) {
            case TIMEOUT -> TIMEOUT;
            case CONNECT -> CONNECT;
            case DNS -> DNS;
            case TLS -> TLS;
            case IO -> IO;
            case BLOCKED -> BLOCKED;
            case LATE -> LATE;
        };
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<FetchOutcome> fromWireName(String name) {
        return Arrays.stream(values()).filter(o -> o.wireName.equals(name)).findFirst();
    }

    /** Whether another attempt can get a different answer. */
    public boolean retryable() {
        return retryable;
    }

    /** Whether the site failed to answer this request properly: a server error or no usable answer. */
    public boolean siteFailure() {
        return retryable && this != THROTTLED && this != LATE;
    }
}
