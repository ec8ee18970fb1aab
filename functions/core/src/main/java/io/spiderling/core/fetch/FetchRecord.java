package io.spiderling.core.fetch;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The fetch half of a URL's metadata row.
 *
 * <p>Built by name ({@link #builder}); only the URL, its state and the time are required.
 *
 * @param url the URL's key: its normalized form
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
 * @param requestUrl the spelling of {@code url} that was requested, or would have been when nothing was sent (a
 *     robots.txt refusal): the client's URL as a browser serializes it, which may differ from the key in query order
 *     or tracking parameters; empty when its writer gave none
 * @param reason why the fetch ended in {@code state}; a row stored before reasons were has the one presumed from its
 *     state and status ({@link Reason#presumed})
 */
public record FetchRecord(String urlHash, String url, ItemState state, Optional<Integer> httpStatus,
        Optional<String> contentType, long size, boolean truncated, Optional<String> contentKey,
        Optional<String> contentSha256, Optional<String> finalUrl, Instant fetchedAt, long timeToFirstByteMs,
        long totalMs, Optional<String> error, Map<String, String> headers, List<String> redirects, long connectMs,
        int attempts, Optional<Instant> freshUntil, Optional<Capture> capture, Optional<String> requestUrl,
        Reason reason) {

    public FetchRecord {
        Objects.requireNonNull(urlHash, "urlHash");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(fetchedAt, "fetchedAt");
        headers = Map.copyOf(headers);
        redirects = List.copyOf(redirects);
        Objects.requireNonNull(freshUntil, "freshUntil");
        Objects.requireNonNull(capture, "capture");
        Objects.requireNonNull(requestUrl, "requestUrl");
        Objects.requireNonNull(reason, "reason");
        if (reason.state() != state) {
            throw new IllegalArgumentException("reason " + reason.code() + " does not end in " + state.wireName());
        }
    }

    /** A record of {@code url} (its key and the key's hash) in {@code state} at {@code fetchedAt}; the rest by name. */
    public static Builder builder(String urlHash, String url, ItemState state, Instant fetchedAt) {
        return new Builder(urlHash, url, state, fetchedAt);
    }

    /** A builder holding every field of this record, to change a few. */
    public Builder toBuilder() {
        return new Builder(urlHash, url, state, fetchedAt).httpStatus(httpStatus).contentType(contentType).size(size)
                .truncated(truncated).contentKey(contentKey).contentSha256(contentSha256).finalUrl(finalUrl)
                .timeToFirstByteMs(timeToFirstByteMs).totalMs(totalMs).error(error).headers(headers)
                .redirects(redirects).connectMs(connectMs).attempts(attempts).freshUntil(freshUntil).capture(capture)
                .requestUrl(requestUrl).reason(reason);
    }

    /** The same record, with where its exchange was captured. */
    public FetchRecord withCapture(Optional<Capture> value) {
        return toBuilder().capture(value).build();
    }

    /** Names each field of a {@link FetchRecord}; unset ones are empty, zero, or one attempt. */
    public static final class Builder {
        private final String urlHash;
        private final String url;
        private ItemState state;
        private Instant fetchedAt;
        private Optional<Integer> httpStatus = Optional.empty();
        private Optional<String> contentType = Optional.empty();
        private long size;
        private boolean truncated;
        private Optional<String> contentKey = Optional.empty();
        private Optional<String> contentSha256 = Optional.empty();
        private Optional<String> finalUrl = Optional.empty();
        private long timeToFirstByteMs;
        private long totalMs;
        private Optional<String> error = Optional.empty();
        private Map<String, String> headers = Map.of();
        private List<String> redirects = List.of();
        private long connectMs;
        private int attempts = 1;
        private Optional<Instant> freshUntil = Optional.empty();
        private Optional<Capture> capture = Optional.empty();
        private Optional<String> requestUrl = Optional.empty();
        private Reason reason;

        private Builder(String urlHash, String url, ItemState state, Instant fetchedAt) {
            this.urlHash = urlHash;
            this.url = url;
            this.state = state;
            this.fetchedAt = fetchedAt;
        }

        /** Sets the state, and forgets a reason set before: unless one is set again, it is presumed from the state. */
        public Builder state(ItemState v) {
            state = v;
            reason = null;
            return this;
        }

        /** Sets the reason, and the state it ends in. */
        public Builder reason(Reason v) {
            reason = v;
            state = v.state();
            return this;
        }

        public Builder fetchedAt(Instant v) {
            fetchedAt = v;
            return this;
        }

        public Builder httpStatus(int v) {
            return httpStatus(Optional.of(v));
        }

        public Builder httpStatus(Optional<Integer> v) {
            httpStatus = v;
            return this;
        }

        public Builder contentType(String v) {
            return contentType(Optional.ofNullable(v));
        }

        public Builder contentType(Optional<String> v) {
            contentType = v;
            return this;
        }

        public Builder size(long v) {
            size = v;
            return this;
        }

        public Builder truncated(boolean v) {
            truncated = v;
            return this;
        }

        public Builder contentKey(String v) {
            return contentKey(Optional.of(v));
        }

        public Builder contentKey(Optional<String> v) {
            contentKey = v;
            return this;
        }

        public Builder contentSha256(String v) {
            return contentSha256(Optional.of(v));
        }

        public Builder contentSha256(Optional<String> v) {
            contentSha256 = v;
            return this;
        }

        public Builder finalUrl(String v) {
            return finalUrl(Optional.of(v));
        }

        public Builder finalUrl(Optional<String> v) {
            finalUrl = v;
            return this;
        }

        public Builder timeToFirstByteMs(long v) {
            timeToFirstByteMs = v;
            return this;
        }

        public Builder totalMs(long v) {
            totalMs = v;
            return this;
        }

        public Builder error(String v) {
            return error(Optional.ofNullable(v));
        }

        public Builder error(Optional<String> v) {
            error = v;
            return this;
        }

        public Builder headers(Map<String, String> v) {
            headers = v;
            return this;
        }

        public Builder redirects(List<String> v) {
            redirects = v;
            return this;
        }

        public Builder connectMs(long v) {
            connectMs = v;
            return this;
        }

        public Builder attempts(int v) {
            attempts = v;
            return this;
        }

        public Builder freshUntil(Instant v) {
            return freshUntil(Optional.of(v));
        }

        public Builder freshUntil(Optional<Instant> v) {
            freshUntil = v;
            return this;
        }

        public Builder capture(Optional<Capture> v) {
            capture = v;
            return this;
        }

        public Builder requestUrl(String v) {
            return requestUrl(Optional.of(v));
        }

        public Builder requestUrl(Optional<String> v) {
            requestUrl = v;
            return this;
        }

        public FetchRecord build() {
            return new FetchRecord(urlHash, url, state, httpStatus, contentType, size, truncated, contentKey,
                    contentSha256, finalUrl, fetchedAt, timeToFirstByteMs, totalMs, error, headers, redirects,
                    connectMs, attempts, freshUntil, capture, requestUrl,
                    reason != null ? reason : Reason.presumed(state, httpStatus));
        }
    }
}
