package io.spiderling.local.cost;

import java.time.Duration;
import java.time.Instant;

/**
 * One limit's state in the scale model ({@link ScaleModel}): request units that refill at {@link Limit#perSecond()}
 * and save up to {@link Limit#burst()} (DynamoDB keeps up to 300 s of a partition's unused capacity for bursts). A
 * call is admitted while the bucket holds any units, and charged what it was billed after it ran, so the bucket can
 * go into debt: DynamoDB does not know a call's units before it runs either, and a debt throttles the calls that
 * follow until the refill pays it back. Pure: every decision is a function of the state, the limit and the time.
 *
 * @param units the units available now (negative: in debt)
 * @param at when {@code units} was worked out
 */
public record TokenBucket(double units, Instant at) {

    /**
     * @param perSecond the units a second the limit allows
     * @param burstSeconds how many seconds of unused units the bucket saves
     * @param startSeconds how many seconds of units a new bucket holds: a new key has saved nothing up yet
     */
    public record Limit(double perSecond, double burstSeconds, double startSeconds) {
        public double burst() {
            return perSecond * burstSeconds;
        }

        /** This limit divided by {@code n}, burst and start still in seconds. */
        public Limit scaledDown(double n) {
            return new Limit(perSecond / n, burstSeconds, startSeconds);
        }
    }

    /** A bucket first used at {@code now}. */
    public static TokenBucket start(Limit limit, Instant now) {
        return new TokenBucket(limit.perSecond() * limit.startSeconds(), now);
    }

    /** The bucket at {@code now}: refilled for the time since {@link #at}, up to the burst. */
    public TokenBucket refill(Limit limit, Instant now) {
        if (!now.isAfter(at)) {
            return this;
        }
        double seconds = Duration.between(at, now).toNanos() / 1e9;
        return new TokenBucket(Math.min(limit.burst(), units + seconds * limit.perSecond()), now);
    }

    /** Whether a call at {@code now} is admitted: the refilled bucket holds some units. */
    public boolean admits(Limit limit, Instant now) {
        return refill(limit, now).units() > 0;
    }

    /** The bucket after a call billed {@code charged} units at {@code now}. */
    public TokenBucket charge(Limit limit, double charged, Instant now) {
        TokenBucket refilled = refill(limit, now);
        return new TokenBucket(refilled.units() - charged, refilled.at());
    }
}
