package io.spiderling.core.port;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Batch headers, one item per accepted URL, and exact counts by state. */
public interface BatchStore {

    /**
     * Creates the header unless the batch exists. Returns true when it was created now, false when a batch with that
     * id already existed; the existing one is left unchanged.
     */
    boolean createBatch(BatchHeader header);

    /**
     * Creates one {@code queued} item per URL. Returns the URLs that still need a fetch job: those created now, and
     * those found still {@code queued} from an earlier, interrupted attempt. Items already terminal are left alone.
     */
    List<NormalizedUrl> addItems(String batchId, List<NormalizedUrl> urls, Instant now);

    /**
     * Moves an item from {@code queued} to a terminal state and counts it, atomically. Returns false, and counts
     * nothing, when the item was already terminal (a duplicate delivery) or does not exist.
     *
     * @throws IllegalStateException when the item is queued but its batch has no header
     */
    boolean finishItem(String batchId, String urlHash, ItemState terminal, String detail, Instant at);

    Optional<BatchStatus> status(String batchId);

    /** Records completion once. Returns true only for the call that recorded it; false for an unknown batch. */
    boolean markCompleted(String batchId, Instant at);

    /** Records a cancellation once. Returns true only for the call that recorded it; false for an unknown batch. */
    boolean markCancelled(String batchId, Instant at);

    /**
     * Lists a batch's items, a page at a time, optionally only those in one state. Pages may hold fewer than
     * {@code limit} items even when more follow; the last page has no cursor.
     *
     * @param cursor from the previous page, or empty for the first
     * @throws IllegalArgumentException for a cursor this store did not produce
     */
    ItemPage items(String batchId, Optional<ItemState> state, Optional<String> cursor, int limit);
}
