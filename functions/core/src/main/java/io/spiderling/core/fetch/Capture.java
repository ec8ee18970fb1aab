package io.spiderling.core.fetch;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a fetch's wire capture is stored, and what a WARC writer needs besides its bytes. Kept small: it is part of
 * the URL's row.
 *
 * @param key the S3 key of the capture object ({@link CaptureFormat}), {@code capture/<2 hex>/<sha256 of the object>}
 * @param remoteIp the address the request went to
 * @param capturedAt when the request was started, by the fetch stage's clock (WARC-Date)
 * @param payloadDigest the transferred payload's SHA-1 as WARC writes it, {@code sha1:<base32>}
 * @param truncated the payload was cut at the size cap
 * @param refersToAt when the URL's previous capture was taken, if this one adds nothing to it: the site answered
 *     304 Not Modified, or sent the same payload again (same digest); a WARC writer makes this capture a revisit
 */
public record Capture(String key, String remoteIp, Instant capturedAt, String payloadDigest, boolean truncated,
        Optional<Instant> refersToAt) {

    public Capture {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(remoteIp, "remoteIp");
        Objects.requireNonNull(capturedAt, "capturedAt");
        Objects.requireNonNull(payloadDigest, "payloadDigest");
        Objects.requireNonNull(refersToAt, "refersToAt");
    }

    /** Names each of the 6 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private String key;
        private String remoteIp;
        private Instant capturedAt;
        private String payloadDigest;
        private boolean truncated;
        private Optional<Instant> refersToAt = Optional.empty();

        private Builder() {}

        public Builder key(String value) {
            key = value;
            return this;
        }

        public Builder remoteIp(String value) {
            remoteIp = value;
            return this;
        }

        public Builder capturedAt(Instant value) {
            capturedAt = value;
            return this;
        }

        public Builder payloadDigest(String value) {
            payloadDigest = value;
            return this;
        }

        public Builder truncated(boolean value) {
            truncated = value;
            return this;
        }

        public Builder refersToAt(Optional<Instant> value) {
            refersToAt = value;
            return this;
        }

        public Capture build() {
            return new Capture(key, remoteIp, capturedAt, payloadDigest, truncated, refersToAt);
        }
    }
}
