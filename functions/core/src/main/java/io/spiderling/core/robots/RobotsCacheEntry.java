package io.spiderling.core.robots;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * What is known about one origin's robots.txt: the last good copy, if any, and the run of failures since. One item
 * per origin in the {@code sites} table; {@link RobotsPolicy#onFetched} makes every new value, so an adapter only
 * stores and loads it.
 *
 * <p>A <em>good copy</em> is the outcome of an attempt whose rules are defined ({@link AccessResult#SUCCESS} or
 * {@link AccessResult#UNAVAILABLE}). It is fresh until {@code freshUntil}; after that it must be fetched again, but it
 * stays usable in place of undefined rules for {@link RobotsPolicy.Settings#ttl()} after it was fetched, so that an
 * outage of robots.txt does not stop a site we already know the rules of.
 *
 * <p>{@code expiresAt} is the item's DynamoDB TTL, moved on at every attempt so that an idle origin disappears and an
 * origin that keeps failing keeps its failure clock. DynamoDB deletes expired items lazily, hours or days late, so
 * readers must check it themselves: {@link RobotsPolicy} treats an entry at or past {@code expiresAt} as absent.
 *
 * @param lastResult what the latest attempt meant
 * @param lastStatus the latest attempt's HTTP status; empty when no response arrived
 * @param attemptedAt when the latest attempt ended
 * @param fetchedAt when the good copy was fetched; empty when there is none
 * @param freshUntil when the good copy must be fetched again; present exactly when {@code fetchedAt} is
 * @param robotsGzip the good copy's text, as kept (see {@code truncated}), gzip-compressed; empty for a copy without
 *     rules (an unavailable robots.txt) and when there is no copy. Not copied: do not modify it
 * @param truncated the text was cut, at the parse limit or to fit the item size limit
 * @param consecutiveFailures undefined outcomes ({@link AccessResult#UNREACHABLE}) since the last defined one
 * @param firstFailureAt when the current run of failures began; present exactly when there are failures
 * @param nextRetryAt when robots.txt may be fetched again; present exactly when there are failures
 * @param crawlDelay the Crawl-delay the good copy asks of our agent, before any cap
 */
public record RobotsCacheEntry(RobotsOrigin origin, AccessResult lastResult, Optional<Integer> lastStatus,
        Instant attemptedAt, Optional<Instant> fetchedAt, Optional<Instant> freshUntil, Instant expiresAt,
        byte[] robotsGzip, boolean truncated, int consecutiveFailures, Optional<Instant> firstFailureAt,
        Optional<Instant> nextRetryAt, Optional<Duration> crawlDelay) {

    public RobotsCacheEntry {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(lastResult, "lastResult");
        Objects.requireNonNull(lastStatus, "lastStatus");
        Objects.requireNonNull(attemptedAt, "attemptedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(robotsGzip, "robotsGzip");
        Objects.requireNonNull(crawlDelay, "crawlDelay");
        if (fetchedAt.isPresent() != freshUntil.isPresent()) {
            throw new IllegalArgumentException("fetchedAt and freshUntil go together");
        }
        if (consecutiveFailures < 0) {
            throw new IllegalArgumentException("consecutiveFailures must not be negative, was " + consecutiveFailures);
        }
        boolean failing = consecutiveFailures > 0;
        if (firstFailureAt.isPresent() != failing || nextRetryAt.isPresent() != failing) {
            throw new IllegalArgumentException("firstFailureAt and nextRetryAt are present exactly when failing");
        }
        if ((lastResult == AccessResult.UNREACHABLE) != failing) {
            throw new IllegalArgumentException("only an unreachable last result counts as a failure");
        }
    }

    /** True when a good copy (rules, or none because robots.txt was unavailable) was ever kept. */
    public boolean hasCopy() {
        return fetchedAt.isPresent();
    }

    /** True at and after {@code expiresAt}: the entry counts as absent, stored or not. */
    public boolean expired(Instant now) {
        return !now.isBefore(expiresAt);
    }

    /** True while the good copy may be used without fetching robots.txt again. */
    public boolean fresh(Instant now) {
        return freshUntil.map(now::isBefore).orElse(false);
    }

    /** The good copy's text, decompressed; empty for a copy without rules and when there is no copy. */
    public String robotsText() {
        return RobotsText.utf8(RobotsText.gunzip(robotsGzip));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RobotsCacheEntry e
                && origin.equals(e.origin) && lastResult == e.lastResult && lastStatus.equals(e.lastStatus)
                && attemptedAt.equals(e.attemptedAt) && fetchedAt.equals(e.fetchedAt)
                && freshUntil.equals(e.freshUntil) && expiresAt.equals(e.expiresAt)
                && Arrays.equals(robotsGzip, e.robotsGzip) && truncated == e.truncated
                && consecutiveFailures == e.consecutiveFailures && firstFailureAt.equals(e.firstFailureAt)
                && nextRetryAt.equals(e.nextRetryAt) && crawlDelay.equals(e.crawlDelay);
    }

    @Override
    public int hashCode() {
        return Objects.hash(origin, lastResult, lastStatus, attemptedAt, fetchedAt, freshUntil, expiresAt,
                Arrays.hashCode(robotsGzip), truncated, consecutiveFailures, firstFailureAt, nextRetryAt, crawlDelay);
    }

    /** Leaves the body out: it can be hundreds of kilobytes. */
    @Override
    public String toString() {
        return "RobotsCacheEntry[origin=" + origin + ", lastResult=" + lastResult + ", lastStatus=" + lastStatus
                + ", attemptedAt=" + attemptedAt + ", fetchedAt=" + fetchedAt + ", freshUntil=" + freshUntil
                + ", expiresAt=" + expiresAt + ", robotsGzip=" + robotsGzip.length + " bytes, truncated=" + truncated
                + ", consecutiveFailures=" + consecutiveFailures + ", firstFailureAt=" + firstFailureAt
                + ", nextRetryAt=" + nextRetryAt + ", crawlDelay=" + crawlDelay + "]";
    }

    /** Names each of the 13 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this value's parts, to change some of them. */
    public Builder toBuilder() {
        return new Builder()
                .origin(origin)
                .lastResult(lastResult)
                .lastStatus(lastStatus)
                .attemptedAt(attemptedAt)
                .fetchedAt(fetchedAt)
                .freshUntil(freshUntil)
                .expiresAt(expiresAt)
                .robotsGzip(robotsGzip)
                .truncated(truncated)
                .consecutiveFailures(consecutiveFailures)
                .firstFailureAt(firstFailureAt)
                .nextRetryAt(nextRetryAt)
                .crawlDelay(crawlDelay);
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private RobotsOrigin origin;
        private AccessResult lastResult;
        private Optional<Integer> lastStatus = Optional.empty();
        private Instant attemptedAt;
        private Optional<Instant> fetchedAt = Optional.empty();
        private Optional<Instant> freshUntil = Optional.empty();
        private Instant expiresAt;
        private byte[] robotsGzip;
        private boolean truncated;
        private int consecutiveFailures;
        private Optional<Instant> firstFailureAt = Optional.empty();
        private Optional<Instant> nextRetryAt = Optional.empty();
        private Optional<Duration> crawlDelay = Optional.empty();

        private Builder() {}

        public Builder origin(RobotsOrigin value) {
            origin = value;
            return this;
        }

        public Builder lastResult(AccessResult value) {
            lastResult = value;
            return this;
        }

        public Builder lastStatus(Optional<Integer> value) {
            lastStatus = value;
            return this;
        }

        public Builder attemptedAt(Instant value) {
            attemptedAt = value;
            return this;
        }

        public Builder fetchedAt(Optional<Instant> value) {
            fetchedAt = value;
            return this;
        }

        public Builder freshUntil(Optional<Instant> value) {
            freshUntil = value;
            return this;
        }

        public Builder expiresAt(Instant value) {
            expiresAt = value;
            return this;
        }

        public Builder robotsGzip(byte[] value) {
            robotsGzip = value;
            return this;
        }

        public Builder truncated(boolean value) {
            truncated = value;
            return this;
        }

        public Builder consecutiveFailures(int value) {
            consecutiveFailures = value;
            return this;
        }

        public Builder firstFailureAt(Optional<Instant> value) {
            firstFailureAt = value;
            return this;
        }

        public Builder nextRetryAt(Optional<Instant> value) {
            nextRetryAt = value;
            return this;
        }

        public Builder crawlDelay(Optional<Duration> value) {
            crawlDelay = value;
            return this;
        }

        public RobotsCacheEntry build() {
            return new RobotsCacheEntry(origin, lastResult, lastStatus, attemptedAt, fetchedAt, freshUntil, expiresAt,
                    robotsGzip, truncated, consecutiveFailures, firstFailureAt, nextRetryAt, crawlDelay);
        }
    }
}
