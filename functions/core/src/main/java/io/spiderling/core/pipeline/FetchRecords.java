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
 * a refusal before any request. Pure.
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
        return answered(job, url, via, r, ItemState.FETCHED, fetchedAt).contentType(contentType(r))
                .contentKey(BucketKeys.content(sha)).contentSha256(sha).headers(headers)
                .freshUntil(freshUntil(headers, fetchedAt)).build();
    }

    /** A 304: the stored copy is still good; its fields stay and the new validators join them. */
    FetchRecord notModified(FetchJob job, FetchRecord before, List<String> via, FetchResult.Response r, Instant now) {
        Map<String, String> headers = merged(before.headers(), r.headers());
        return before.toBuilder().state(ItemState.NOT_MODIFIED).fetchedAt(now).httpStatus(304)
                .timeToFirstByteMs(r.timeToFirstByte().toMillis()).totalMs(r.total().toMillis())
                .error(Optional.empty()).headers(headers).redirects(via).connectMs(r.connect().toMillis())
                .attempts(job.attempt()).freshUntil(freshUntil(headers, now)).capture(Optional.empty()).build();
    }

    /** The fetch failed with {@code error}; what the site answered, if anything, is kept. */
    FetchRecord failed(FetchJob job, NormalizedUrl url, List<String> via, FetchResult result, String error,
            Instant now) {
        return switch (result) {
            case FetchResult.Response r -> answered(job, url, via, r, ItemState.FAILED, now)
                    .contentType(r.contentType()).headers(kept(r.headers())).error(error).build();
            case FetchResult.Failure f -> FetchRecord.builder(url.urlHash(), url.value(), ItemState.FAILED, now)
                    .totalMs(f.total().toMillis()).error(error).redirects(via).attempts(job.attempt()).build();
        };
    }

    /** No request was made: robots.txt forbids the URL, or could not be read. */
    FetchRecord refused(FetchJob job, NormalizedUrl url, List<String> via, ItemState state, String error,
            Instant now) {
        return FetchRecord.builder(url.urlHash(), url.value(), state, now).error(error).redirects(via)
                .attempts(job.attempt()).build();
    }

    /** What every answer records: the status, size, timings, chain and attempt. */
    private static FetchRecord.Builder answered(FetchJob job, NormalizedUrl url, List<String> via,
            FetchResult.Response r, ItemState state, Instant at) {
        return FetchRecord.builder(url.urlHash(), url.value(), state, at).httpStatus(r.status())
                .size(r.body().length).truncated(r.truncated()).finalUrl(r.finalUrl())
                .timeToFirstByteMs(r.timeToFirstByte().toMillis()).totalMs(r.total().toMillis()).redirects(via)
                .connectMs(r.connect().toMillis()).attempts(job.attempt());
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
