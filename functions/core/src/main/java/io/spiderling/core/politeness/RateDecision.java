package io.spiderling.core.politeness;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** What {@link RateLimiter#acquire} decided: slots to fetch at, or when to ask again. */
public sealed interface RateDecision {

    /**
     * Fetch at these slots, one URL each, earliest first; there is at least one and at most as many as were asked
     * for. Store {@code next} (conditionally on the version read) before fetching: a slot is only taken once written.
     *
     * @param opens when the first slot's request may be written at the earliest: the first slot itself, or earlier
     *     when the slots were asked for with a lead ({@link RateLimiter#acquire(SiteRate, Instant, java.time.Duration,
     *     int)}) and the site was free before; every later slot's request waits for its slot
     */
    record Granted(List<Instant> slots, Instant opens, SiteRate next) implements RateDecision {
        public Granted {
            slots = List.copyOf(slots);
            if (slots.isEmpty()) {
                throw new IllegalArgumentException("a grant has at least one slot");
            }
            Objects.requireNonNull(opens, "opens");
            if (opens.isAfter(slots.getFirst())) {
                throw new IllegalArgumentException("the first slot's window opens at " + opens + ", after the slot "
                        + slots.getFirst());
            }
            Objects.requireNonNull(next, "next");
        }

        /** Granted {@code slots}, each request waiting for its own slot. */
        public Granted(List<Instant> slots, SiteRate next) {
            this(slots, slots.isEmpty() ? Instant.MIN : slots.getFirst(), next);
        }
    }

    /**
     * No slot now: park the URL until {@code retryAt}. Nothing is to be written; {@code state} is the state read.
     */
    record Refused(Instant retryAt, Reason reason, SiteRate state) implements RateDecision {
        public Refused {
            Objects.requireNonNull(retryAt, "retryAt");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(state, "state");
        }
    }

    /** Why a slot was refused, for logs and metrics. */
    enum Reason {
        /** The next slot is more than the maximum delay away. */
        TOO_SOON("too-soon"),
        /** The site asked us to stay away (429/503) and the pause is not over. */
        PAUSED("paused"),
        /** The site already has its maximum of fetches in flight. */
        IN_FLIGHT("in-flight");

        private final String wireName;

        Reason(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }
}
