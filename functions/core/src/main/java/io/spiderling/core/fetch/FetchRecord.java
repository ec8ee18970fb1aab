package io.spiderling.core.fetch;

import io.spiderling.core.batch.ItemState;
import java.time.Instant;
import java.util.Optional;

/**
 * The fetch half of a URL's metadata row.
 *
 * @param httpStatus empty when no response arrived
 * @param contentKey where the body is stored; empty when no body was kept
 * @param error what went wrong, for a failed fetch
 */
public record FetchRecord(String urlHash, String url, ItemState state, Optional<Integer> httpStatus,
        Optional<String> contentType, long size, boolean truncated, Optional<String> contentKey,
        Optional<String> contentSha256, Optional<String> finalUrl, Instant fetchedAt, long timeToFirstByteMs,
        long totalMs, Optional<String> error) {}
