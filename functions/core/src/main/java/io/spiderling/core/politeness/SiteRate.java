package io.spiderling.core.politeness;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One site's rate state: what the DynamoDB rate item holds, and all that {@link RateLimiter} needs to decide.
 *
 * <p>Every field is a plain value (instants and durations to the millisecond in storage), so an adapter can map it
 * to attributes one to one. Transitions return a new state with a higher {@code version}; the adapter writes it on
 * the condition that the stored version still equals the one it read, and re-reads on a conflict.
 *
 * @param lastSlot the latest slot granted (Aragog's {@code lastScheduledFetchTime}); the epoch for a new site
 * @param interval the spacing the site has earned: the base, or more after throttling; never below the base
 * @param baseInterval the spacing of a well-behaved site: the configured or overridden interval, raised to the
 *     robots.txt crawl delay (see {@link RateLimiter#baseInterval})
 * @param pausedUntil no slot is granted before this (a 429/503 pause); the epoch when there is none
 * @param pauseCause why the limiter set {@code pausedUntil}; empty when it never did (or, as its adapter reads it,
 *     when the stored cause is one this version cannot read)
 * @param throttles 429/503 answers since the last successful one
 * @param successes successful answers since the interval last changed, counted up to the number that restores it
 * @param responseTime smoothed (EWMA) fetch duration; zero before the first answer
 * @param inFlight the granted slots not yet released, earliest first; each is a lease that lapses on its own
 *     ({@link RateLimiter.Settings#lease()} after the slot), so a crashed fetcher cannot hold a place forever
 * @param failing the URLs (by hash) that failed since the site last answered properly, each once, oldest first: the
 *     evidence that pauses a site ({@link RateLimiter.Settings#failuresToPause()} different URLs in a row)
 * @param version 0 for a new site, higher after every change
 */
public record SiteRate(Instant lastSlot, Duration interval, Duration baseInterval, Instant pausedUntil,
        Optional<PauseCause> pauseCause, int throttles, int successes, Duration responseTime, List<Instant> inFlight,
        List<String> failing, long version) {

    public SiteRate {
        Objects.requireNonNull(lastSlot, "lastSlot");
        Objects.requireNonNull(pausedUntil, "pausedUntil");
        Objects.requireNonNull(pauseCause, "pauseCause");
        requirePositive(baseInterval, "baseInterval");
        requirePositive(interval, "interval");
        Objects.requireNonNull(responseTime, "responseTime");
        if (responseTime.isNegative()) {
            throw new IllegalArgumentException("responseTime must not be negative, was " + responseTime);
        }
        if (throttles < 0 || successes < 0 || version < 0) {
            throw new IllegalArgumentException(
                    "counts must not be negative: throttles " + throttles + ", successes " + successes
                            + ", version " + version);
        }
        List<Instant> sorted = new ArrayList<>(inFlight);
        sorted.sort(null);
        inFlight = List.copyOf(sorted);
        failing = List.copyOf(failing);
    }

    /** The next state: these fields, with what a {@link Change} sets, and the version one higher. */
    public SiteRate next(Consumer<Change> change) {
        Change c = new Change(this);
        change.accept(c);
        return new SiteRate(c.lastSlot, c.interval, baseInterval, c.pausedUntil, c.pauseCause, c.throttles,
                c.successes, c.responseTime, c.inFlight, c.failing, version + 1);
    }

    /** The fields a transition may set; those it leaves alone keep their value. */
    public static final class Change {
        private Instant lastSlot;
        private Duration interval;
        private Instant pausedUntil;
        private Optional<PauseCause> pauseCause;
        private int throttles;
        private int successes;
        private Duration responseTime;
        private List<Instant> inFlight;
        private List<String> failing;

        private Change(SiteRate from) {
            lastSlot = from.lastSlot;
            interval = from.interval;
            pausedUntil = from.pausedUntil;
            pauseCause = from.pauseCause;
            throttles = from.throttles;
            successes = from.successes;
            responseTime = from.responseTime;
            inFlight = from.inFlight;
            failing = from.failing;
        }

        public Change lastSlot(Instant v) {
            lastSlot = v;
            return this;
        }

        public Change interval(Duration v) {
            interval = v;
            return this;
        }

        /** A pause until {@code until}, for {@code cause}: both at once, so a pause never goes without its cause. */
        public Change pause(Instant until, PauseCause cause) {
            pausedUntil = until;
            pauseCause = Optional.of(cause);
            return this;
        }

        public Change throttles(int v) {
            throttles = v;
            return this;
        }

        public Change successes(int v) {
            successes = v;
            return this;
        }

        public Change responseTime(Duration v) {
            responseTime = v;
            return this;
        }

        public Change inFlight(List<Instant> v) {
            inFlight = v;
            return this;
        }

        public Change failing(List<String> v) {
            failing = v;
            return this;
        }
    }

    /** A site never fetched: the first slot is now, nothing in flight. */
    public static SiteRate initial(Duration baseInterval) {
        return new SiteRate(Instant.EPOCH, baseInterval, baseInterval, Instant.EPOCH, Optional.empty(), 0, 0,
                Duration.ZERO, List.of(), List.of(), 0);
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }

    /** Names each of the 11 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this value's parts, to change some of them. */
    public Builder toBuilder() {
        return new Builder()
                .lastSlot(lastSlot)
                .interval(interval)
                .baseInterval(baseInterval)
                .pausedUntil(pausedUntil)
                .pauseCause(pauseCause)
                .throttles(throttles)
                .successes(successes)
                .responseTime(responseTime)
                .inFlight(inFlight)
                .failing(failing)
                .version(version);
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private Instant lastSlot;
        private Duration interval;
        private Duration baseInterval;
        private Instant pausedUntil;
        private Optional<PauseCause> pauseCause = Optional.empty();
        private int throttles;
        private int successes;
        private Duration responseTime;
        private List<Instant> inFlight = List.of();
        private List<String> failing = List.of();
        private long version;

        private Builder() {}

        public Builder lastSlot(Instant value) {
            lastSlot = value;
            return this;
        }

        public Builder interval(Duration value) {
            interval = value;
            return this;
        }

        public Builder baseInterval(Duration value) {
            baseInterval = value;
            return this;
        }

        public Builder pausedUntil(Instant value) {
            pausedUntil = value;
            return this;
        }

        public Builder pauseCause(Optional<PauseCause> value) {
            pauseCause = value;
            return this;
        }

        public Builder throttles(int value) {
            throttles = value;
            return this;
        }

        public Builder successes(int value) {
            successes = value;
            return this;
        }

        public Builder responseTime(Duration value) {
            responseTime = value;
            return this;
        }

        public Builder inFlight(List<Instant> value) {
            inFlight = value;
            return this;
        }

        public Builder failing(List<String> value) {
            failing = value;
            return this;
        }

        public Builder version(long value) {
            version = value;
            return this;
        }

        public SiteRate build() {
            return new SiteRate(lastSlot, interval, baseInterval, pausedUntil, pauseCause, throttles, successes,
                    responseTime, inFlight, failing, version);
        }
    }
}
