package io.spiderling.core.batch;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A batch as accepted.
 *
 * @param total the number of distinct accepted URLs; the batch is done when that many items are terminal
 * @param rejected the first rejections, kept for the status API (the full list went back to the client)
 * @param rejectedCount how many URLs were rejected in all
 * @param source where it came from: "http" or "sqs"
 * @param fingerprint identifies the request that created the batch, so a replay with the same idempotency key can be
 *     told from a different request reusing it; empty when not needed
 * @param upload for a batch whose URLs come in an uploaded manifest, its format; its {@code total} then grows as the
 *     manifest's chunks are planned (see {@link PlanProgress})
 * @param client the client that submitted it, who alone may read, cancel or be called back about it (ADR 10);
 *     empty for batches made before clients existed
 */
public record BatchHeader(String batchId, int total, int duplicates, List<Rejection> rejected, int rejectedCount,
        String source, Instant createdAt, BatchOptions options, String fingerprint, Optional<UploadFormat> upload,
        String client) {

    /** Keeps a header far below DynamoDB's 400 KB item limit whatever the client sent. */
    public static final int MAX_STORED_REJECTIONS = 100;

    public BatchHeader {
        rejected = List.copyOf(rejected.subList(0, Math.min(rejected.size(), MAX_STORED_REJECTIONS)));
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(upload, "upload");
        Objects.requireNonNull(client, "client");
    }

    /** A header of a batch of no particular client. */
    public BatchHeader(String batchId, int total, int duplicates, List<Rejection> rejected, int rejectedCount,
            String source, Instant createdAt, BatchOptions options, String fingerprint, Optional<UploadFormat> upload) {
        this(batchId, total, duplicates, rejected, rejectedCount, source, createdAt, options, fingerprint, upload, "");
    }

    /** Whether {@code clientId} may see this batch. */
    public boolean ownedBy(String clientId) {
        return client.equals(clientId);
    }

    /** A header of a batch submitted with its URLs. */
    public BatchHeader(String batchId, int total, int duplicates, List<Rejection> rejected, int rejectedCount,
            String source, Instant createdAt, BatchOptions options, String fingerprint) {
        this(batchId, total, duplicates, rejected, rejectedCount, source, createdAt, options, fingerprint,
                Optional.empty());
    }

    /** A header with no options and no fingerprint. */
    public BatchHeader(String batchId, int total, int duplicates, List<Rejection> rejected, int rejectedCount,
            String source, Instant createdAt) {
        this(batchId, total, duplicates, rejected, rejectedCount, source, createdAt, BatchOptions.NONE, "");
    }
}
