package io.spiderling.core.sitemap;

import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.recrawl.RecrawlPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a sitemap entry need not be fetched because the copy Spiderling holds already has what its {@code lastmod}
 * announces (ADR 19): the copy is fresh by {@link RecrawlPolicy#fresh(Optional, Optional, Instant)}, the rule every
 * URL of a batch goes by, and was fetched at or after the {@code lastmod}. Without a {@code lastmod}, or without a
 * stored copy, nothing is skipped here; the batch's own freshness rule still applies to the entry as to any URL.
 *
 * <p>A {@code lastmod} is the site's word, so it can only make a fetch happen sooner, never later: a copy that is
 * stale by the batch's rule is fetched again whatever the {@code lastmod} says, and a {@code lastmod} after the fetch
 * means the page changed since.
 */
public final class LastmodSkip {

    private LastmodSkip() {}

    /**
     * @param lastmod the entry's {@code lastmod}
     * @param stored the last fetch of the entry's URL
     * @param batchWindow the freshness window the batch asked for, if any
     * @param now the time of the decision
     */
    public static boolean skip(Optional<Instant> lastmod, Optional<FetchRecord> stored, Optional<Duration> batchWindow,
            Instant now) {
        if (lastmod.isEmpty() || stored.isEmpty() || !RecrawlPolicy.fresh(stored, batchWindow, now)) {
            return false;
        }
        return !stored.get().fetchedAt().isBefore(lastmod.get());
    }
}
