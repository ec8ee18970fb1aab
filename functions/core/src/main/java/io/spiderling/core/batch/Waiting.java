package io.spiderling.core.batch;

import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.url.SiteKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What an unfinished batch is waiting on, as {@link WaitingReasons} reads it from stored state: the whole batch (its
 * planning, the operators' kill switch) or one site the batch still has parked URLs on. Wire names are the API's
 * business; these are the kinds.
 */
public sealed interface Waiting {

    /** The site waited on; empty for a wait of the whole batch. */
    default Optional<SiteKey> site() {
        return Optional.empty();
    }

    /** When the wait may end; empty when nobody knows. */
    default Optional<Instant> until() {
        return Optional.empty();
    }

    /** The batch's URLs parked on the site (counted up to {@link WaitingReasons#COUNT_LIMIT}); 0 for a batch wait. */
    default int urls() {
        return 0;
    }

    /** An uploaded manifest is not planned yet: the total and the counts are still growing. */
    record Planning(int chunksPlanned, int chunks) implements Waiting {}

    /** The operators' kill switch is off: no site is contacted until it is on again. */
    record FetchingPaused() implements Waiting {}

    /**
     * The origin's robots.txt answered with an error or not at all, and no good copy stands in: its URLs wait for the
     * next try (RFC 9309 section 2.3.1.4), and fail as {@code robots-unreachable} after the policy's deadline.
     *
     * @param status the last try's HTTP status; empty when no answer came (a timeout, a refused connection)
     * @param failures tries in a row that failed
     */
    record RobotsUnreachable(SiteKey siteKey, RobotsOrigin origin, Optional<Integer> status, int failures,
            Instant nextTry, int urls) implements Waiting {
        public RobotsUnreachable {
            Objects.requireNonNull(status, "status");
        }

        @Override
        public Optional<SiteKey> site() {
            return Optional.of(siteKey);
        }

        @Override
        public Optional<Instant> until() {
            return Optional.of(nextTry);
        }

        /** Names each of the 6 parts where the value is made. */
        public static Builder builder() {
            return new Builder();
        }

        /** The parts by name; {@link #build} checks them as the constructor does. */
        public static final class Builder {
            private SiteKey siteKey;
            private RobotsOrigin origin;
            private Optional<Integer> status = Optional.empty();
            private int failures;
            private Instant nextTry;
            private int urls;

            private Builder() {}

            public Builder siteKey(SiteKey value) {
                siteKey = value;
                return this;
            }

            public Builder origin(RobotsOrigin value) {
                origin = value;
                return this;
            }

            public Builder status(Optional<Integer> value) {
                status = value;
                return this;
            }

            public Builder failures(int value) {
                failures = value;
                return this;
            }

            public Builder nextTry(Instant value) {
                nextTry = value;
                return this;
            }

            public Builder urls(int value) {
                urls = value;
                return this;
            }

            public RobotsUnreachable build() {
                return new RobotsUnreachable(siteKey, origin, status, failures, nextTry, urls);
            }
        }
    }

    /**
     * The site asked us to stay away (429, or a 5xx with Retry-After) or failed on several URLs in a row, and its
     * pause is not over.
     *
     * @param pausesInRow pauses since the site last answered properly, this one included
     * @param cause why the limiter paused it; empty when the stored cause is one this version cannot read
     */
    record Paused(SiteKey siteKey, Instant pausedUntil, int pausesInRow, Optional<PauseCause> cause, int urls)
            implements Waiting {
        public Paused {
            Objects.requireNonNull(cause, "cause");
        }

        @Override
        public Optional<SiteKey> site() {
            return Optional.of(siteKey);
        }

        @Override
        public Optional<Instant> until() {
            return Optional.of(pausedUntil);
        }
    }

    /**
     * The site's next slot is further away than a fetcher waits, because its interval is long (a crawl delay, an
     * override, or slowing down after throttling).
     *
     * @param interval the spacing between the site's requests now
     */
    record RateLimited(SiteKey siteKey, Instant nextSlot, Duration interval, int urls) implements Waiting {
        @Override
        public Optional<SiteKey> site() {
            return Optional.of(siteKey);
        }

        @Override
        public Optional<Instant> until() {
            return Optional.of(nextSlot);
        }
    }

    /**
     * URLs of the batch failed (5xx, a timeout, no connection) and wait for their next attempt.
     *
     * @param retrying how many of the site's parked URLs are retries
     * @param attempt the highest attempt number among them
     */
    record Retrying(SiteKey siteKey, int retrying, int attempt, Instant nextAttempt, int urls) implements Waiting {
        @Override
        public Optional<SiteKey> site() {
            return Optional.of(siteKey);
        }

        @Override
        public Optional<Instant> until() {
            return Optional.of(nextAttempt);
        }
    }
}
