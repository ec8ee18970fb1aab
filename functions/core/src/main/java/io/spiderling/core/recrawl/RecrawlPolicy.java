package io.spiderling.core.recrawl;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.fetch.FetchRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a stored copy is fresh enough to skip fetching a URL again. Only a successful fetch counts: a failed one is
 * retried whenever a batch asks for the URL. {@link Freshness} reads how caching headers move the window within
 * bounds; the fetch stage is still to store its result and use it here.
 */
public final class RecrawlPolicy {

    /** The window when a batch names none. */
    public static final Duration DEFAULT_WINDOW = Duration.ofHours(1);

    private RecrawlPolicy() {}

    /**
     * With a window the batch asked for, the copy is fresh for that long after its fetch; without one, until the
     * {@code freshUntil} its caching headers set (see {@link Freshness}), or the default window for a copy that has
     * none. A {@code not-modified} answer confirmed the copy, so it counts as a fetch.
     */
    public static boolean fresh(Optional<FetchRecord> last, Optional<Duration> batchWindow, Instant now) {
        Optional<FetchRecord> good = last.filter(f -> f.state() == ItemState.FETCHED
                || f.state() == ItemState.NOT_MODIFIED);
        if (good.isEmpty()) {
            return false;
        }
        Instant until = batchWindow.map(w -> good.get().fetchedAt().plus(w))
                .orElseGet(() -> good.get().freshUntil().orElse(good.get().fetchedAt().plus(DEFAULT_WINDOW)));
        return until.isAfter(now);
    }

    public static boolean fresh(Optional<FetchRecord> last, Duration window, Instant now) {
        return last.filter(f -> f.state() == ItemState.FETCHED)
                .filter(f -> f.fetchedAt().isAfter(now.minus(window)))
                .isPresent();
    }

    /**
     * The stored outcome when it was recorded since the batch was created: then it answers the batch's item, whatever
     * its state, rather than a freshness check. It is the batch's own fetch, recorded by an invocation that died (or
     * lost a reply) before ending the item, or (rarely) another batch's fetch that ended just after this batch was
     * created. Asking the site again would repeat a request whose answer is known; calling it a fresh copy would end
     * the item as {@code skipped} when the batch itself fetched it.
     */
    public static Optional<FetchRecord> recordedSince(Optional<FetchRecord> last, Instant batchCreatedAt) {
        return last.filter(r -> !r.fetchedAt().isBefore(batchCreatedAt));
    }
}
