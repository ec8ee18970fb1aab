package io.spiderling.core.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand; a pause that "sleeps" by moving it. */
public final class TestClock extends Clock {

    private Instant now;

    public TestClock(Instant start) {
        this.now = start;
    }

    public synchronized void advance(Duration by) {
        now = now.plus(by);
    }

    public synchronized void set(Instant to) {
        now = to;
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }

    /** Moves the clock forward to {@code when}, as sleeping until then would. */
    public synchronized void sleepUntil(Instant when) {
        if (when.isAfter(now)) {
            now = when;
        }
    }
}
