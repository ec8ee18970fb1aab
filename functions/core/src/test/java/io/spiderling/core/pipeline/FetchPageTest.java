package io.spiderling.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.ContentKey;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryFrontierStore;
import io.spiderling.core.testing.RecordingFetchQueue;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FetchPageTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final String BATCH = "b1";
    private static final NormalizedUrl URL = NormalizedUrl.parse("https://example.com/page");
    private static final NormalizedUrl OTHER_URL = NormalizedUrl.parse("https://example.com/other");
    private static final FetchJob JOB = new FetchJob(BATCH, URL, 1);
    private static final byte[] BODY = "<title>Hello</title>".getBytes(StandardCharsets.UTF_8);

    private final CallLog log = new CallLog();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final InMemoryFrontierStore frontierStore = new InMemoryFrontierStore();
    private final List<String> requested = new ArrayList<>();

    /** Two queued items, so that ending the job's item does not also complete the batch. */
    @BeforeEach
    void batchOfTwoQueuedItems() {
        batches.createBatch(new BatchHeader(BATCH, 2, 0, List.of(), 0, "http", NOW));
        batches.addItems(BATCH, List.of(URL, OTHER_URL), NOW);
        log.clear();
    }

    @Test
    void process_whenBatchCancelled_endsItemCancelledWithoutContactingTheSite() {
        batches.markCancelled(BATCH, NOW);

        Optional<FetchRecord> record = fetchPageAnswering(response(200)).process(JOB);

        assertEquals(Optional.empty(), record);
        assertEquals(List.of(), requested);
        assertTrue(blobs.isEmpty());
        assertEquals(ItemState.CANCELLED, batches.item(BATCH, URL.urlHash()).orElseThrow().state());
    }

    @Test
    void process_whenOtherBatchesJoinedTheFetch_endsTheirItemsWithTheSameOutcome() {
        batches.createBatch(new BatchHeader("b2", 1, 0, List.of(), 0, "http", NOW));
        batches.addItems("b2", List.of(URL), NOW);
        urls.claim(URL.urlHash(), URL.value(), BATCH, NOW, NOW.minusSeconds(1800));
        urls.claim(URL.urlHash(), URL.value(), "b2", NOW, NOW.minusSeconds(1800));

        fetchPageAnswering(response(200)).process(JOB);

        assertEquals(List.of(URL.value()), requested, "one fetch for both batches");
        assertEquals(ItemState.FETCHED, batches.item(BATCH, URL.urlHash()).orElseThrow().state());
        assertEquals(ItemState.FETCHED, batches.item("b2", URL.urlHash()).orElseThrow().state());
        assertTrue(batches.status("b2").orElseThrow().completedAt().isPresent());
        assertFalse(urls.claimed(URL.urlHash()));
    }

    @Test
    void process_whenEndingAWaitingBatchFails_putsTheClaimBackSoTheRetryServesIt() {
        batches.addItems("headerless", List.of(URL), NOW); // ending its item throws: the store lost the header
        urls.claim(URL.urlHash(), URL.value(), BATCH, NOW, NOW.minusSeconds(1800));
        urls.claim(URL.urlHash(), URL.value(), "headerless", NOW, NOW.minusSeconds(1800));

        assertThrows(IllegalStateException.class, () -> fetchPageAnswering(response(200)).process(JOB));

        assertTrue(urls.claimed(URL.urlHash()));
        assertEquals(List.of("headerless"), urls.releaseClaim(URL.urlHash()));
    }

    @Test
    void process_whenBatchCancelledButAnotherBatchJoined_fetchesForTheOtherOnly() {
        batches.createBatch(new BatchHeader("b2", 1, 0, List.of(), 0, "http", NOW));
        batches.addItems("b2", List.of(URL), NOW);
        urls.claim(URL.urlHash(), URL.value(), BATCH, NOW, NOW.minusSeconds(1800));
        urls.claim(URL.urlHash(), URL.value(), "b2", NOW, NOW.minusSeconds(1800));
        batches.markCancelled(BATCH, NOW);

        fetchPageAnswering(response(200)).process(JOB);

        assertEquals(List.of(URL.value()), requested);
        assertEquals(ItemState.CANCELLED, batches.item(BATCH, URL.urlHash()).orElseThrow().state());
        assertEquals(ItemState.FETCHED, batches.item("b2", URL.urlHash()).orElseThrow().state());
    }

    @Test
    void process_when2xx_storesBodyThenUrlRowThenBatchItem() {
        fetchPageAnswering(response(200)).process(JOB);

        assertEquals(List.of(
                "BlobStore.put " + ContentKey.forUrlHash(URL.urlHash()),
                "UrlStore.recordFetch " + URL.urlHash() + " FETCHED",
                "BatchStore.finishItem " + BATCH + " " + URL.urlHash() + " FETCHED",
                "UrlStore.releaseClaim " + URL.urlHash()), log.entries());
    }

    @Test
    void process_when2xx_storesBodyWithFetchMetadataUnderTheUrlsContentKey() {
        String sha = Hashing.sha256Hex(BODY);

        FetchRecord record = fetchPageAnswering(response(200)).process(JOB).orElseThrow();

        String key = ContentKey.forUrlHash(URL.urlHash());
        BlobStore.StoredBlob blob = blobs.get(key).orElseThrow();
        assertArrayEquals(BODY, blob.bytes());
        assertEquals("text/html; charset=utf-8", blob.contentType());
        assertEquals(Map.of(
                FetchPage.META_URL, URL.value(),
                FetchPage.META_URL_HASH, URL.urlHash(),
                FetchPage.META_FETCHED_AT, NOW.toString(),
                FetchPage.META_CONTENT_SHA256, sha,
                FetchPage.META_HTTP_STATUS, "200"), blob.metadata());
        assertEquals(new FetchRecord(URL.urlHash(), URL.value(), ItemState.FETCHED, Optional.of(200),
                Optional.of("text/html; charset=utf-8"), BODY.length, false, Optional.of(key), Optional.of(sha),
                Optional.of(URL.value()), NOW, 30, 80, Optional.empty()), record);
        assertEquals(Optional.of(record), urls.find(URL.urlHash()).orElseThrow().fetch());
        assertEquals(List.of(URL.value()), requested);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(textBlock = """
            # status, item state, error
            200,      FETCHED,
            204,      FETCHED,
            299,      FETCHED,
            300,      FAILED,     http 300
            304,      FAILED,     http 304
            404,      FAILED,     http 404
            503,      FAILED,     http 503
            """)
    void process_whenStatus_endsItemWithStateAndStoresBodyOnlyFor2xx(int status, ItemState state, String error) {
        fetchPageAnswering(response(status)).process(JOB);

        FetchRecord row = urls.find(URL.urlHash()).orElseThrow().fetch().orElseThrow();
        assertEquals(state, row.state());
        assertEquals(Optional.ofNullable(error), row.error());
        assertEquals(Optional.of(status), row.httpStatus());
        assertEquals(state == ItemState.FETCHED, blobs.get(ContentKey.forUrlHash(URL.urlHash())).isPresent());
        assertEquals(new InMemoryBatchStore.Item(URL, state, error, NOW), batches.item(BATCH, URL.urlHash())
                .orElseThrow());
    }

    @Test
    void process_whenConnectionFails_endsItemFailedWithKindAndMessage() {
        FetchResult failure = new FetchResult.Failure("connect", "Connection refused", Duration.ofMillis(12));

        FetchRecord record = fetchPageAnswering(failure).process(JOB).orElseThrow();

        assertEquals(new FetchRecord(URL.urlHash(), URL.value(), ItemState.FAILED, Optional.empty(), Optional.empty(),
                0, false, Optional.empty(), Optional.empty(), Optional.empty(), NOW, 0, 12,
                Optional.of("connect: Connection refused")), record);
        assertEquals(Optional.of(record), urls.find(URL.urlHash()).orElseThrow().fetch());
        assertEquals(new InMemoryBatchStore.Item(URL, ItemState.FAILED, "connect: Connection refused", NOW),
                batches.item(BATCH, URL.urlHash()).orElseThrow());
        assertTrue(blobs.isEmpty());
    }

    @Test
    void process_whenBlobStoreThrows_propagatesAndLeavesItemQueued() {
        RuntimeException outage = new IllegalStateException("S3 unavailable");
        BlobStore failing = new InMemoryBlobStore(new CallLog()) {
            @Override
            public void put(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
                throw outage;
            }
        };
        FetchPage fetchPage = fetchPageAnswering(response(200), failing);

        assertSame(outage, assertThrows(RuntimeException.class, () -> fetchPage.process(JOB)));

        assertEquals(List.of(), log.entries(), "neither the URL row nor the batch item was written");
        assertEquals(ItemState.QUEUED, batches.item(BATCH, URL.urlHash()).orElseThrow().state());
    }

    private FetchPage fetchPageAnswering(FetchResult result) {
        return fetchPageAnswering(result, blobs);
    }

    private FetchPage fetchPageAnswering(FetchResult result, BlobStore blobStore) {
        PageFetcher fetcher = url -> {
            requested.add(url);
            return result;
        };
        return new FetchPage(fetcher, blobStore, urls, new BatchTracker(batches),
                new Frontier(frontierStore, new RecordingFetchQueue(new CallLog()), Clock.fixed(NOW, ZoneOffset.UTC),
                        Frontier.Settings.DEFAULTS), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static FetchResult.Response response(int status) {
        return new FetchResult.Response(status, Map.of("content-type", "text/html; charset=utf-8"), BODY, false,
                URL.value(), Duration.ofMillis(30), Duration.ofMillis(80));
    }
}
