package io.spiderling.core.notify;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a running batch's progress reports are due: report n at {@code createdAt + n × interval}. The times are
 * counted from the batch's creation, not from the previous report, so a late report does not push every later one
 * back, and a report computed twice (a retried message) lands on the same time and sequence number.
 *
 * <p>The notify function waits for a report with a delayed queue message. A message can wait at most 15 minutes
 * (SQS {@code DelaySeconds} ≤ 900), so {@link #delayUntil} never asks for more; a report further away than that is
 * reached by re-sending the message when it arrives, until the delay is zero.
 *
 * @param interval time between reports, from 1 s to 15 min
 * @param createdAt when the batch was accepted
 */
public record ProgressSchedule(Duration interval, Instant createdAt) {

    public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
    public static final Duration MAX_INTERVAL = Duration.ofMinutes(15);
    /** The longest delay one queue message can carry. */
    public static final Duration MAX_DELAY = Duration.ofSeconds(900);

    public ProgressSchedule {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(createdAt, "createdAt");
        if (interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("progress interval must be from " + MIN_INTERVAL + " to "
                    + MAX_INTERVAL + ", was " + interval);
        }
    }

    /**
     * When report {@code n} is due.
     *
     * @param n 1 for the first report
     */
    public Instant due(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("sequence must be at least 1, was " + n);
        }
        return createdAt.plus(interval.multipliedBy(n));
    }

    /**
     * How long a message for report {@code n} sent at {@code now} should wait: zero when the report is already due,
     * at most {@link #MAX_DELAY}, and rounded up to whole seconds because that is what a queue delay takes (a report
     * a fraction of a second late is harmless; one that arrives early would need another round trip).
     */
    public Duration delayUntil(long n, Instant now) {
        Objects.requireNonNull(now, "now");
        Duration delay = Duration.between(now, due(n));
        if (delay.isNegative() || delay.isZero()) {
            return Duration.ZERO;
        }
        if (delay.compareTo(MAX_DELAY) >= 0) {
            return MAX_DELAY;
        }
        return Duration.ofSeconds(delay.getSeconds() + (delay.getNano() > 0 ? 1 : 0));
    }
}
