package io.spiderling.core.port;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOrigins;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
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
     * Creates one {@code queued} item per URL of a manifest that holds no duplicates. Returns the URLs that still need
     * a fetch job: those created now, and those found still {@code queued} from an earlier, interrupted attempt.
     * Items already terminal are left alone.
     */
    default List<NormalizedUrl> addItems(String batchId, List<NormalizedUrl> urls, Instant now) {
        List<ManifestEntry> entries = new ArrayList<>(urls.size());
        for (int i = 0; i < urls.size(); i++) {
            entries.add(new ManifestEntry(i, urls.get(i)));
        }
        List<Added> added = addEntries(batchId, entries, now);
        List<NormalizedUrl> pending = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            if (added.get(i).needsPlanning()) {
                pending.add(urls.get(i));
            }
        }
        return pending;
    }

    /**
     * Creates one {@code queued} item per entry unless the batch already has an item for its URL, with conditional
     * writes: no memory of earlier entries is needed, so a manifest of any size can be deduplicated a chunk at a time.
     * The entries of one call must have distinct URLs. Returns what happened to each entry, in order.
     */
    List<Added> addEntries(String batchId, List<ManifestEntry> entries, Instant now);

    /** What {@link #addEntries} found for one entry. */
    enum Added {
        /** The item was created now. */
        CREATED,
        /** This entry's own item, from an earlier interrupted attempt, is still queued. */
        PENDING,
        /** This entry's own item, from an earlier attempt, has already ended. */
        ENDED,
        /** An entry at another position of the manifest holds the URL. */
        DUPLICATE;

        /** The item is queued and may have no fetch planned yet. */
        public boolean needsPlanning() {
            return this == CREATED || this == PENDING;
        }
    }

    /**
     * Records a manifest line that holds no valid URL as an item that is {@code invalid} from the start, counted in
     * the same write. Identified by its position, so recording it again changes nothing. Returns true when recorded
     * now.
     */
    boolean addInvalid(String batchId, long position, String shown, String reason, Instant now);

    /**
     * Records, once, that the batch's uploaded manifest arrived and how it is cut. Returns true for the call that
     * recorded it; false when it was recorded before (then {@link #status} tells how) or the batch is unknown.
     */
    boolean beginPlanning(String batchId, int chunks, long bytes, Instant at);

    /**
     * Records that a chunk is planned and adds its counts to the batch, atomically and once: a chunk planned again
     * after a crash adds nothing. Returns true when recorded now.
     */
    boolean chunkPlanned(String batchId, int chunk, ChunkCounts counts, Instant at);

    /** Whether {@link #chunkPlanned} recorded the chunk. */
    boolean isChunkPlanned(String batchId, int chunk);

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

    /**
     * Records that the completion was emitted (queued for the callback and published to listeners). Returns true only
     * for the call that recorded it.
     */
    boolean markCompletionEmitted(String batchId, Instant at);

    /** Records that the completion callback was delivered, on its {@code attempts}-th attempt; the first record wins. */
    void recordCallbackDelivered(String batchId, Instant at, int attempts);

    /** Records that the completion callback was given up, with why; a delivery recorded earlier is kept. */
    void recordCallbackFailed(String batchId, String reason, int attempts, Instant at);

    /**
     * Records that progress report {@code sequence} is being posted. Returns false when that report (or a later one)
     * already was: a duplicate message, which must not post again.
     */
    boolean markProgressSent(String batchId, long sequence);

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

    /**
     * Adds origins the batch parked URLs on to its list, up to {@link BatchOrigins#MAX}; past that, the list records
     * only that there are more. Adding an origin already listed changes nothing.
     */
    void addOrigins(String batchId, Collection<RobotsOrigin> origins);

    /** The origins {@link #addOrigins} recorded; none for an unknown batch. */
    BatchOrigins origins(String batchId);
}
