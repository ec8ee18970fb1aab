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
 * @param changeDigest what the content is compared by to tell a change (ADR 18): an HTML page's
 *     {@link HtmlExtractor.Analysis#changeDigest}, or for other content its bytes' SHA-256; empty on a row extracted
 *     before change digests were kept
 */
public record ExtractionRecord(String urlHash, String url, PageMetadata page, String contentSha256,
        Instant contentFetchedAt, Instant extractedAt, Optional<String> canonicalUrl, Optional<String> source,
        Optional<String> changeDigest) {

    public ExtractionRecord {
        Objects.requireNonNull(canonicalUrl, "canonicalUrl");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(changeDigest, "changeDigest");
    }

    /** The same record, with {@code digest} as its change digest. */
    public ExtractionRecord withChangeDigest(String digest) {
        return new ExtractionRecord(urlHash, url, page, contentSha256, contentFetchedAt, extractedAt, canonicalUrl,
                source, Optional.of(digest));
    }

    /** Names each of the 9 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private String urlHash;
        private String url;
        private PageMetadata page;
        private String contentSha256;
        private Instant contentFetchedAt;
        private Instant extractedAt;
        private Optional<String> canonicalUrl = Optional.empty();
        private Optional<String> source = Optional.empty();
        private Optional<String> changeDigest = Optional.empty();

        private Builder() {}

        public Builder urlHash(String value) {
            urlHash = value;
            return this;
        }

        public Builder url(String value) {
            url = value;
            return this;
        }

        public Builder page(PageMetadata value) {
            page = value;
            return this;
        }

        public Builder contentSha256(String value) {
            contentSha256 = value;
            return this;
        }

        public Builder contentFetchedAt(Instant value) {
            contentFetchedAt = value;
            return this;
        }

        public Builder extractedAt(Instant value) {
            extractedAt = value;
            return this;
        }

        public Builder canonicalUrl(Optional<String> value) {
            canonicalUrl = value;
            return this;
        }

        public Builder source(Optional<String> value) {
            source = value;
            return this;
        }

        public Builder changeDigest(Optional<String> value) {
            changeDigest = value;
            return this;
        }

        public ExtractionRecord build() {
            return new ExtractionRecord(urlHash, url, page, contentSha256, contentFetchedAt, extractedAt, canonicalUrl,
                    source, changeDigest);
        }
    }
}
