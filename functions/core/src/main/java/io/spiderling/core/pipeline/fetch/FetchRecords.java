package io.spiderling.core.pipeline.fetch;

import io.spiderling.core.batch.Reason;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.extract.PageDirectivesParser;
import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.recrawl.Freshness;
import io.spiderling.core.recrawl.RecrawlPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds the fetch half of a URL's row from what the fetch stage saw: a stored body, a confirmed copy, a failure, or
 * a refusal before any request. Pure.
 */
final class FetchRecords {

    /**
     * The response headers kept on the metadata row. X-Robots-Tag is kept as received (its lines joined by the
     * fetcher): the API reads the page's directives from it together with the page's meta tags, for its agent.
     */
    static final Set<String> KEPT_HEADERS = Set.of("content-type", "content-length", "etag", "last-modified",
            "cache-control", "expires", "retry-after", PageDirectivesParser.HEADER);

    static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    /** The bounds caching headers may set a copy's freshness within. */
    record Bounds(Duration freshMin, Duration freshMax) {}

    private final Bounds bounds;

    FetchRecords(Bounds bounds) {
        this.bounds = bounds;
    }

    /** A body stored under {@code sha}'s content key, for the URL of hop {@code at}. */
    FetchRecord stored(FetchJob at, FetchResult.Response r, String sha, Instant fetchedAt) {
        Map<String, String> headers = kept(r.headers());
        return answered(at, r, Reason.FETCHED, fetchedAt).contentType(contentType(r))
                .contentKey(BucketKeys.content(sha)).contentSha256(sha).headers(headers)
                .freshUntil(freshUntil(headers, fetchedAt)).build();
    }

    /** A 304: the stored copy is still good; its fields stay and the new validators join them. */
    FetchRecord notModified(FetchJob at, FetchRecord before, FetchResult.Response r, Instant now) {
        Map<String, String> headers = merged(before.headers(), r.headers());
        return before.toBuilder().reason(Reason.NOT_MODIFIED).fetchedAt(now).httpStatus(304)
                .timeToFirstByteMs(r.timeToFirstByte().toMillis()).totalMs(r.total().toMillis())
                .error(Optional.empty()).headers(headers).redirects(at.via()).connectMs(r.connect().toMillis())
                .attempts(at.attempt()).freshUntil(freshUntil(headers, now)).capture(Optional.empty())
                .requestUrl(at.request().value()).build();
    }

    /**
     * The fetch of hop {@code at} failed, for {@code reason}, with {@code error}; what the site answered, if
     * anything, is kept.
     */
    FetchRecord failed(FetchJob at, FetchResult result, Reason reason, String error, Instant now) {
        return switch (result) {
            case FetchResult.Response r -> answered(at, r, reason, now)
                    .contentType(r.contentType()).headers(kept(r.headers())).error(error).build();
            case FetchResult.Failure f -> of(at, reason, now).totalMs(f.total().toMillis()).error(error).build();
        };
    }

    /** No request was made for hop {@code at}: robots.txt forbids it, or could not be read. */
    FetchRecord refused(FetchJob at, Reason reason, String error, Instant now) {
        return of(at, reason, now).error(error).build();
    }

    /** Why a fetch that got no answer failed, by its kind of failure. */
    static Reason reason(FailureKind kind) {
        return switch (kind) {
            case CONNECT -> Reason.CONNECT_FAILED;
            case TIMEOUT -> Reason.TIMEOUT;
            case DNS -> Reason.DNS_FAILED;
            case TLS -> Reason.TLS_FAILED;
            case IO, LATE -> Reason.READ_FAILED;
            case BLOCKED -> Reason.BLOCKED;
        };
    }

    /** Why a fetch that ended on {@code result} failed: its status, or its kind of failure. */
    static Reason reason(FetchResult result) {
        return switch (result) {
            case FetchResult.Response r -> Reason.HTTP_ERROR;
            case FetchResult.Failure f -> reason(f.kind());
        };
    }

    /** What every record of hop {@code at} holds: its URL in both forms, the chain, the attempt. */
    private static FetchRecord.Builder of(FetchJob at, Reason reason, Instant when) {
        return FetchRecord.builder(at.url().urlHash(), at.url().value(), reason.state(), when).reason(reason)
                .requestUrl(at.request().value()).redirects(at.via()).attempts(at.attempt());
    }

    /** What every answer records besides: the status, size and timings. */
    private static FetchRecord.Builder answered(FetchJob at, FetchResult.Response r, Reason reason, Instant when) {
        return of(at, reason, when).httpStatus(r.status()).size(r.body().length).truncated(r.truncated())
                .finalUrl(r.finalUrl()).timeToFirstByteMs(r.timeToFirstByte().toMillis())
                .totalMs(r.total().toMillis()).connectMs(r.connect().toMillis());
    }

    static String contentType(FetchResult.Response r) {
        return Optional.ofNullable(r.contentType()).orElse(DEFAULT_CONTENT_TYPE);
    }

    private Instant freshUntil(Map<String, String> headers, Instant fetchedAt) {
        return Freshness.freshUntil(headers, fetchedAt, RecrawlPolicy.DEFAULT_WINDOW, bounds.freshMin(),
                bounds.freshMax());
    }

    private static Map<String, String> merged(Map<String, String> before, Map<String, String> now) {
        Map<String, String> m = new HashMap<>(before);
        m.putAll(kept(now));
        return m;
    }

    private static Map<String, String> kept(Map<String, String> headers) {
        Map<String, String> kept = new HashMap<>();
        headers.forEach((name, value) -> {
            if (KEPT_HEADERS.contains(name)) {
                kept.put(name, value);
            }
        });
        return kept;
    }
}
