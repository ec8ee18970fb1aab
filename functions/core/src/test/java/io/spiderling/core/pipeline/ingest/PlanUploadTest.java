package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.pipeline.batch.CancelBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.DelegatingUrlStore;
import io.spiderling.core.testing.InMemoryBatchOriginStore;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryFrontierStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.testing.RecordingFetchQueue;
import io.spiderling.core.testing.RecordingPlanQueue;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PlanUploadTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final String BATCH = "up1";
    private static final int SITES = 7;
    private static final int LINES = 3_000;

    private final CallLog log = new CallLog();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final InMemoryBatchOriginStore origins = new InMemoryBatchOriginStore();
    private final FailingUrlStore urls = new FailingUrlStore(new InMemoryUrlStore(log));
    private final InMemoryFrontierStore frontierStore = new InMemoryFrontierStore();
    private final RecordingPlanQueue planQueue = new RecordingPlanQueue();
    private final Frontier frontier = new Frontier(frontierStore, new RecordingFetchQueue(log), CLOCK,
            Frontier.Settings.DEFAULTS);
    private final Ingest ingest = Ingest.builder().normalizer(UrlNormalizer.create()).batches(batches).blobs(blobs)
            .clock(CLOCK).build();
    private final PlanUpload plan = PlanUpload.builder().normalizer(UrlNormalizer.create())
            .planning(PlanningParts.builder().blobs(blobs).batches(BatchStores.of(batches, origins)).urls(urls)
                    .frontier(frontier).clock(CLOCK).build())
            .queue(planQueue).settings(new PlanUpload.Settings(16 * 1024)).build();

    /** What the generated manifest holds, counted as it is written. */
    private record Manifest(String text, Set<String> distinct, int duplicates, int invalid) {}

    /**
     * Lines over {@value #SITES} sites. Every tenth line respells a URL from 5 lines earlier (the same group) and every
     * 23rd from 1,500 lines earlier (another chunk); every 97th is not a fetchable URL; every 50th is blank.
     */
    private static Manifest manifest(UploadFormat format) {
        StringBuilder text = new StringBuilder();
        Set<String> distinct = new HashSet<>();
        boolean[] original = new boolean[LINES];
        int duplicates = 0;
        int invalid = 0;
        for (int i = 0; i < LINES; i++) {
            String url;
            if (i % 50 == 49) {
                text.append('\n');
                continue;
            } else if (i % 97 == 96) {
                url = "ftp://files.example/" + i;
                invalid++;
            } else if (i % 10 == 9 && original[i - 5]) {
                url = "HTTPS://S" + ((i - 5) % SITES) + ".EXAMPLE:443/p/" + (i - 5) + "#again";
                duplicates++;
            } else if (i % 23 == 22 && i >= 1500 && original[i - 1500]) {
                url = "https://s" + ((i - 1500) % SITES) + ".example/p/./" + (i - 1500) + "?utm_source=x";
                duplicates++;
            } else {
                url = "https://s" + (i % SITES) + ".example/p/" + i;
                distinct.add(url);
                original[i] = true;
            }
            text.append(switch (format) {
                case TEXT -> url;
                case JSONL -> i % 2 == 0 ? "\"" + url + "\"" : "{\"url\": \"" + url + "\"}";
            }).append(i % 3 == 0 ? "\r\n" : "\n");
        }
        return new Manifest(text.toString(), distinct, duplicates, invalid);
    }

    private Ingest.UploadResult.Started start(UploadFormat format) {
        return assertInstanceOf(Ingest.UploadResult.Started.class,
                ingest.startUpload(BATCH, format, BatchSource.HTTP, BatchOptions.NONE));
    }

    private void upload(UploadFormat format, String text) {
        blobs.put(BucketKeys.upload(BATCH, format.extension()), text.getBytes(StandardCharsets.UTF_8),
                format.contentType(), Map.of());
    }

    private void planAllChunks() {
        for (var message : planQueue.sent()) {
            plan.onChunk(message.batchId(), message.chunk());
        }
    }

    @Test
    void startUpload_whenNew_opensABatchAwaitingItsUpload() {
        var started = start(UploadFormat.JSONL);

        assertEquals("memory://blobs/uploads/up1.jsonl?ttl=PT15M", started.uploadUrl().toString());
        assertEquals(NOW.plusSeconds(900), started.expiresAt());
        BatchStatus status = batches.status(BATCH).orElseThrow();
        assertEquals(Optional.of(PlanProgress.AWAITING_UPLOAD), status.planning());
        assertFalse(status.done(), "no total yet: the batch is not complete with zero items");
    }

    @Test
    void startUpload_whenSameIdAnotherFormat_isAConflictAndChangesNothing() {
        start(UploadFormat.JSONL);

        assertInstanceOf(Ingest.UploadResult.Conflict.class,
                ingest.startUpload(BATCH, UploadFormat.TEXT, BatchSource.HTTP, BatchOptions.NONE));
        assertEquals(Optional.of(UploadFormat.JSONL), batches.status(BATCH).orElseThrow().header().upload());
    }

    @ParameterizedTest
    @EnumSource(UploadFormat.class)
    void onChunk_whenEveryChunkPlanned_makesOneItemPerDistinctUrlAndCountsExactly(UploadFormat format) {
        Manifest m = manifest(format);
        start(format);
        upload(format, m.text());

        var arrival = plan.onUpload(BucketKeys.upload(BATCH, format.extension())).orElseThrow();
        assertTrue(arrival.chunks() > 3, "the manifest spans several chunks: " + arrival.chunks());
        planAllChunks();

        BatchStatus status = batches.status(BATCH).orElseThrow();
        assertEquals(m.distinct().size() + m.invalid(), status.header().total());
        assertEquals(m.duplicates(), status.header().duplicates());
        assertEquals(m.invalid(), status.terminalCounts().get(ItemState.INVALID));
        assertTrue(status.planned());
        assertEquals(m.distinct(), queuedUrls(BATCH), "one queued item per distinct URL");
        int parked = 0;
        for (int s = 0; s < SITES; s++) {
            SiteKey site = NormalizedUrl.parse("https://s" + s + ".example/").siteKey();
            parked += frontierStore.pending(site) + frontierStore.released(site);
        }
        assertEquals(m.distinct().size(), parked, "each distinct URL parked once");
    }

    @Test
    void onChunk_whenTheClientsQuotaRunsOutMidUpload_takesWholeChunksThatFitAndEndsTheRestOverQuota() {
        var store = new io.spiderling.core.testing.InMemoryQuotaStore();
        var quotas = new io.spiderling.core.pipeline.Quotas(store, 1_000, CLOCK);
        PlanUpload limited = PlanUpload.builder().normalizer(UrlNormalizer.create())
                .planning(PlanningParts.builder().blobs(blobs).batches(BatchStores.of(batches, origins)).urls(urls)
                        .frontier(frontier).clock(CLOCK).build())
                .queue(planQueue).settings(new PlanUpload.Settings(16 * 1024)).quotas(quotas).build();
        Manifest m = manifest(UploadFormat.TEXT);
        assertInstanceOf(Ingest.UploadResult.Started.class,
                ingest.startUpload(BATCH, "acme", UploadFormat.TEXT, BatchSource.HTTP, BatchOptions.NONE));
        upload(UploadFormat.TEXT, m.text());
        limited.onUpload(BucketKeys.upload(BATCH, UploadFormat.TEXT.extension()));

        for (var message : planQueue.sent()) {
            limited.onChunk(message.batchId(), message.chunk());
        }

        BatchStatus status = batches.status(BATCH).orElseThrow();
        List<BatchItem> over = batches.items(BATCH, Optional.of(ItemState.INVALID), Optional.empty(), 10_000).items()
                .stream().filter(i -> i.reason().equals(Optional.of(Reason.OVER_QUOTA))).toList();
        long counted = store.used("acme", io.spiderling.core.quota.Quota.day(NOW));
        assertTrue(counted > 0 && counted <= 1_000, "whole chunks, within the limit: " + counted);
        assertFalse(over.isEmpty(), "the chunks with no room");
        assertTrue(over.getFirst().detail().orElseThrow().startsWith("quota exceeded: "), over.getFirst().toString());
        assertTrue(status.planned());
        assertEquals(status.header().total(), queuedUrls(BATCH).size() + status.terminalCounts()
                .get(ItemState.INVALID), "every item queued or ended: none lost");
        assertTrue(queuedUrls(BATCH).size() <= counted, "no URL planned beyond what was counted");
    }

    @Test
    void onChunk_whenJsonlWithBadLines_recordsEachAsAnInvalidItemWithItsReason() {
        start(UploadFormat.JSONL);
        upload(UploadFormat.JSONL, "\"https://a.example/1\"\n{\"href\": \"x\"}\nnot json\n\"mailto:a@b.example\"\n");
        plan.onUpload(BucketKeys.upload(BATCH, UploadFormat.JSONL.extension()));
        planAllChunks();

        List<BatchItem> invalid = batches.items(BATCH, Optional.of(ItemState.INVALID), Optional.empty(), 100).items();
        assertEquals(Set.of("unknown field \"href\"", "not JSON", "unsupported scheme"),
                invalid.stream().map(i -> i.detail().orElseThrow().replaceAll(":.*", "")
                        .replaceAll("^unsupported scheme.*", "unsupported scheme")).collect(
                                java.util.stream.Collectors.toSet()));
        BatchStatus status = batches.status(BATCH).orElseThrow();
        assertEquals(4, status.header().total());
        assertEquals(3, status.terminalCounts().get(ItemState.INVALID));
    }

    @Test
    void onChunk_whenACrashInterruptsAChunk_planningItAgainCountsEveryLineOnce() {
        Manifest m = manifest(UploadFormat.TEXT);
        start(UploadFormat.TEXT);
        upload(UploadFormat.TEXT, m.text());
        plan.onUpload(BucketKeys.upload(BATCH, UploadFormat.TEXT.extension()));

        urls.failOnClaimCall(3); // the chunk's third group dies after its items were written
        assertThrows(IllegalStateException.class, () -> plan.onChunk(BATCH, 1));
        planAllChunks(); // chunk 1 again, and the others

        BatchStatus status = batches.status(BATCH).orElseThrow();
        assertEquals(m.distinct().size() + m.invalid(), status.header().total());
        assertEquals(m.duplicates(), status.header().duplicates());
        assertEquals(m.distinct(), queuedUrls(BATCH));
    }

    @Test
    void onChunk_whenDeliveredAgainAfterPlanning_changesNothing() {
        Manifest m = manifest(UploadFormat.TEXT);
        start(UploadFormat.TEXT);
        upload(UploadFormat.TEXT, m.text());
        plan.onUpload(BucketKeys.upload(BATCH, UploadFormat.TEXT.extension()));
        planAllChunks();
        BatchStatus before = batches.status(BATCH).orElseThrow();

        var again = plan.onChunk(BATCH, 0);

        assertTrue(again.alreadyPlanned());
        assertEquals(before, batches.status(BATCH).orElseThrow());
    }

    @Test
    void onUpload_whenUploadedAgainWithOtherUrls_keepsPlanningTheFirstUpload() {
        Manifest m = manifest(UploadFormat.TEXT);
        start(UploadFormat.TEXT);
        upload(UploadFormat.TEXT, m.text());
        plan.onUpload(BucketKeys.upload(BATCH, UploadFormat.TEXT.extension()));
        upload(UploadFormat.TEXT, "https://intruder.example/\n");
        plan.onUpload(BucketKeys.upload(BATCH, UploadFormat.TEXT.extension()));

        planAllChunks();

        assertEquals(m.distinct(), queuedUrls(BATCH));
    }

    @Test
    void onUpload_whenKeyIsNotAnAwaitedUpload_doesNothing() {
        start(UploadFormat.TEXT);
        upload(UploadFormat.TEXT, "https://a.example/\n");

        assertEquals(Optional.empty(), plan.onUpload("uploads/up1.jsonl"), "announced as text");
        assertEquals(Optional.empty(), plan.onUpload("uploads/unknown.txt"));
        assertEquals(Optional.empty(), plan.onUpload("uploads/nested/up1.txt"));
        assertEquals(List.of(), planQueue.sent());
    }

    @Test
    void onChunk_whenEveryItemEndsBeforeTheLastChunkIsPlanned_completesTheBatchWithTheLastChunk() {
        start(UploadFormat.TEXT);
        upload(UploadFormat.TEXT, "ftp://only.example/invalid\n");
        plan.onUpload(BucketKeys.upload(BATCH, UploadFormat.TEXT.extension()));

        planAllChunks();

        BatchStatus status = batches.status(BATCH).orElseThrow();
        assertTrue(status.done());
        assertEquals(Optional.of(NOW), status.completedAt());
    }

    @Test
    void cancel_whenUploadNeverCame_completesTheBatchAndALateUploadPlansNothing() {
        start(UploadFormat.TEXT);
        new CancelBatch(batches, batches, CLOCK, new BatchTracker(batches, batches)).cancel(BATCH);

        assertTrue(batches.status(BATCH).orElseThrow().completedAt().isPresent());
        upload(UploadFormat.TEXT, "https://late.example/\n");
        assertEquals(0, plan.onUpload(BucketKeys.upload(BATCH, UploadFormat.TEXT.extension())).orElseThrow().chunks());
        assertEquals(List.of(), planQueue.sent());
    }

    @Test
    void onChunk_whenBatchCancelledDuringPlanning_endsItsItemsCancelledAndCompletes() {
        start(UploadFormat.TEXT);
        upload(UploadFormat.TEXT, "https://a.example/1\nhttps://b.example/2\n");
        plan.onUpload(BucketKeys.upload(BATCH, UploadFormat.TEXT.extension()));
        new CancelBatch(batches, batches, CLOCK, new BatchTracker(batches, batches)).cancel(BATCH);

        planAllChunks();

        BatchStatus status = batches.status(BATCH).orElseThrow();
        assertEquals(2, status.terminalCounts().get(ItemState.CANCELLED));
        assertTrue(status.completedAt().isPresent());
    }

    private Set<String> queuedUrls(String batchId) {
        Set<String> seen = new HashSet<>();
        List<BatchItem> all = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            var page = batches.items(batchId, Optional.of(ItemState.QUEUED), cursor, 500);
            all.addAll(page.items());
            cursor = page.cursor();
        } while (cursor.isPresent());
        all.forEach(i -> assertTrue(seen.add(i.url()), "one item per URL: " + i.url()));
        return seen;
    }

    /** A URL store whose n-th claim call fails, as a crash or an outage would. */
    private static final class FailingUrlStore extends DelegatingUrlStore {
        private int failOn = -1;
        private int calls;

        FailingUrlStore(UrlStore delegate) {
            super(delegate);
        }

        void failOnClaimCall(int n) {
            failOn = n;
            calls = 0;
        }

        @Override
        public List<Claim> claimAll(List<ClaimRequest> requests, String batchId, Instant now, Instant staleBefore) {
            if (++calls == failOn) {
                failOn = -1;
                throw new IllegalStateException("injected: the store went away");
            }
            return delegate.claimAll(requests, batchId, now, staleBefore);
        }
    }
}
