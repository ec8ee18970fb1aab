package io.spiderling.core.pipeline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.PlannedManifest;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchOriginStore;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryFrontierStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.testing.RecordingFetchQueue;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CanonicalizeTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final String BATCH = "b1";
    private static final NormalizedUrl A1 = NormalizedUrl.parse("https://a.example/1");
    private static final NormalizedUrl B1 = NormalizedUrl.parse("https://b.example/1");
    private static final NormalizedUrl A2 = NormalizedUrl.parse("https://a.example/2");
    private static final String MANIFEST = "https://a.example/1\nhttps://b.example/1\nhttps://a.example/2\n";

    private final CallLog log = new CallLog();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final RecordingFetchQueue queue = new RecordingFetchQueue(log);
    private final Frontier frontier = new Frontier(new InMemoryFrontierStore(), queue, Clock.fixed(NOW, ZoneOffset.UTC),
            Frontier.Settings.DEFAULTS);
    private final Canonicalize canonicalize = new Canonicalize(PlanningParts.builder().blobs(blobs)
            .batches(BatchStores.of(batches, new InMemoryBatchOriginStore())).urls(urls).frontier(frontier)
            .clock(Clock.fixed(NOW, ZoneOffset.UTC)).build());

    @Test
    void onManifest_whenNew_createsQueuedItemsAndQueuesEachSitesFirstUrlThenTheRestInManifestOrder() {
        storeManifest(BucketKeys.manifest(BATCH));

        Optional<Canonicalize.Outcome> outcome = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 3, 0, 0)), outcome);
        assertEquals(List.of(job(A1), job(B1), job(A2)), sent(), "each site's first URL as planned, then releases");
        for (NormalizedUrl url : List.of(A1, B1, A2)) {
            assertEquals(ItemState.QUEUED, batches.item(BATCH, url.urlHash()).orElseThrow().state(), url.value());
        }
    }

    @Test
    void onManifest_whenALineHoldsASpellingApartFromItsKey_itsJobRequestsThatSpelling() {
        String written = "https://a.example/q?b=2&a=1";
        var accepted = (io.spiderling.core.url.NormalizationResult.Accepted) UrlNormalizer.create().normalize(written);
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(1).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        blobs.put(BucketKeys.manifest(BATCH), PlannedManifest.write(List.of(accepted)), "text/plain", Map.of());

        canonicalize.onManifest(BucketKeys.manifest(BATCH));

        FetchJob job = sent().getFirst();
        assertEquals("https://a.example/q?a=1&b=2", job.url().value(), "keyed on the normal form");
        assertEquals(written, job.request().value(), "asked for as written");
    }

    @Test
    void onManifest_whenRunAgain_queuesNothingTwice() {
        storeManifest(BucketKeys.manifest(BATCH));
        canonicalize.onManifest(BucketKeys.manifest(BATCH));

        Optional<Canonicalize.Outcome> again = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 3, 0, 0)), again);
        assertEquals(List.of(job(A1), job(B1), job(A2)), sent(), "the frontier holds each (batch, URL) once");
    }

    @Test
    void onManifest_whenItemAlreadyTerminal_leavesItAlone() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(3).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        storeManifest(BucketKeys.manifest(BATCH));
        canonicalize.onManifest(BucketKeys.manifest(BATCH));
        batches.finishItem(BATCH, B1.urlHash(), Reason.FETCHED, null, NOW);

        Optional<Canonicalize.Outcome> again = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 2, 0, 0)), again);
        assertEquals(3, sent().size());
        assertEquals(ItemState.FETCHED, batches.item(BATCH, B1.urlHash()).orElseThrow().state());
    }

    @Test
    void onManifest_whenFreshCopyStored_skipsThatUrlWithoutAJob() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(3).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        storeManifest(BucketKeys.manifest(BATCH));
        urls.recordFetch(fetched(B1, NOW.minus(Duration.ofMinutes(59))));
        urls.recordFetch(fetched(A2, NOW.minus(Duration.ofMinutes(61))));

        Optional<Canonicalize.Outcome> outcome = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 2, 1, 0)), outcome);
        assertEquals(List.of(job(A1), job(A2)), sent(), "the default window is one hour");
        var skipped = batches.item(BATCH, B1.urlHash()).orElseThrow();
        assertEquals(ItemState.SKIPPED, skipped.state());
        assertEquals("fresh copy fetched at " + NOW.minus(Duration.ofMinutes(59)), skipped.detail());
    }

    @Test
    void onManifest_whenTheBatchAsksForMarkdownOfAFreshCopyWithoutIt_sendsItToTheFetchStageAndSkipsOneWithIt() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(3).source(BatchSource.HTTP).createdAt(NOW)
                .options(io.spiderling.core.batch.BatchOptions.builder().markdown(true).build()).build());
        storeManifest(BucketKeys.manifest(BATCH));
        for (NormalizedUrl url : List.of(B1, A2)) {
            FetchRecord copy = fetched(url, NOW.minus(Duration.ofMinutes(5))).toBuilder()
                    .contentSha256(Optional.of("sha-" + url.urlHash())).build();
            urls.recordFetch(copy);
            urls.recordExtraction(io.spiderling.core.extract.ExtractionRecord.builder().urlHash(url.urlHash())
                    .url(url.value()).page(io.spiderling.core.extract.PageMetadata.builder().title("T").build())
                    .contentSha256("sha-" + url.urlHash()).contentFetchedAt(copy.fetchedAt())
                    .extractedAt(copy.fetchedAt()).build());
        }
        urls.recordMarkdown(A2.urlHash(), new io.spiderling.core.content.MarkdownCopy("a".repeat(64), 1,
                "sha-" + A2.urlHash(), Optional.empty(), Optional.empty()));

        Optional<Canonicalize.Outcome> outcome = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 2, 1, 0)), outcome);
        assertEquals(List.of(job(A1), job(B1)), sent(), "B1's copy has no Markdown: the fetch stage renders it");
        assertEquals(ItemState.SKIPPED, batches.item(BATCH, A2.urlHash()).orElseThrow().state());
    }

    @Test
    void onManifest_whenRunAgainAfterTheBatchFetchedAUrlButDiedBeforeEndingItsItem_endsItAsRecordedNotSkipped() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(3)
                .source(BatchSource.HTTP).createdAt(NOW.minus(Duration.ofMinutes(1))).build());
        storeManifest(BucketKeys.manifest(BATCH));
        urls.recordFetch(fetched(B1, NOW.minus(Duration.ofSeconds(30))));

        Optional<Canonicalize.Outcome> outcome = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 2, 0, 0)), outcome);
        var item = batches.item(BATCH, B1.urlHash()).orElseThrow();
        assertEquals(ItemState.FETCHED, item.state(), "the batch's own fetch answers it; it was not skipped");
        assertEquals("recorded at " + NOW.minus(Duration.ofSeconds(30)), item.detail());
    }

    @Test
    void onManifest_whenBatchAsksForAShorterWindow_refetchesWhatIsOlder() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(3).source(BatchSource.HTTP).createdAt(NOW)
                .options(BatchOptions.builder().recrawlAfter(Duration.ofMinutes(5)).build()).build());
        storeManifest(BucketKeys.manifest(BATCH));
        urls.recordFetch(fetched(B1, NOW.minus(Duration.ofMinutes(10))));

        Optional<Canonicalize.Outcome> outcome = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 3, 0, 0)), outcome);
    }

    @Test
    void onManifest_whenAnotherBatchIsFetchingTheUrl_joinsItInsteadOfQueueingASecondFetch() {
        urls.claim(A1.urlHash(), A1.value(), "other-batch", NOW.minusSeconds(5), NOW.minus(Duration.ofMinutes(30)));
        storeManifest(BucketKeys.manifest(BATCH));

        Optional<Canonicalize.Outcome> outcome = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 2, 0, 1)), outcome);
        assertEquals(List.of(job(B1), job(A2)), sent());
        assertEquals(List.of(BATCH), urls.releaseClaim(A1.urlHash()));
        assertEquals(ItemState.QUEUED, batches.item(BATCH, A1.urlHash()).orElseThrow().state());
    }

    @Test
    void onManifest_whenAnotherBatchsClaimIsStale_takesItOver() {
        urls.claim(A1.urlHash(), A1.value(), "lost-batch", NOW.minus(Duration.ofMinutes(31)),
                NOW.minus(Duration.ofHours(1)));
        storeManifest(BucketKeys.manifest(BATCH));

        Optional<Canonicalize.Outcome> outcome = canonicalize.onManifest(BucketKeys.manifest(BATCH));

        assertEquals(Optional.of(new Canonicalize.Outcome(BATCH, 3, 3, 0, 0)), outcome);
    }

    @Test
    void onManifest_whenKeyIsNotAManifestKey_returnsEmptyAndTouchesNothing() {
        storeManifest("uploads/b1.txt");
        log.clear();

        assertEquals(Optional.empty(), canonicalize.onManifest("uploads/b1.txt"));

        assertEquals(List.of(), log.entries());
    }

    @Test
    void onManifest_whenManifestIsGone_returnsEmptyAndTouchesNothing() {
        assertEquals(Optional.empty(), canonicalize.onManifest(BucketKeys.manifest(BATCH)));

        assertEquals(List.of(), log.entries());
    }

    /** The manifest as the ingest stage leaves it: after its batch's header (a plain one, unless made before). */
    private void storeManifest(String key) {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(3).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        blobs.put(key, MANIFEST.getBytes(StandardCharsets.UTF_8), "text/plain; charset=utf-8", Map.of());
    }

    private static FetchRecord fetched(NormalizedUrl url, Instant at) {
        return FetchRecord.builder(url.urlHash(), url.value(), ItemState.FETCHED, at).httpStatus(200)
                .contentType("text/html").size(10).contentKey(BucketKeys.content(url.urlHash())).contentSha256("ab")
                .finalUrl(url.value()).timeToFirstByteMs(1).totalMs(2).build();
    }

    private static FetchJob job(NormalizedUrl url) {
        return new FetchJob(BATCH, url, 1);
    }

    private List<FetchJob> sent() {
        return queue.sends().stream().flatMap(List::stream).toList();
    }
}
