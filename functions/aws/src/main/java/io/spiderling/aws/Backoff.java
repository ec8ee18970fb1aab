package io.spiderling.aws;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How long to wait before trying a DynamoDB call again that the table pushed back on (a transaction conflict,
 * unprocessed batch writes): a ceiling that starts at {@code firstMillis} and doubles with each attempt up to
 * {@code maxMillis}, and a pause drawn between half the ceiling and the ceiling, so that writers who collided do not
 * collide again in step. The pause itself is a {@link Sleeper}, so a test can count pauses instead of waiting them.
 */
final class Backoff {

    /** Waits; a test passes one that records instead. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final long firstMillis;
    private final long maxMillis;
    private final Sleeper sleeper;

    Backoff(long firstMillis, long maxMillis, Sleeper sleeper) {
        if (firstMillis < 1 || maxMillis < firstMillis) {
            throw new IllegalArgumentException("backoff of " + firstMillis + " to " + maxMillis + " ms");
        }
        this.firstMillis = firstMillis;
        this.maxMillis = maxMillis;
        this.sleeper = sleeper;
    }

    /** A backoff that sleeps the calling thread. */
    static Backoff sleeping(long firstMillis, long maxMillis) {
        return new Backoff(firstMillis, maxMillis, Thread::sleep);
    }

    /** The longest pause after failed attempt {@code attempt} (1 for the first). */
    long ceilingMillis(int attempt) {
        int doublings = Math.min(attempt - 1, Long.numberOfLeadingZeros(firstMillis) - 1);
        return Math.min(maxMillis, firstMillis << doublings);
    }

    /**
     * Pauses after failed attempt {@code attempt}.
     *
     * @param retrying what is being retried, for the exception when the pause is interrupted
     */
    void pause(int attempt, String retrying) {
        long ceiling = ceilingMillis(attempt);
        try {
            sleeper.sleep(ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying " + retrying, e);
        }
    }
}
