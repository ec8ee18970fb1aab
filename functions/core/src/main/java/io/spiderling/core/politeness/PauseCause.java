package io.spiderling.core.politeness;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Why {@link RateLimiter} paused a site: the two ways it does, with what it knew when it did. Kept in the rate state
 * next to {@link SiteRate#pausedUntil()}, and written in the same conditional write, so that a report can say
 * "paused by 429" rather than "paused". It names the pause that ends last: a pause that does not extend the one in
 * place leaves its cause alone too.
 */
public sealed interface PauseCause {

    /**
     * The site asked us to slow down: a 429, or a 5xx with a Retry-After.
     *
     * @param status the HTTP status of the answer
     * @param retryAfter the wait it asked for, as read (before the cap and the jitter); empty when absent or
     *     unreadable, so the limiter's own backoff decided the pause
     */
    record Throttled(int status, Optional<Duration> retryAfter) implements PauseCause {
        public Throttled {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }

    /**
     * Different URLs of the site failed in a row with no proper answer in between (ADR 8).
     *
     * @param urls how many different URLs failed
     * @param last how the last of them failed: a server error without Retry-After, or no answer
     */
    record Failures(int urls, FetchOutcome last) implements PauseCause {
        public Failures {
            Objects.requireNonNull(last, "last");
            if (urls < 1) {
                throw new IllegalArgumentException("urls must be at least 1, was " + urls);
            }
        }
    }
}
