package io.spiderling.core.fetch;

import java.util.Objects;
import java.time.Instant;

/**
 * When a request may be written to the connection: from its rate slot ({@code from}) until the end of the slot's
 * window ({@code by}), by the clock the fetcher is given. A fetcher called early holds the request until {@code from};
 * one that gets to the write after {@code by} sends nothing and returns a {@link FailureKind#LATE} failure. So the
 * site sees the request within the window, however busy the fetcher was, and the next slot's request an interval after
 * the window (see {@code RateLimiter}).
 */
public record SendWindow(Instant from, Instant by) {

    public SendWindow {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(by, "by");
        if (by.isBefore(from)) {
            throw new IllegalArgumentException("a send window ends (" + by + ") before it opens (" + from + ")");
        }
    }
}
