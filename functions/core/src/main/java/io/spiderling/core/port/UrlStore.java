package io.spiderling.core.port;

import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.fetch.FetchRecord;
import java.util.Optional;

/** The per-URL metadata store, keyed by the hash of the normalized URL. */
public interface UrlStore {

    /**
     * Writes the fetch fields of the URL's row. Fields written by the extractor are left alone, because the
     * extractor may have run first (S3 events can beat the metadata write). A fetch older than the one stored (a
     * late retry) is ignored.
     */
    void recordFetch(FetchRecord record);

    /**
     * Writes the extracted fields unless the row already holds an extraction of newer content, or a fetch newer than
     * the content this extraction read. Returns false when the write was refused as stale.
     */
    boolean recordExtraction(ExtractionRecord record);

    Optional<UrlRecord> find(String urlHash);

    /** What is known about a URL: its last fetch and its extracted metadata, either of which may be missing. */
    record UrlRecord(String urlHash, Optional<FetchRecord> fetch, Optional<ExtractionRecord> extraction) {}
}
