package io.spiderling.core.fetch;

import io.spiderling.core.batch.ItemState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The fetch half of a URL's metadata row.
 *
 * @param httpStatus empty when no response arrived
 * @param contentKey where the body is stored; empty when no body was kept
 * @param error what went wrong, for a failed fetch
 * @param headers the response headers that matter (content-type, content-length, etag, last-modified, cache-control,
 *     expires, retry-after), lower-case names
 * @param redirects the URLs that redirected on the way to {@code finalUrl}, in order
 * @param connectMs time to an open connection
 * @param attempts how many attempts the fetch took, retries included
 * @param freshUntil when the copy is due again, from its caching headers within the configured bounds
 * @param capture where this fetch's exchange is stored as it went over the wire; empty when capture was off
 */
public record FetchRecord(String urlHash, String url, ItemState state, Optional<Integer> httpStatus,
        Optional<String> contentType, long size, boolean truncated, Optional<String> contentKey,
        Optional<String> contentSha256, Optional<String> finalUrl, Instant fetchedAt, long timeToFirstByteMs,
        long totalMs, Optional<String> error, Map<String, String> headers, List<String> redirects, long connectMs,
        int attempts, Optional<Instant> freshUntil, Optional<Capture> capture) {

    public FetchRecord {
        headers = Map.copyOf(headers);
        redirects = List.copyOf(redirects);
        Objects.requireNonNull(freshUntil, "freshUntil");
        Objects.requireNonNull(capture, "capture");
    }

    /** A record without a capture. */
    public FetchRecord(String urlHash, String url, ItemState state, Optional<Integer> httpStatus,
            Optional<String> contentType, long size, boolean truncated, Optional<String> contentKey,
            Optional<String> contentSha256, Optional<String> finalUrl, Instant fetchedAt, long timeToFirstByteMs,
            long totalMs, Optional<String> error, Map<String, String> headers, List<String> redirects, long connectMs,
            int attempts, Optional<Instant> freshUntil) {
        this(urlHash, url, state, httpStatus, contentType, size, truncated, contentKey, contentSha256, finalUrl,
                fetchedAt, timeToFirstByteMs, totalMs, error, headers, redirects, connectMs, attempts, freshUntil,
                Optional.empty());
    }

    /** The same record, with where its exchange was captured. */
    public FetchRecord withCapture(Optional<Capture> value) {
        return new FetchRecord(urlHash, url, state, httpStatus, contentType, size, truncated, contentKey,
                contentSha256, finalUrl, fetchedAt, timeToFirstByteMs, totalMs, error, headers, redirects, connectMs,
                attempts, freshUntil, value);
    }

    public FetchRecord(String urlHash, String url, ItemState state, Optional<Integer> httpStatus,
            Optional<String> contentType, long size, boolean truncated, Optional<String> contentKey,
            Optional<String> contentSha256, Optional<String> finalUrl, Instant fetchedAt, long timeToFirstByteMs,
            long totalMs, Optional<String> error) {
        this(urlHash, url, state, httpStatus, contentType, size, truncated, contentKey, contentSha256, finalUrl,
                fetchedAt, timeToFirstByteMs, totalMs, error, Map.of(), List.of(), 0, 1, Optional.empty());
    }
}
