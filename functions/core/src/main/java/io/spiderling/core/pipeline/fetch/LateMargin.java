package io.spiderling.core.pipeline.fetch;

import java.time.Duration;

/**
 * How much earlier than the fetcher's own lead ({@code PageFetcher.lead()}) a fetcher takes its slots and hands its
 * requests to the fetcher, learnt from its late sends. A request is late when what happens between the slot's decision
 * and the fetcher's call (the rate item's write, a virtual thread woken on a busy core) takes longer than the lead: it
 * is not sent, and its next slot costs another write of the site's rate item. A late send doubles the margin (from
 * {@link #STEP}, up to {@link #MAX}); a send on time takes an eighth off it, so it fades once the fetcher keeps up. The
 * margin moves only when a request is handed over, not the slots' spacing, so the site sees the same intervals; it
 * costs the fetcher the wait.
 *
 * @param millis the margin, in milliseconds, from 0 to {@link #MAX}
 */
record LateMargin(long millis) {

    static final long STEP = 50;
    static final long MAX = 1_000;
    static final LateMargin NONE = new LateMargin(0);

    LateMargin {
        if (millis < 0 || millis > MAX) {
            throw new IllegalArgumentException("a late margin is 0 to " + MAX + " ms, not " + millis);
        }
    }

    /** After a request that missed its window. */
    LateMargin afterLate() {
        return new LateMargin(Math.min(MAX, Math.max(STEP, 2 * millis)));
    }

    /** After a request that went out in its window; below {@link #STEP} ÷ 5 it is gone. */
    LateMargin afterOnTime() {
        long next = millis - millis / 8;
        return new LateMargin(next < STEP / 5 ? 0 : next);
    }

    Duration duration() {
        return Duration.ofMillis(millis);
    }
}
