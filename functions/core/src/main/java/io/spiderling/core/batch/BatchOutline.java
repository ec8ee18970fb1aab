package io.spiderling.core.batch;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a batch's header says without its counts: what it was submitted with, and whether it was cancelled. A fetcher
 * reads this for its jobs' batches; the counts ({@link BatchStatus}) live apart, in shards, and cost more to read.
 */
public record BatchOutline(BatchHeader header, Optional<Instant> cancelledAt) {

    public BatchOutline {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(cancelledAt, "cancelledAt");
    }
}
