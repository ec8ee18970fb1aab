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
 * @param source how it came in
 * @param fingerprint identifies the request that created the batch, so a replay with the same idempotency key can be
 *     told from a different request reusing it; empty when not needed
 * @param upload for a batch whose URLs come in an uploaded manifest, its format; its {@code total} then grows as the
 *     manifest's chunks are planned (see {@link PlanProgress})
 * @param client the client that submitted it, who alone may read, cancel or be called back about it (ADR 10);
 *     empty for a batch submitted on no client's behalf (Ingest's client-less overloads), which no API caller sees
 */
public record BatchHeader(String batchId, int total, int duplicates, List<Rejection> rejected, int rejectedCount,
        BatchSource source, Instant createdAt, BatchOptions options, String fingerprint, Optional<UploadFormat> upload,
        String client) {

    /** Keeps a header far below DynamoDB's 400 KB item limit whatever the client sent. */
    public static final int MAX_STORED_REJECTIONS = 100;

    public BatchHeader {
        rejected = List.copyOf(rejected.subList(0, Math.min(rejected.size(), MAX_STORED_REJECTIONS)));
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(upload, "upload");
        Objects.requireNonNull(client, "client");
    }

    /** Whether {@code clientId} may see this batch. */
    public boolean ownedBy(String clientId) {
        return client.equals(clientId);
    }

    /** A header built by name: its parts are many, and several are ints side by side. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this value's parts, to change some of them. */
    public Builder toBuilder() {
        return new Builder()
                .batchId(batchId)
                .total(total)
                .duplicates(duplicates)
                .rejected(rejected)
                .rejectedCount(rejectedCount)
                .source(source)
                .createdAt(createdAt)
                .options(options)
                .fingerprint(fingerprint)
                .upload(upload)
                .client(client);
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private String batchId;
        private int total;
        private int duplicates;
        private List<Rejection> rejected = List.of();
        private int rejectedCount;
        private BatchSource source;
        private Instant createdAt;
        private BatchOptions options = BatchOptions.NONE;
        private String fingerprint = "";
        private Optional<UploadFormat> upload = Optional.empty();
        private String client = "";

        private Builder() {}

        public Builder batchId(String value) {
            batchId = value;
            return this;
        }

        public Builder total(int value) {
            total = value;
            return this;
        }

        public Builder duplicates(int value) {
            duplicates = value;
            return this;
        }

        public Builder rejected(List<Rejection> value) {
            rejected = value;
            return this;
        }

        public Builder rejectedCount(int value) {
            rejectedCount = value;
            return this;
        }

        public Builder source(BatchSource value) {
            source = value;
            return this;
        }

        public Builder createdAt(Instant value) {
            createdAt = value;
            return this;
        }

        public Builder options(BatchOptions value) {
            options = value;
            return this;
        }

        public Builder fingerprint(String value) {
            fingerprint = value;
            return this;
        }

        public Builder upload(Optional<UploadFormat> value) {
            upload = value;
            return this;
        }

        public Builder client(String value) {
            client = value;
            return this;
        }

        public BatchHeader build() {
            return new BatchHeader(batchId, total, duplicates, rejected, rejectedCount, source, createdAt, options,
                    fingerprint, upload, client);
        }
    }
}
