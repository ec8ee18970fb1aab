package io.spiderling.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.spiderling.core.content.ContentKey;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExtractContentTest {

    private static final Instant FETCHED_AT = Instant.parse("2025-03-01T10:00:00Z");
    private static final Instant NOW = FETCHED_AT.plusSeconds(3);
    private static final NormalizedUrl URL = NormalizedUrl.parse("https://example.com/page");
    private static final String KEY = ContentKey.forUrlHash(URL.urlHash());
    /** What the fetch stage wrote as the body's hash; the extraction carries it, it does not recompute it. */
    private static final String SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    private static final String HTML = "<html><head><title> Hello \n world </title>"
            + "<meta name=description content='A page'></head></html>";

    private final CallLog log = new CallLog();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final ExtractContent extract = new ExtractContent(blobs, urls, HtmlExtractor.create(),
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void onContent_whenHtml_recordsTitleAndContentFetchedAtFromTheObjectsMetadata() {
        storePage(KEY, fetchMetadata());

        Optional<ExtractContent.Outcome> outcome = extract.onContent(KEY);

        ExtractionRecord expected = new ExtractionRecord(URL.urlHash(), URL.value(),
                page("Hello world", "A page", "UTF-8"), SHA, FETCHED_AT, NOW);
        assertEquals(Optional.of(new ExtractContent.Outcome(expected, true)), outcome);
        assertEquals(Optional.of(expected), urls.find(URL.urlHash()).orElseThrow().extraction());
    }

    @Test
    void onContent_whenNewerContentAlreadyExtracted_reportsNotWritten() {
        ExtractionRecord newer = new ExtractionRecord(URL.urlHash(), URL.value(), page("Newer", null, "UTF-8"),
                "0".repeat(64), FETCHED_AT.plusSeconds(60), NOW);
        urls.recordExtraction(newer);
        storePage(KEY, fetchMetadata());

        ExtractContent.Outcome outcome = extract.onContent(KEY).orElseThrow();

        assertFalse(outcome.written());
        assertEquals(Optional.of(newer), urls.find(URL.urlHash()).orElseThrow().extraction());
    }

    @ParameterizedTest
    @ValueSource(strings = {"manifests/b1.txt", "content/", "content/9f/9f86d081"})
    void onContent_whenKeyIsNotAContentKey_returnsEmptyAndRecordsNothing(String key) {
        storePage(key, fetchMetadata());

        assertEquals(Optional.empty(), extract.onContent(key));
        assertEquals(Optional.empty(), urls.find(URL.urlHash()));
    }

    @Test
    void onContent_whenObjectIsGone_returnsEmptyAndRecordsNothing() {
        assertEquals(Optional.empty(), extract.onContent(KEY));
        assertEquals(Optional.empty(), urls.find(URL.urlHash()));
    }

    @ParameterizedTest
    @ValueSource(strings = {FetchPage.META_URL, FetchPage.META_FETCHED_AT, FetchPage.META_CONTENT_SHA256})
    void onContent_whenFetchMetadataEntryMissing_returnsEmptyAndRecordsNothing(String missing) {
        Map<String, String> metadata = new HashMap<>(fetchMetadata());
        metadata.remove(missing);
        storePage(KEY, metadata);

        assertEquals(Optional.empty(), extract.onContent(KEY));
        assertEquals(Optional.empty(), urls.find(URL.urlHash()));
    }

    @Test
    void onContent_whenFetchTimeUnreadable_returnsEmptyAndRecordsNothing() {
        Map<String, String> metadata = new HashMap<>(fetchMetadata());
        metadata.put(FetchPage.META_FETCHED_AT, "yesterday");
        storePage(KEY, metadata);

        assertEquals(Optional.empty(), extract.onContent(KEY));
        assertEquals(Optional.empty(), urls.find(URL.urlHash()));
    }

    private static PageMetadata page(String title, String description, String encoding) {
        return new PageMetadata(title, description, null, null, null, Map.of(), Map.of(), List.of(), List.of(), 0,
                encoding);
    }

    private void storePage(String key, Map<String, String> metadata) {
        blobs.put(key, HTML.getBytes(StandardCharsets.UTF_8), "text/html; charset=utf-8", metadata);
    }

    private static Map<String, String> fetchMetadata() {
        return Map.of(
                FetchPage.META_URL, URL.value(),
                FetchPage.META_URL_HASH, URL.urlHash(),
                FetchPage.META_FETCHED_AT, FETCHED_AT.toString(),
                FetchPage.META_CONTENT_SHA256, SHA,
                FetchPage.META_HTTP_STATUS, "200");
    }
}
