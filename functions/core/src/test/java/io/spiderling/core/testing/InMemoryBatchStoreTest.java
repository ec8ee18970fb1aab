package io.spiderling.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The rules of this fake that no pipeline test reaches on its own, pinned against the port's javadoc (and, where the
 * port is silent, the DynamoDB adapter). Ending an item once is covered by {@code BatchTrackerTest}, re-adding items
 * by {@code CanonicalizeTest}.
 */
class InMemoryBatchStoreTest {

    private static final Instant T = Instant.parse("2025-03-01T10:00:00Z");
    private static final BatchHeader HEADER = new BatchHeader("b1", 1, 0, List.of(), 0, "http", T);

    private final InMemoryBatchStore batches = new InMemoryBatchStore(new CallLog());

    @Test
    void createBatch_whenBatchExists_keepsTheFirstHeader() {
        batches.createBatch(HEADER);

        batches.createBatch(new BatchHeader("b1", 7, 3, List.of(), 0, "sqs", T.plusSeconds(1)));

        assertEquals(HEADER, batches.status("b1").orElseThrow().header());
    }

    @Test
    void markCompleted_whenCalledTwice_recordsOnlyTheFirst() {
        batches.createBatch(HEADER);

        assertTrue(batches.markCompleted("b1", T));
        assertFalse(batches.markCompleted("b1", T.plusSeconds(1)));

        assertEquals(Optional.of(T), batches.status("b1").orElseThrow().completedAt());
    }

    @Test
    void finishItem_whenItemUnknown_returnsFalseAndCountsNothing() {
        batches.createBatch(HEADER);

        assertFalse(batches.finishItem("b1", "0".repeat(64), ItemState.FETCHED, null, T));

        assertEquals(new BatchStatus(HEADER, Map.of(), Optional.empty()), batches.status("b1").orElseThrow());
    }
}
