package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.pipeline.BatchTracker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BlobStore.StoredBlob;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchOriginStore;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryFrontierStore;
import io.spiderling.core.testing.InMemoryPendingPlans;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.testing.RecordingFetchQueue;
import io.spiderling.core.testing.RecordingPlanQueue;
import io.spiderling.core.testing.TestClock;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * On AWS a manifest's or an upload's planning starts from its S3 event, which Lambda drops after two failed retries.
 * Everything ingest writes is watched until its planning begins, and the sweep plans what waited too long, so a lost
 * event does not strand a batch.
 */
class StrandedPlansTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final Duration AFTER = Duration.ofMinutes(5);
    private static final int LIMIT = 100;

    private final TestClock clock = new TestClock(T0);
    private final CallLog log = new CallLog();
    /** Keys whose reads and copies fail, as a throttled or failing store's would. */
    private final Set<String> failing = new HashSet<>();
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log) {
        @Override
        public Optional<StoredBlob> get(String key) {
            fail(key);
            return super.get(key);
        }

        @Override
        public boolean copy(String from, String to) {
            fail(from);
            return super.copy(from, to);
        }

        private void fail(String key) {
            if (failing.contains(key)) {
                throw new IllegalStateException("the store failed reading " + key + " (test)");
            }
        }
    };
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final InMemoryBatchOriginStore origins = new InMemoryBatchOriginStore();
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final RecordingFetchQueue fetchQueue = new RecordingFetchQueue(log);
    private final RecordingPlanQueue planQueue = new RecordingPlanQueue();
    private final InMemoryPendingPlans pending = new InMemoryPendingPlans();
    private final Frontier frontier = new Frontier(new InMemoryFrontierStore(), fetchQueue, clock,
            Frontier.Settings.DEFAULTS);
    private final BatchTracker tracker = new BatchTracker(batches, batches);
    private final Ingest ingest = Ingest.builder().normalizer(UrlNormalizer.create()).batches(batches).blobs(blobs)
            .clock(clock).uploadUrlTtl(Ingest.DEFAULT_UPLOAD_URL_TTL).callbacks(Optional.empty())
            .notifyQueue(Optional.empty()).pendingPlans(pending).build();
    private final ItemPlanner planner = new ItemPlanner(urls, tracker, origins, ItemPlanner.Settings.DEFAULTS);
    private final PlanningParts planning = PlanningParts.builder().blobs(blobs)
            .batches(BatchStores.of(batches, origins)).planner(planner).frontier(frontier).clock(clock).pendingPlans(pending).build();
    private final Canonicalize canonicalize = new Canonicalize(planning);
    private final PlanUpload planUpload = PlanUpload.builder().normalizer(UrlNormalizer.create()).planning(planning)
            .queue(planQueue).settings(PlanUpload.Settings.DEFAULTS).tracker(tracker).build();

    @Test
    void submit_whenAccepted_watchesTheManifestUntilItsEventPlansIt() {
        submit("b1");
        String manifest = BucketKeys.manifest("b1");
        assertTrue(pending.watches(manifest));

        canonicalize.onManifest(manifest);

        assertFalse(pending.watches(manifest));
    }

    @Test
    void planStranded_whenTheManifestsEventWasLost_plansItOnceItHasWaitedLongEnough() {
        submit("b1");
        clock.advance(Duration.ofMinutes(4));
        assertEquals(0, canonicalize.planStranded(clock.instant().minus(AFTER), LIMIT), "not waited long enough");
        assertEquals(List.of(), fetchQueue.sends());

        clock.advance(Duration.ofMinutes(2));
        assertEquals(1, canonicalize.planStranded(clock.instant().minus(AFTER), LIMIT));

        assertEquals(2, fetchQueue.sends().stream().mapToInt(List::size).sum(), "both URLs released");
        assertEquals(ItemState.QUEUED, batches.items("b1", Optional.empty(), Optional.empty(), 10).items().get(0)
                .state());
        assertFalse(pending.watches(BucketKeys.manifest("b1")));
        assertEquals(0, canonicalize.planStranded(clock.instant(), LIMIT), "planned once");
    }

    @Test
    void planStranded_whenOneManifestFailsToPlan_plansTheOthersAndKeepsWatchingIt() {
        submit("b1");
        submit("b2");
        failing.add(BucketKeys.manifest("b1"));
        clock.advance(Duration.ofMinutes(6));

        assertEquals(1, canonicalize.planStranded(clock.instant().minus(AFTER), LIMIT));

        assertTrue(pending.watches(BucketKeys.manifest("b1")), "tried again by the next sweep");
        assertFalse(pending.watches(BucketKeys.manifest("b2")));
        failing.clear();
        assertEquals(1, canonicalize.planStranded(clock.instant().minus(AFTER), LIMIT));
        assertFalse(pending.watches(BucketKeys.manifest("b1")));
    }

    @Test
    void planStranded_whenTheManifestWasNeverWritten_keepsWatchingForADayThenLetsGo() {
        pending.expect(BucketKeys.manifest("ghost"), T0); // ingest died between watching and writing
        clock.advance(Duration.ofHours(23));
        assertEquals(0, canonicalize.planStranded(clock.instant().minus(AFTER), LIMIT));
        assertTrue(pending.watches(BucketKeys.manifest("ghost")));

        clock.advance(Duration.ofHours(2));
        assertEquals(0, canonicalize.planStranded(clock.instant().minus(AFTER), LIMIT));

        assertFalse(pending.watches(BucketKeys.manifest("ghost")));
    }

    @Test
    void resumeStranded_whenTheUploadsEventWasLost_cutsItIntoChunksOnceItIsInTheBucket() {
        assertInstanceOf(Ingest.UploadResult.Started.class,
                ingest.startUpload("u1", UploadFormat.TEXT, BatchSource.HTTP, BatchOptions.NONE));
        String key = BucketKeys.upload("u1", UploadFormat.TEXT.extension());
        assertTrue(pending.watches(key));
        clock.advance(Duration.ofMinutes(30));
        assertEquals(0, planUpload.resumeStranded(clock.instant().minus(AFTER), LIMIT), "the client has not sent it");
        assertTrue(pending.watches(key));

        blobs.put(key, "https://a.example/1\nhttps://b.example/2\n".getBytes(StandardCharsets.UTF_8), "text/plain",
                Map.of()); // and its event is lost
        clock.advance(Duration.ofMinutes(1));

        assertEquals(1, planUpload.resumeStranded(clock.instant().minus(AFTER), LIMIT));
        assertEquals(List.of(new RecordingPlanQueue.ChunkMessage("u1", 0)), planQueue.sent());
        assertFalse(pending.watches(key));
    }

    @Test
    void resumeStranded_whenOneUploadFailsToStart_startsTheOthersAndKeepsWatchingIt() {
        List<String> keys = List.of("u-failing", "u-fine").stream().map(id -> {
            ingest.startUpload(id, UploadFormat.TEXT, BatchSource.HTTP, BatchOptions.NONE);
            String key = BucketKeys.upload(id, UploadFormat.TEXT.extension());
            blobs.put(key, "https://a.example/1\n".getBytes(StandardCharsets.UTF_8), "text/plain", Map.of());
            return key;
        }).toList();
        failing.add(keys.get(0));
        clock.advance(Duration.ofMinutes(6));

        assertEquals(1, planUpload.resumeStranded(clock.instant().minus(AFTER), LIMIT));

        assertEquals(List.of(new RecordingPlanQueue.ChunkMessage("u-fine", 0)), planQueue.sent());
        assertTrue(pending.watches(keys.get(0)), "tried again by the next sweep");
        assertFalse(pending.watches(keys.get(1)));
    }

    @Test
    void resumeStranded_whenTheUploadNeverCame_letsGoOnlyAfterEveryUploadUrlHasExpired() {
        ingest.startUpload("u2", UploadFormat.JSONL, BatchSource.HTTP, BatchOptions.NONE);
        String key = BucketKeys.upload("u2", UploadFormat.JSONL.extension());
        clock.advance(Duration.ofDays(7));
        planUpload.resumeStranded(clock.instant().minus(AFTER), LIMIT);
        assertTrue(pending.watches(key));

        clock.advance(Duration.ofDays(1).plusMinutes(1));
        planUpload.resumeStranded(clock.instant().minus(AFTER), LIMIT);

        assertFalse(pending.watches(key));
    }

    @Test
    void onUpload_whenItsEventArrives_stopsWatching() {
        ingest.startUpload("u3", UploadFormat.TEXT, BatchSource.HTTP, BatchOptions.NONE);
        String key = BucketKeys.upload("u3", UploadFormat.TEXT.extension());
        blobs.put(key, "https://a.example/1\n".getBytes(StandardCharsets.UTF_8), "text/plain", Map.of());

        planUpload.onUpload(key);

        assertFalse(pending.watches(key));
    }

    private void submit(String batchId) {
        assertInstanceOf(Ingest.Result.Accepted.class, ingest.submit(batchId,
                List.of("https://a.example/1", "https://b.example/2"), BatchSource.HTTP));
    }
}
