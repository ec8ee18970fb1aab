package io.spiderling.core.extract;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The extractor's half of a URL's metadata row.
 *
 * @param contentFetchedAt when the content this was extracted from was fetched; orders concurrent extractions
 * @param contentSha256 the hash of the bytes this was extracted from (and so their content key)
 * @param canonicalUrl the page's accepted canonical URL when it names another page: this row is then an alias
 * @param source on a canonical record written from an alias's page, the URL whose fetch it came from
 */
public record ExtractionRecord(String urlHash, String url, PageMetadata page, String contentSha256,
        Instant contentFetchedAt, Instant extractedAt, Optional<String> canonicalUrl, Optional<String> source) {

    public ExtractionRecord {
        Objects.requireNonNull(canonicalUrl, "canonicalUrl");
        Objects.requireNonNull(source, "source");
    }

    public ExtractionRecord(String urlHash, String url, PageMetadata page, String contentSha256,
            Instant contentFetchedAt, Instant extractedAt) {
        this(urlHash, url, page, contentSha256, contentFetchedAt, extractedAt, Optional.empty(), Optional.empty());
    }
}
