package io.spiderling.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BatchTrackerTest {

    private static final String BATCH = "b1";
    private static final Instant T1 = Instant.parse("2025-03-01T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(5);
    private static final Instant T3 = T1.plusSeconds(9);
    private static final NormalizedUrl FIRST_URL = NormalizedUrl.parse("https://a.example/1");
    private static final String FIRST = FIRST_URL.urlHash();
    private static final NormalizedUrl SECOND_URL = NormalizedUrl.parse("https://b.example/2");
    private static final String SECOND = SECOND_URL.urlHash();

    private final CallLog log = new CallLog();
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final BatchTracker tracker = new BatchTracker(batches, batches);

    @BeforeEach
    void twoQueuedItems() {
        batches.createBatch(BatchHeader.builder().batchId(BATCH).total(2).source(BatchSource.HTTP).createdAt(T1)
                .build());
        batches.addItems(BATCH, List.of(FIRST_URL, SECOND_URL), T1);
        log.clear();
    }

    @Test
    void finish_whenItemQueued_countsItAndReturnsTrue() {
        assertTrue(tracker.finish(BATCH, FIRST, Reason.FETCHED, null, T2));

        BatchStatus status = status();
        assertEquals(Map.of(ItemState.FETCHED, 1), status.terminalCounts());
        assertEquals(ItemState.FETCHED, batches.item(BATCH, FIRST).orElseThrow().state());
        assertEquals(Optional.empty(), status.completedAt(), "one item is still queued");
    }

    @Test
    void finish_whenItemAlreadyEnded_returnsFalseAndCountsNothing() {
        tracker.finish(BATCH, FIRST, Reason.FETCHED, null, T2);

        assertFalse(tracker.finish(BATCH, FIRST, Reason.HTTP_ERROR, "http 500", T3));

        assertEquals(Map.of(ItemState.FETCHED, 1), status().terminalCounts());
        assertEquals(new InMemoryBatchStore.Item(FIRST_URL, ItemState.FETCHED, Reason.FETCHED, null, T2),
                batches.item(BATCH, FIRST).orElseThrow());
    }

    @Test
    void finish_whenLastItemEnds_recordsCompletionOnceAtThatTime() {
        tracker.finish(BATCH, FIRST, Reason.FETCHED, null, T1);
        assertEquals(Optional.empty(), status().completedAt(), "not before the last item ends");

        tracker.finish(BATCH, SECOND, Reason.HTTP_ERROR, "http 404", T2);
        tracker.finish(BATCH, SECOND, Reason.HTTP_ERROR, "http 404", T3);

        assertEquals(Optional.of(T2), status().completedAt());
        assertEquals(1, log.entries().stream().filter(e -> e.startsWith("BatchStore.markCompleted")).count());
    }

    @Test
    void finish_whenRedeliveredAfterCrashBeforeCompletion_recordsCompletionAndReturnsFalse() {
        tracker.finish(BATCH, FIRST, Reason.FETCHED, null, T1);
        batches.finishItem(BATCH, SECOND, Reason.FETCHED, null, T2); // the first delivery died after this write

        assertFalse(tracker.finish(BATCH, SECOND, Reason.FETCHED, null, T3));

        assertEquals(Optional.of(T3), status().completedAt());
        assertEquals(Map.of(ItemState.FETCHED, 2), status().terminalCounts());
    }

    private BatchStatus status() {
        return batches.status(BATCH).orElseThrow();
    }
}
