package io.spiderling.core.politeness;

import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.politeness.RetryDecision.Done;
import io.spiderling.core.politeness.RetryDecision.GiveUp;
import io.spiderling.core.politeness.RetryDecision.Retry;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a URL whose fetch failed is fetched again, and when. Retries go back through the frontier with a due time,
 * never through a sleeping fetcher or the queue's redelivery, so the attempt count lives with the URL.
 *
 * <p><b>What is retried.</b> Server errors (5xx), timeouts (408 included) and failures to connect, resolve, shake
 * hands or read get {@code maxAttempts} attempts in all (3), then end as failed with the last error. A name that does
 * not resolve is usually permanent, but resolvers also fail briefly, and two more lookups cost the site nothing.
 * Other 4xx end at once: asking again gets the same answer, and so does a request the fetcher refused
 * ({@link FetchOutcome#BLOCKED}). Throttling (429, or a 5xx with Retry-After; see {@link FetchOutcome}) is not
 * failure: it counts as attempts on the same counter but is allowed up to {@code maxThrottledAttempts} (5), because a
 * busy site that says "later" usually means it. So two timeouts and then a 429 are retried, and two 429s and then a
 * 500 are not.
 *
 * <p><b>When.</b> Exponential backoff with "equal jitter": after attempt n the nominal delay is
 * {@code d = min(maxBackoff, backoffBase × backoffMultiplier^(n−1))} (5 s, then 20 s by default: a batch holding a
 * persistently failing URL ends about half a minute after its last good page) and the retry waits
 * {@code d/2 + jitter × d/2}. Half the delay is guaranteed, so a failing site is never hit again at once
 * (full jitter can pick zero), and the other half spreads the retries of the many URLs one outage failed together. A
 * readable {@code Retry-After} is honoured as a lower bound, capped at {@code maxRetryAfter} and stretched by up to
 * {@code retryAfterJitter} of itself. Rate refusals are not attempts and never reach this policy.
 */
public final class RetryPolicy {

    /**
     * @param maxAttempts attempts in all for errors (the design's 3)
     * @param maxThrottledAttempts attempts in all when the last answer was 429/503
     * @param backoffBase the nominal delay after the first attempt
     * @param backoffMultiplier the growth of the nominal delay per attempt
     * @param maxBackoff the longest nominal delay
     * @param maxRetryAfter the longest Retry-After honoured
     * @param retryAfterJitter the fraction of a Retry-After added at random, in [0, 1]
     */
    public record Settings(int maxAttempts, int maxThrottledAttempts, Duration backoffBase, int backoffMultiplier,
            Duration maxBackoff, Duration maxRetryAfter, double retryAfterJitter) {

        public static final Settings DEFAULTS = new Settings(3, 5, Duration.ofSeconds(5), 4, Duration.ofHours(1),
                Duration.ofMinutes(10), 0.1);

        public Settings {
            if (maxAttempts < 1 || maxThrottledAttempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1, were " + maxAttempts + " and "
                        + maxThrottledAttempts);
            }
            Objects.requireNonNull(backoffBase, "backoffBase");
            Objects.requireNonNull(maxBackoff, "maxBackoff");
            Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
            if (backoffBase.isNegative() || backoffBase.isZero() || maxBackoff.compareTo(backoffBase) < 0
                    || maxRetryAfter.isNegative()) {
                throw new IllegalArgumentException("need 0 < backoffBase <= maxBackoff and maxRetryAfter >= 0, were "
                        + backoffBase + ", " + maxBackoff + ", " + maxRetryAfter);
            }
            if (backoffMultiplier < 1) {
                throw new IllegalArgumentException("backoffMultiplier must be at least 1, was " + backoffMultiplier);
            }
            if (!(retryAfterJitter >= 0 && retryAfterJitter <= 1)) {
                throw new IllegalArgumentException("retryAfterJitter must be in [0, 1], was " + retryAfterJitter);
            }
        }

        /** These settings with {@code backoffBase} changed. */
        public Settings withBackoffBase(Duration value) {
            return new Settings(maxAttempts, maxThrottledAttempts, value, backoffMultiplier, maxBackoff, maxRetryAfter,
                    retryAfterJitter);
        }

        /** Names each of the 7 parts where the value is made. */
        public static Builder builder() {
            return new Builder();
        }

        /** The parts by name; {@link #build} checks them as the constructor does. */
        public static final class Builder {
            private int maxAttempts;
            private int maxThrottledAttempts;
            private Duration backoffBase;
            private int backoffMultiplier;
            private Duration maxBackoff;
            private Duration maxRetryAfter;
            private double retryAfterJitter;

            private Builder() {}

            public Builder maxAttempts(int value) {
                maxAttempts = value;
                return this;
            }

            public Builder maxThrottledAttempts(int value) {
                maxThrottledAttempts = value;
                return this;
            }

            public Builder backoffBase(Duration value) {
                backoffBase = value;
                return this;
            }

            public Builder backoffMultiplier(int value) {
                backoffMultiplier = value;
                return this;
            }

            public Builder maxBackoff(Duration value) {
                maxBackoff = value;
                return this;
            }

            public Builder maxRetryAfter(Duration value) {
                maxRetryAfter = value;
                return this;
            }

            public Builder retryAfterJitter(double value) {
                retryAfterJitter = value;
                return this;
            }

            public Settings build() {
                return new Settings(maxAttempts, maxThrottledAttempts, backoffBase, backoffMultiplier, maxBackoff,
                        maxRetryAfter, retryAfterJitter);
            }
        }
    }

    private final Settings settings;

    private RetryPolicy(Settings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public static RetryPolicy create() {
        return new RetryPolicy(Settings.DEFAULTS);
    }

    public static RetryPolicy create(Settings settings) {
        return new RetryPolicy(settings);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Decides about a fetch result, reading its Retry-After. A give-up's reason is the error as the fetch stage
     * records it ({@code "http 500"}, {@code "timeout: <message>"}).
     *
     * @param attempt the attempt that produced the result, 1 for the first
     * @param jitter uniformly random in [0, 1)
     */
    public RetryDecision decide(FetchResult result, int attempt, Instant now, double jitter) {
        return switch (result) {
            case FetchResult.Response r -> decide(FetchOutcome.of(r), attempt, now, jitter,
                    RetryAfter.parse(r.headers().get("retry-after"), now), "http " + r.status());
            case FetchResult.Failure f -> decide(FetchOutcome.of(f), attempt, now, jitter,
                    Optional.empty(), f.describe());
        };
    }

    /**
     * Decides about an outcome. A give-up's reason is the outcome's wire name ({@code "server-error"}).
     *
     * @param attempt the attempt that produced the outcome, 1 for the first
     * @param jitter uniformly random in [0, 1)
     * @param retryAfter the wait the answer asked for (see {@link RetryAfter}); empty when absent or unreadable
     */
    public RetryDecision decide(FetchOutcome outcome, int attempt, Instant now, double jitter,
            Optional<Duration> retryAfter) {
        return decide(outcome, attempt, now, jitter, retryAfter, outcome.wireName());
    }

    /**
     * The wait after attempt {@code attempt} without a Retry-After: equal jitter over the nominal delay.
     *
     * @param jitter uniformly random in [0, 1)
     */
    public Duration backoff(int attempt, double jitter) {
        requireAttempt(attempt);
        Jitter.require(jitter);
        Duration nominal = settings.backoffBase();
        for (int i = 1; i < attempt && nominal.compareTo(settings.maxBackoff()) < 0; i++) {
            nominal = nominal.multipliedBy(settings.backoffMultiplier());
        }
        long millis = Math.min(nominal.toMillis(), settings.maxBackoff().toMillis());
        return Duration.ofMillis(millis / 2 + Math.round(jitter * (millis - millis / 2)));
    }

    private RetryDecision decide(FetchOutcome outcome, int attempt, Instant now, double jitter,
            Optional<Duration> retryAfter, String error) {
        requireAttempt(attempt);
        Jitter.require(jitter);
        if (outcome == FetchOutcome.OK) {
            return new Done();
        }
        if (!outcome.retryable()) {
            return new GiveUp(error);
        }
        int allowed = outcome == FetchOutcome.THROTTLED ? settings.maxThrottledAttempts() : settings.maxAttempts();
        if (attempt >= allowed) {
            return new GiveUp(error + " after " + attempt + (attempt == 1 ? " attempt" : " attempts"));
        }
        Duration wait = backoff(attempt, jitter);
        if (retryAfter.isPresent()) {
            Duration capped = retryAfter.get().compareTo(settings.maxRetryAfter()) < 0 ? retryAfter.get()
                    : settings.maxRetryAfter();
            long asked = capped.isNegative() ? 0 : capped.toMillis();
            Duration honoured = Duration.ofMillis(Math.round(asked * (1 + settings.retryAfterJitter() * jitter)));
            wait = honoured.compareTo(wait) > 0 ? honoured : wait;
        }
        return new Retry(now.plus(wait), attempt + 1);
    }

    private static void requireAttempt(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
        }
    }
}
