package io.spiderling.core.extract;

import java.time.Instant;

/**
 * The extractor's half of a URL's metadata row.
 *
 * @param contentFetchedAt when the content this was extracted from was fetched; orders concurrent extractions
 * @param contentSha256 the hash of the bytes this was extracted from
 */
public record ExtractionRecord(String urlHash, String url, PageMetadata page, String contentSha256,
        Instant contentFetchedAt, Instant extractedAt) {}
