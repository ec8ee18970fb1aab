package io.spiderling.core.port;

import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A batch's items, one per accepted URL or invalid manifest line, and the exact count of those ended, by state. The
 * counts are written in the same atomic step as the item, and read with {@link BatchHeaderStore#status}.
 */
public interface BatchItemStore {

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
     *
     * @throws IllegalStateException when the batch has no header; nothing is added
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
     * An entry of a batch that holds no URL Spiderling takes: a manifest line that is not a URL, or a sitemap's entry
     * that the sitemaps protocol refuses.
     *
     * @param position the entry's position among the batch's items, which identifies it
     * @param shown the entry as written
     * @param reason why it is not taken: a reason whose state is {@code invalid}
     * @param detail the same for people, e.g. {@code unsupported scheme: ftp}
     */
    record Invalid(long position, String shown, Reason reason, String detail) {
        public Invalid {
            Objects.requireNonNull(shown, "shown");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
            if (reason.state() != ItemState.INVALID) {
                throw new IllegalArgumentException("an invalid entry's reason ends invalid, not " + reason.code());
            }
        }

        /** A line that is not a URL Spiderling fetches ({@code invalid-url}). */
        public static Invalid url(long position, String shown, String detail) {
            return new Invalid(position, shown, Reason.INVALID_URL, detail);
        }
    }

    /**
     * Records an entry that holds no URL Spiderling takes as an item that is {@code invalid} from the start, counted
     * in the same write. Identified by its position, so recording it again changes nothing. Returns true when
     * recorded now; false too, recording nothing, when the batch has no header.
     */
    boolean addInvalid(String batchId, Invalid entry, Instant now);

    /**
     * Moves an item from {@code queued} to a terminal state and counts it, atomically. Counts nothing when the item
     * was already terminal (a duplicate delivery) or does not exist ({@link Ending#ALREADY_ENDED}).
     *
     * <p>Ending an item does not read the batch's counts: a store that keeps them in shards tells only whether this
     * item may have been the last queued one ({@link Ending#ENDED_MAYBE_LAST}), so that the caller reads the whole
     * batch's counts once in a while rather than after every item.
     *
     * @param reason why the item ended, which names its terminal state ({@link Reason#state})
     * @param detail what a person reads beside the reason; may be {@code null}
     */
    Ending finishItem(String batchId, String urlHash, Reason reason, String detail, Instant at);

    /** What {@link #finishItem} did. */
    enum Ending {
        /** The item ended now, and other items of its batch are known to be still queued. */
        ENDED,
        /** The item ended now, and may have been its batch's last queued item. */
        ENDED_MAYBE_LAST,
        /** The item had already ended, or does not exist: nothing was counted. */
        ALREADY_ENDED;

        /** Whether this call ended the item (false for a duplicate delivery). */
        public boolean ended() {
            return this != ALREADY_ENDED;
        }

        /**
         * Whether the batch's completion must be checked: after an item that may have been the last, and after a
         * repeated ending too, which may be the retry of a call that died between ending the last item and recording
         * the completion.
         */
        public boolean mayComplete() {
            return this != ENDED;
        }
    }

    /**
     * Lists a batch's items, a page at a time, optionally only those in one state. Pages may hold fewer than
     * {@code limit} items even when more follow; the last page has no cursor.
     *
     * @param cursor from the previous page, or empty for the first
     * @throws IllegalArgumentException for a cursor this store did not produce
     */
    ItemPage items(String batchId, Optional<ItemState> state, Optional<String> cursor, int limit);
}
