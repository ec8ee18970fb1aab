package io.spiderling.core.pipeline;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.recrawl.Freshness;
import io.spiderling.core.recrawl.RecrawlPolicy;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds the fetch half of a URL's row from what the fetch stage saw: a stored body, a confirmed copy, a failure, or
 * a refusal before any request. Pure; the one place that knows the order of {@link FetchRecord}'s fields.
 */
final class FetchRecords {

    /** The response headers kept on the metadata row. */
    static final Set<String> KEPT_HEADERS = Set.of("content-type", "content-length", "etag", "last-modified",
            "cache-control", "expires", "retry-after");

    static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    /** The bounds caching headers may set a copy's freshness within. */
    record Bounds(Duration freshMin, Duration freshMax) {}

    private final Bounds bounds;

    FetchRecords(Bounds bounds) {
        this.bounds = bounds;
    }

    /** A body stored under {@code sha}'s content key. */
    FetchRecord stored(FetchJob job, NormalizedUrl url, List<String> via, FetchResult.Response r, String sha,
            Instant fetchedAt) {
        Map<String, String> headers = kept(r.headers());
        return new FetchRecord(url.urlHash(), url.value(), ItemState.FETCHED, Optional.of(r.status()),
                Optional.of(contentType(r)), r.body().length, r.truncated(), Optional.of(BucketKeys.content(sha)),
                Optional.of(sha), Optional.of(r.finalUrl()), fetchedAt, r.timeToFirstByte().toMillis(),
                r.total().toMillis(), Optional.empty(), headers, via, r.connect().toMillis(), job.attempt(),
                Optional.of(freshUntil(headers, fetchedAt)));
    }

    /** A 304: the stored copy is still good; its fields stay and the new validators join them. */
    FetchRecord notModified(FetchJob job, FetchRecord before, List<String> via, FetchResult.Response r, Instant now) {
        Map<String, String> headers = merged(before.headers(), r.headers());
        return new FetchRecord(before.urlHash(), before.url(), ItemState.NOT_MODIFIED, Optional.of(304),
                before.contentType(), before.size(), before.truncated(), before.contentKey(), before.contentSha256(),
                before.finalUrl(), now, r.timeToFirstByte().toMillis(), r.total().toMillis(), Optional.empty(),
                headers, via, r.connect().toMillis(), job.attempt(), Optional.of(freshUntil(headers, now)));
    }

    /** The fetch failed with {@code error}; what the site answered, if anything, is kept. */
    FetchRecord failed(FetchJob job, NormalizedUrl url, List<String> via, FetchResult result, String error,
            Instant now) {
        return switch (result) {
            case FetchResult.Response r -> new FetchRecord(url.urlHash(), url.value(), ItemState.FAILED,
                    Optional.of(r.status()), Optional.ofNullable(r.contentType()), r.body().length, r.truncated(),
                    Optional.empty(), Optional.empty(), Optional.of(r.finalUrl()), now, r.timeToFirstByte().toMillis(),
                    r.total().toMillis(), Optional.of(error), kept(r.headers()), via, r.connect().toMillis(),
                    job.attempt(), Optional.empty());
            case FetchResult.Failure f -> new FetchRecord(url.urlHash(), url.value(), ItemState.FAILED,
                    Optional.empty(), Optional.empty(), 0, false, Optional.empty(), Optional.empty(),
                    Optional.empty(), now, 0, f.total().toMillis(), Optional.of(error), Map.of(), via, 0,
                    job.attempt(), Optional.empty());
        };
    }

    /** No request was made: robots.txt forbids the URL, or could not be read. */
    FetchRecord refused(FetchJob job, NormalizedUrl url, List<String> via, ItemState state, String error,
            Instant now) {
        return new FetchRecord(url.urlHash(), url.value(), state, Optional.empty(), Optional.empty(), 0, false,
                Optional.empty(), Optional.empty(), Optional.empty(), now, 0, 0, Optional.of(error), Map.of(), via, 0,
                job.attempt(), Optional.empty());
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
