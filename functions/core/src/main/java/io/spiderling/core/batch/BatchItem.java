package io.spiderling.core.batch;

import java.time.Instant;
import java.util.Optional;

/** One URL of a batch as the status API lists it. */
public record BatchItem(String url, String urlHash, ItemState state, Optional<String> detail,
        Optional<Instant> endedAt) {}
