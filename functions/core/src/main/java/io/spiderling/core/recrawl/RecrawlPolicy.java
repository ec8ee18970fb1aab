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

    public static boolean fresh(Optional<FetchRecord> last, Duration window, Instant now) {
        return last.filter(f -> f.state() == ItemState.FETCHED)
                .filter(f -> f.fetchedAt().isAfter(now.minus(window)))
                .isPresent();
    }
}
