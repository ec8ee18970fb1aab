package io.spiderling.core.politeness;

import io.spiderling.core.fetch.FetchResult;
import java.util.Locale;

/**
 * What one fetch says about the site and about the URL, in the few classes that the rate limiter and the retry policy
 * treat differently. One classification for both, so a status the limiter reads as "slow down" is never one the retry
 * policy reads as "give up".
 */
public enum FetchOutcome {
    /** 1xx–3xx: an answer to record (a redirect is followed elsewhere, and a 304 is a success). */
    OK("ok", false),
    /** 429 Too Many Requests and 503 Service Unavailable: the site asks us to slow down or come back later. */
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
    IO("io", true);

    private final String wireName;
    private final boolean retryable;

    FetchOutcome(String wireName, boolean retryable) {
        this.wireName = wireName;
        this.retryable = retryable;
    }

    /** The outcome of a response or of a failure to get one. */
    public static FetchOutcome of(FetchResult result) {
        return switch (result) {
            case FetchResult.Response r -> ofStatus(r.status());
            case FetchResult.Failure f -> ofFailureKind(f.kind());
        };
    }

    /** Status codes outside 100–599 are read as client errors: a broken answer is not worth asking for again. */
    public static FetchOutcome ofStatus(int status) {
        if (status == 429 || status == 503) {
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

    /** Reads {@link FetchResult.Failure#kind()}; an unknown kind is {@link #IO}. */
    public static FetchOutcome ofFailureKind(String kind) {
        return switch (kind == null ? "" : kind.toLowerCase(Locale.ROOT)) {
            case "timeout" -> TIMEOUT;
            case "connect" -> CONNECT;
            case "dns" -> DNS;
            case "tls" -> TLS;
            default -> IO;
        };
    }

    public String wireName() {
        return wireName;
    }

    /** Whether another attempt can get a different answer. */
    public boolean retryable() {
        return retryable;
    }
}
