package io.spiderling.core.pipeline.batch;

import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.pipeline.BatchTracker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CancelBatchTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final NormalizedUrl URL = NormalizedUrl.parse("https://example.com/a");

    private final InMemoryBatchStore batches = new InMemoryBatchStore(new CallLog());
    private final CancelBatch cancel = new CancelBatch(batches, batches, Clock.fixed(NOW, ZoneOffset.UTC),
            new BatchTracker(batches, batches));
    private final CancelBatch later = new CancelBatch(batches, batches,
            Clock.fixed(NOW.plusSeconds(60), ZoneOffset.UTC), new BatchTracker(batches, batches));

    @Test
    void cancel_whenBatchUnknown_returnsNotFound() {
        assertEquals(new CancelBatch.Result.NotFound(), cancel.cancel("nope"));
    }

    @Test
    void cancel_whenBatchOpen_recordsTheTimeOnceAndLeavesItemsToTheFetchStage() {
        open("b1");

        var first = assertInstanceOf(CancelBatch.Result.Cancelled.class, cancel.cancel("b1"));
        var again = assertInstanceOf(CancelBatch.Result.Cancelled.class, later.cancel("b1"));

        assertEquals(NOW, first.at());
        assertEquals(NOW, again.at(), "a repeated cancel reports the first");
        assertEquals(ItemState.QUEUED, batches.item("b1", URL.urlHash()).orElseThrow().state());
    }

    @Test
    void cancel_whenBatchAlreadyComplete_refusesAndRecordsNothing() {
        open("b2");
        batches.finishItem("b2", URL.urlHash(), Reason.FETCHED, null, NOW);

        var result = assertInstanceOf(CancelBatch.Result.AlreadyComplete.class, cancel.cancel("b2"));

        assertEquals(Optional.empty(), result.status().cancelledAt());
        assertEquals(Optional.empty(), batches.status("b2").orElseThrow().cancelledAt());
    }

    private void open(String batchId) {
        batches.createBatch(BatchHeader.builder().batchId(batchId).total(1).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        batches.addItems(batchId, List.of(URL), NOW);
    }
}
