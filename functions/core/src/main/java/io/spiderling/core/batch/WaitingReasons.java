package io.spiderling.core.batch;

import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.politeness.RateDecision;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.robots.RobotsVerdict;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a batch's URLs on one site wait, from what is stored about the site (its rate item, its origins' robots.txt
 * entries) and the batch's entries parked there. It asks the same decisions the fetcher asks ({@link RobotsPolicy},
 * {@link RateLimiter}), so what it says is what the fetcher would do now. Pure: no store, no clock.
 */
public final class WaitingReasons {

    /** The most parked entries of one batch and site read to count them: {@link Waiting#urls()} stops there. */
    public static final int COUNT_LIMIT = 100;

    /**
     * One site as stored.
     *
     * @param rate its rate item; empty for a site never fetched
     * @param robots the stored robots.txt entries of the batch's origins on the site (absent ones left out)
     */
    public record SiteState(SiteKey site, Optional<SiteRate> rate, List<RobotsCacheEntry> robots) {
        public SiteState {
            Objects.requireNonNull(site, "site");
            Objects.requireNonNull(rate, "rate");
            robots = List.copyOf(robots);
        }
    }

    /**
     * The batch's entries parked on one site, as far as read.
     *
     * @param urls parked entries (at most {@link #COUNT_LIMIT})
     * @param retrying those that failed before and are not due yet
     * @param maxAttempt the highest attempt among those
     * @param nextRetry the earliest of those is due then; empty when none
     */
    public record Parked(int urls, int retrying, int maxAttempt, Optional<Instant> nextRetry) {
        public static final Parked NONE = new Parked(0, 0, 0, Optional.empty());

        /** Summarizes the pending entries read at {@code now}. */
        public static Parked of(List<FrontierEntry> pending, Instant now) {
            List<FrontierEntry> retries = pending.stream()
                    .filter(e -> e.attempt() > 1 && e.notBefore().isAfter(now)).toList();
            return new Parked(pending.size(), retries.size(),
                    retries.stream().mapToInt(FrontierEntry::attempt).max().orElse(0),
                    retries.stream().map(FrontierEntry::notBefore).min(Comparator.naturalOrder()));
        }
    }

    private final RobotsPolicy robots;
    private final RateLimiter limiter;

    /** @param robots and @param limiter as the fetcher is configured, so that both decide alike */
    public WaitingReasons(RobotsPolicy robots, RateLimiter limiter) {
        this.robots = robots;
        this.limiter = limiter;
    }

    /**
     * Whether the site's stored state alone says its URLs wait or have failed lately: when a batch has more sites than
     * can be looked at, these are looked at first.
     */
    public boolean suspect(SiteState state, Instant now) {
        return robotsWait(state, now).isPresent() || rateWait(state, 0, now).isPresent()
                || state.rate().map(r -> !r.failing().isEmpty() || r.throttles() > 0).orElse(false);
    }

    /**
     * What the batch's URLs on the site wait for, the most telling reason first: robots.txt unreachable, then a
     * pause, then retries of failed URLs, then a long interval. Empty when none of the batch's URLs is parked there, or
     * nothing holds them (they go out as the site's rate allows).
     */
    public Optional<Waiting> of(SiteState state, Parked parked, Instant now) {
        if (parked.urls() == 0) {
            return Optional.empty();
        }
        Optional<Waiting> robotsWait = robotsWait(state, now).map(w -> withUrls(w, parked.urls()));
        if (robotsWait.isPresent()) {
            return robotsWait;
        }
        Optional<Waiting> rateWait = rateWait(state, parked.urls(), now);
        if (rateWait.orElse(null) instanceof Waiting.Paused) {
            return rateWait;
        }
        if (parked.retrying() > 0) {
            return Optional.of(new Waiting.Retrying(state.site(), parked.retrying(), parked.maxAttempt(),
                    parked.nextRetry().orElseThrow(), parked.urls()));
        }
        return rateWait;
    }

    /** The first origin whose robots.txt the policy would wait for now, with when it tries again. */
    private Optional<Waiting> robotsWait(SiteState state, Instant now) {
        for (RobotsCacheEntry entry : state.robots()) {
            if (robots.decide(Optional.of(entry), RequestUrl.parse(entry.origin().robotsUrl()), now) instanceof RobotsVerdict.Wait w) {
                return Optional.of(Waiting.RobotsUnreachable.builder().siteKey(state.site()).origin(entry.origin())
                        .status(entry.lastStatus()).failures(entry.consecutiveFailures()).nextTry(w.until()).urls(0)
                        .build());
            }
        }
        return Optional.empty();
    }

    private static Waiting withUrls(Waiting waiting, int urls) {
        return waiting instanceof Waiting.RobotsUnreachable r
                ? Waiting.RobotsUnreachable.builder().siteKey(r.siteKey()).origin(r.origin()).status(r.status())
                        .failures(r.failures()).nextTry(r.nextTry()).urls(urls).build()
                : waiting;
    }

    /** What the limiter would answer a fetcher asking for a slot now, when it would refuse for a while. */
    private Optional<Waiting> rateWait(SiteState state, int urls, Instant now) {
        if (state.rate().isEmpty()) {
            return Optional.empty();
        }
        SiteRate rate = state.rate().get();
        if (!(limiter.acquire(rate, now, 1) instanceof RateDecision.Refused refused)) {
            return Optional.empty();
        }
        return switch (refused.reason()) {
            case PAUSED -> Optional.of(new Waiting.Paused(state.site(), rate.pausedUntil(), rate.throttles(),
                    rate.pauseCause(), urls));
            case TOO_SOON -> Optional.of(new Waiting.RateLimited(state.site(),
                    refused.retryAt().plus(limiter.settings().admission().maxDelay()), limiter.interval(rate), urls));
            case IN_FLIGHT -> Optional.empty(); // busy fetching: not waiting
        };
    }
}
