package io.spiderling.core.quota;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Whether {@code requested} more URLs fit in a client's day: the pure decision, with the time passed in. A limit of 0
 * is no limit. A day is a UTC day, and its quota resets at the next UTC midnight, whatever the client's time zone.
 */
public final class Quota {

    private Quota() {}

    /** What a client may still do today. */
    public sealed interface Decision {

        /** No limit applies: nothing is counted. */
        record Unlimited() implements Decision {}

        /** @param used the day's count with the requested URLs */
        record Allowed(long limit, long used, Instant resetAt) implements Decision {}

        /**
         * Nothing is counted. {@code retryAfter} is how long until the day's count starts again, in whole seconds
         * rounded up, for an HTTP {@code Retry-After}.
         */
        record OverQuota(long limit, long used, long requested, Instant resetAt, Duration retryAfter)
                implements Decision {

            /** Said to the caller: what was asked, what is left, and when it resets. */
            public String reason() {
                return "quota exceeded: " + requested + " URLs asked, " + Math.max(0, limit - used) + " of "
                        + limit + " left today (UTC); resets at " + resetAt;
            }
        }
    }

    /** The UTC day of {@code now}. */
    public static LocalDate day(Instant now) {
        return LocalDate.ofInstant(now, ZoneOffset.UTC);
    }

    /** The next UTC midnight after {@code now}: when the day's count starts again. */
    public static Instant resetAt(Instant now) {
        return day(now).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /**
     * The decision for {@code requested} URLs with {@code used} already counted today under {@code limit}.
     *
     * @throws IllegalArgumentException for a negative limit, count or request
     */
    public static Decision decide(long limit, long used, long requested, Instant now) {
        if (limit < 0 || used < 0 || requested < 0) {
            throw new IllegalArgumentException("limit, used and requested must not be negative");
        }
        if (limit == 0) {
            return new Decision.Unlimited();
        }
        Instant reset = resetAt(now);
        if (requested <= limit - used) {
            return new Decision.Allowed(limit, used + requested, reset);
        }
        long seconds = Duration.between(now, reset).plusNanos(999_999_999).truncatedTo(ChronoUnit.SECONDS)
                .getSeconds();
        return new Decision.OverQuota(limit, used, requested, reset, Duration.ofSeconds(Math.max(1, seconds)));
    }
}
