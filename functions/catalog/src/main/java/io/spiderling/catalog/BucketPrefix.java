package io.spiderling.catalog;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The key prefixes of the deployment's one bucket ({@link ConfigKeys#BUCKET}), each with what writes it and how long
 * it is kept. Access is granted per prefix, and object-created notifications are routed per prefix.
 */
public enum BucketPrefix {

    /** A submitted batch's normalized URLs, written by ingest; its event starts planning. */
    MANIFESTS("manifests/", Optional.of(Duration.ofDays(30))),
    /** What a client PUT through a presigned URL; copied to planned/ when it arrives. */
    UPLOADS("uploads/", Optional.of(Duration.ofDays(7))),
    /** The frozen copy of an upload, planned a chunk at a time; no notification. */
    PLANNED("planned/", Optional.of(Duration.ofDays(30))),
    /**
     * Fetched bodies under their SHA-256 ({@code content/<2 hex>/<sha256>}); kept unless the deployment sets an
     * expiry.
     */
    CONTENT("content/", Optional.empty()),
    /**
     * Wire captures of fetches, for WARC: the request as sent and the response as received, under the SHA-256 of the
     * object ({@code capture/<2 hex>/<sha256>}); written by fetch only when capture is on; no notification. Kept as
     * long as content/ (a deployment's content expiry applies to both).
     */
    CAPTURE("capture/", Optional.empty()),
    /**
     * The Markdown of pages' main content, for batches that asked for it ({@code markdown/<2 hex>/<sha256>.md}, the
     * SHA-256 of the Markdown); written by extract; no notification. Kept as long as content/.
     */
    MARKDOWN("markdown/", Optional.empty());

    private final String prefix;
    private final Optional<Duration> expiry;

    BucketPrefix(String prefix, Optional<Duration> expiry) {
        this.prefix = prefix;
        this.expiry = expiry;
    }

    public String prefix() {
        return prefix;
    }

    /** How long objects under the prefix are kept; empty to keep them. */
    public Optional<Duration> expiry() {
        return expiry;
    }

    public boolean matches(String key) {
        return key.startsWith(prefix);
    }

    public static Optional<BucketPrefix> of(String key) {
        return Arrays.stream(values()).filter(p -> p.matches(key)).findFirst();
    }

    public static List<BucketPrefix> all() {
        return Arrays.asList(values());
    }
}
