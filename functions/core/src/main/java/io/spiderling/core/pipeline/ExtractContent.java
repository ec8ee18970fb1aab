package io.spiderling.core.pipeline;

import io.spiderling.core.content.ContentKey;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.UrlStore;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * Extracts metadata from a stored body when its object-created event arrives. The event may come before the fetch's
 * metadata row, twice, or after a newer fetch replaced the object; the store's conditional write sorts that out, and
 * this class reads the object as it is now, so it never works from a stale copy.
 */
public final class ExtractContent {

    private final BlobStore blobs;
    private final UrlStore urls;
    private final HtmlExtractor extractor;
    private final Clock clock;

    public ExtractContent(BlobStore blobs, UrlStore urls, HtmlExtractor extractor, Clock clock) {
        this.blobs = blobs;
        this.urls = urls;
        this.extractor = extractor;
        this.clock = clock;
    }

    /** @param written false when a newer extraction was already stored */
    public record Outcome(ExtractionRecord record, boolean written) {}

    /**
     * Empty when the key is not a content key, or the object is gone or lacks (readable) fetch-stage metadata; none of
     * those would improve on a retry.
     */
    public Optional<Outcome> onContent(String key) {
        Optional<String> urlHash = ContentKey.sha256Of(key);
        if (urlHash.isEmpty()) {
            return Optional.empty();
        }
        return blobs.get(key).flatMap(blob -> {
            Map<String, String> meta = blob.metadata();
            String url = meta.get(FetchPage.META_URL);
            String fetchedAt = meta.get(FetchPage.META_FETCHED_AT);
            String sha = meta.get(FetchPage.META_CONTENT_SHA256);
            if (url == null || fetchedAt == null || sha == null) {
                return Optional.empty();
            }
            Instant contentFetchedAt;
            try {
                contentFetchedAt = Instant.parse(fetchedAt);
            } catch (DateTimeParseException e) {
                return Optional.empty(); // not written by the fetch stage: nothing to order the extraction by
            }
            PageMetadata page = extractor.extract(blob.bytes(), blob.contentType(), url);
            ExtractionRecord record = new ExtractionRecord(urlHash.get(), url, page, sha, contentFetchedAt,
                    clock.instant());
            return Optional.of(new Outcome(record, urls.recordExtraction(record)));
        });
    }
}
