package io.spiderling.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How slowly {@link LocalSites} answer: a wait before the status line (time to first byte), then the body written at a
 * fixed rate, as a server across a network would. Opt-in; {@link #NONE} answers at once.
 *
 * @param firstByte the wait before the status line, for every response (robots.txt, 304s and 404s included)
 * @param bytesPerSecond the body's transfer rate; 0 writes it at once
 */
public record SiteLatency(Duration firstByte, long bytesPerSecond) {

    public static final SiteLatency NONE = new SiteLatency(Duration.ZERO, 0);

    /** Writes in slices this big, so a page of tens of KiB is paced in several steps rather than one. */
    private static final int SLICE = 8 * 1024;

    public SiteLatency {
        if (firstByte.isNegative() || bytesPerSecond < 0) {
            throw new IllegalArgumentException("latency must not be negative: " + firstByte + ", " + bytesPerSecond);
        }
    }

    /** {@code millis} to the first byte, then {@code megabytesPerSecond} × 10⁶ bytes a second. */
    public static SiteLatency of(long millis, double megabytesPerSecond) {
        return new SiteLatency(Duration.ofMillis(millis), Math.round(megabytesPerSecond * 1_000_000));
    }

    void awaitFirstByte() {
        sleepNanos(firstByte.toNanos());
    }

    /** Writes {@code body}, no faster than the rate allows counting from the call. */
    void write(OutputStream out, byte[] body) throws IOException {
        if (bytesPerSecond == 0) {
            out.write(body);
            return;
        }
        long start = System.nanoTime();
        for (int from = 0; from < body.length; from += SLICE) {
            int length = Math.min(SLICE, body.length - from);
            out.write(body, from, length);
            out.flush();
            long due = start + TimeUnit.SECONDS.toNanos(from + length) / bytesPerSecond;
            sleepNanos(due - System.nanoTime());
        }
    }

    private static void sleepNanos(long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            Thread.sleep(Duration.ofNanos(nanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
