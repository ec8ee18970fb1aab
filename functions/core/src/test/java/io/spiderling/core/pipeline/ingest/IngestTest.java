package io.spiderling.core.pipeline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchPlanner;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IngestTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    private final CallLog log = new CallLog();
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final Ingest ingest = Ingest.builder().normalizer(UrlNormalizer.create()).batches(batches).blobs(blobs)
            .clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();

    @Test
    void submit_whenOverTheClientsQuota_isOverQuotaStoresNothingAndAReplayIsChargedOnce() {
        var store = new io.spiderling.core.testing.InMemoryQuotaStore();
        Ingest limited = Ingest.builder().normalizer(UrlNormalizer.create()).batches(batches).blobs(blobs)
                .clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .quotas(new io.spiderling.core.pipeline.Quotas(store, 3, Clock.fixed(NOW, ZoneOffset.UTC))).build();
        List<String> two = List.of("https://example.com/1", "https://example.com/2");

        assertInstanceOf(Ingest.Result.Accepted.class, limited.submit("b1", "acme", two, BatchSource.HTTP,
                BatchOptions.NONE));
        assertInstanceOf(Ingest.Result.Accepted.class, limited.submit("b1", "acme", two, BatchSource.HTTP,
                BatchOptions.NONE), "a replay finds its batch");
        Ingest.Result over = limited.submit("b2", "acme", two, BatchSource.HTTP, BatchOptions.NONE);

        var quota = assertInstanceOf(Ingest.Result.OverQuota.class, over).quota();
        assertEquals(new io.spiderling.core.quota.Quota.Decision.OverQuota(3, 2, 2,
                Instant.parse("2025-03-02T00:00:00Z"), java.time.Duration.ofHours(14)), quota);
        assertEquals(2, store.used("acme", java.time.LocalDate.parse("2025-03-01")), "the replay gave its charge back");
        assertTrue(batches.status("b2").isEmpty(), "nothing stored");
        assertInstanceOf(Ingest.Result.Accepted.class, limited.submit("b1", "acme", two, BatchSource.HTTP,
                BatchOptions.NONE), "a retry of an accepted batch still finds it on a full day");
    }

    @Test
    void submit_whenNoUrls_refusesAndStoresNothing() {
        Ingest.Result result = ingest.submit("b1", List.of(), BatchSource.HTTP);

        assertEquals(new Ingest.Result.Refused("urls must not be empty", List.of()), result);
        assertEquals(List.of(), log.entries());
    }

    @Test
    void submit_whenMoreThanMaxUrls_refusesAndStoresNothing() {
        List<String> urls = Collections.nCopies(BatchPlanner.MAX_URLS + 1, "https://example.com/");

        Ingest.Result result = ingest.submit("b1", urls, BatchSource.HTTP);

        assertEquals(new Ingest.Result.Refused("too many urls: 10001 (at most 10000 per batch)", List.of()), result);
        assertEquals(List.of(), log.entries());
    }

    @Test
    void submit_whenExactlyMaxUrls_accepts() {
        List<String> urls = Collections.nCopies(BatchPlanner.MAX_URLS, "https://example.com/");

        assertInstanceOf(Ingest.Result.Accepted.class, ingest.submit("b1", urls, BatchSource.HTTP));
    }

    @Test
    void submit_whenNoUrlIsAcceptable_refusesWithEachRejectionAndStoresNothing() {
        Ingest.Result result = ingest.submit("b1", List.of("ftp://example.com/f", "example.com/a"), BatchSource.HTTP);

        assertEquals(new Ingest.Result.Refused("no acceptable URL in the batch", List.of(
                new Rejection("ftp://example.com/f", "unsupported scheme: ftp"),
                new Rejection("example.com/a", "missing scheme"))), result);
        assertEquals(List.of(), log.entries());
    }

    @Test
    void submit_whenAccepted_writesHeaderBeforeManifest() {
        ingest.submit("b1", List.of("https://example.com/"), BatchSource.HTTP);

        assertEquals(List.of("BatchStore.createBatch b1", "BlobStore.put manifests/b1.txt"), log.entries());
    }

    @Test
    void submit_whenAccepted_storesHeaderAndManifestOfNormalizedUrlsOnePerLine() {
        Ingest.Result result = ingest.submit("b1", List.of(
                "HTTP://Example.com:80/a/../b#top", "https://b.example/x", "ftp://example.com/f",
                "http://example.com/b", "  https://B.example/x  "), BatchSource.SQS);

        BatchHeader stored = assertInstanceOf(Ingest.Result.Accepted.class, result).header();
        BatchHeader expected = BatchHeader.builder().batchId("b1").total(2).duplicates(2)
                .rejected(List.of(new Rejection("ftp://example.com/f", "unsupported scheme: ftp"))).rejectedCount(1)
                .source(BatchSource.SQS).createdAt(NOW).fingerprint(stored.fingerprint()).build();
        assertEquals(expected, stored);
        assertTrue(stored.fingerprint().matches("[0-9a-f]{64}"), stored.fingerprint());
        assertEquals(expected, batches.status("b1").orElseThrow().header());
        assertEquals("http://example.com/b\nhttps://b.example/x\n", new String(
                blobs.get("manifests/b1.txt").orElseThrow().bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void submit_whenSameRequestAgainUnderSameId_returnsTheStoredBatchAndWritesNoManifest() {
        List<String> urls = List.of("https://example.com/a", "https://example.com/b");
        var first = assertInstanceOf(Ingest.Result.Accepted.class, ingest.submit("k1", urls, BatchSource.HTTP));
        log.clear();

        var again = assertInstanceOf(Ingest.Result.Accepted.class, ingest.submit("k1", urls, BatchSource.HTTP));

        assertEquals(first.header(), again.header());
        assertEquals(List.of("BatchStore.createBatch k1"), log.entries(), "a replay must not re-plan the batch");
    }

    @Test
    void submit_whenDifferentRequestUnderSameId_conflictsAndChangesNothing() {
        ingest.submit("k2", List.of("https://example.com/a"), BatchSource.HTTP);
        BatchStatus before = batches.status("k2").orElseThrow();
        log.clear();

        Ingest.Result result = ingest.submit("k2", List.of("https://example.com/other"), BatchSource.HTTP);

        assertEquals(new Ingest.Result.Conflict("batch k2 already exists for a different request"), result);
        assertEquals(before, batches.status("k2").orElseThrow());
        assertEquals(List.of("BatchStore.createBatch k2"), log.entries());
    }

    @Test
    void submit_whenReplayedAfterACrashBeforeTheManifest_writesTheManifest() {
        List<String> urls = List.of("https://example.com/a");
        var crashing = Ingest.builder().normalizer(UrlNormalizer.create()).batches(batches)
                .blobs(new InMemoryBlobStore(new CallLog()) {
            @Override
            public void put(String key, byte[] bytes, String contentType, Map<String, String> metadata) {
                throw new IllegalStateException("crash before the manifest");
            }
        }).clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
        assertThrows(IllegalStateException.class, () -> crashing.submit("k3", urls, BatchSource.HTTP));

        assertInstanceOf(Ingest.Result.Accepted.class, ingest.submit("k3", urls, BatchSource.HTTP));

        assertEquals("https://example.com/a\n", new String(blobs.get("manifests/k3.txt").orElseThrow().bytes(),
                StandardCharsets.UTF_8));
    }

    @Test
    void submit_whenOptionsGiven_storesThemWithTheCallbackNormalized() {
        var options = BatchOptions.builder().callbackUrl("HTTPS://Hooks.Example.com:443/done#x")
                .recrawlAfter(Duration.ofMinutes(30)).build();

        var accepted = assertInstanceOf(Ingest.Result.Accepted.class,
                ingest.submit("o1", List.of("https://example.com/"), BatchSource.HTTP, options));

        assertEquals(BatchOptions.builder().callbackUrl("https://hooks.example.com/done").recrawlAfter(Duration.ofMinutes(30)).build(),
                accepted.header().options());
    }

    @ParameterizedTest(name = "[{0}] {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ftp://hooks.example.com/x | PT1H  | callbackUrl: unsupported scheme: ftp
            not a url                 | PT1H  | callbackUrl: missing scheme
            https://hooks.example.com | -PT1S | recrawlAfter must be between PT0S and PT8760H, was PT-1S
            https://hooks.example.com | P366D | recrawlAfter must be between PT0S and PT8760H, was PT8784H
            """)
    void submit_whenOptionInvalid_refusesNamingItAndStoresNothing(String callback, String recrawl, String reason) {
        var options = BatchOptions.builder().callbackUrl(callback).recrawlAfter(Duration.parse(recrawl)).build();

        Ingest.Result result = ingest.submit("o2", List.of("https://example.com/"), BatchSource.HTTP, options);

        assertEquals(new Ingest.Result.Refused(reason, List.of()), result);
        assertEquals(List.of(), log.entries());
    }

    @Test
    void submit_whenNotifyWithoutCallback_refusesAndStoresNothing() {
        var options = BatchOptions.builder().notices(BatchOptions.Notice.CHANGES).build();

        Ingest.Result result = ingest.submit("o3", List.of("https://example.com/"), BatchSource.HTTP, options);

        assertEquals(new Ingest.Result.Refused("notify needs a callbackUrl to post to", List.of()), result);
        assertEquals(List.of(), log.entries());
    }

    @Test
    void submit_whenNotifyChangesWithCallback_storesTheNoticeAndFingerprintsIt() {
        var plain = BatchOptions.builder().callbackUrl("https://hooks.example.com/done").build();
        var notify = plain.toBuilder().notices(BatchOptions.Notice.CHANGES).build();

        var accepted = assertInstanceOf(Ingest.Result.Accepted.class,
                ingest.submit("o4", List.of("https://example.com/"), BatchSource.HTTP, notify));

        assertEquals(notify, accepted.header().options());
        assertNotEquals(Ingest.fingerprint(List.of("https://example.com/"), plain),
                Ingest.fingerprint(List.of("https://example.com/"), notify),
                "a retry that adds \"notify\" under the same key is a different request");
    }

    @Test
    void recordRefused_whenCalled_storesAnEmptyBatchThatIsAlreadyComplete() {
        List<Rejection> rejected = List.of(new Rejection("{not json", "unreadable message"));

        BatchHeader header = ingest.recordRefused("q-1", BatchSource.SQS, rejected);

        BatchStatus status = batches.status("q-1").orElseThrow();
        assertEquals(BatchHeader.builder().batchId("q-1").total(0).rejected(rejected).rejectedCount(1)
                .source(BatchSource.SQS).createdAt(NOW).build(), header);
        assertEquals(header, status.header());
        assertEquals(Optional.of(NOW), status.completedAt());
        assertTrue(status.done());
        assertTrue(blobs.isEmpty(), "a refused batch has no manifest");
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "a/b", "a b", "ü"})
    void submit_whenBatchIdCannotNameAManifest_throwsAndStoresNothing(String batchId) {
        assertThrows(IllegalArgumentException.class,
                () -> ingest.submit(batchId, List.of("https://example.com/"), BatchSource.HTTP));
        assertTrue(blobs.isEmpty());
        assertEquals(Optional.empty(), batches.status(batchId));
    }
}
