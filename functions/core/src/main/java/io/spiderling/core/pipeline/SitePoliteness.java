package io.spiderling.core.pipeline;

import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.politeness.RateDecision;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsFetchOutcome;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.robots.RobotsVerdict;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.function.UnaryOperator;

/**
 * The gate every request to a site passes: robots.txt first (fetched when the cache has no usable copy, which itself
 * takes a slot of the site's rate), then a slot from the site's rate item. The decisions are the pure
 * {@link RobotsPolicy} and {@link RateLimiter}; this class reads their state, writes it back conditionally and waits
 * for a granted slot, which the limiter keeps within a second.
 */
public final class SitePoliteness {

    /** Re-reads after a lost conditional write; each loser sees a newer state, so a few suffice. */
    private static final int RATE_ATTEMPTS = 10;

    /** Blocks until an instant; a test passes one that moves its clock instead. */
    @FunctionalInterface
    public interface Pause {
        void until(Instant when);
    }

    /** Where a URL stands with its site. */
    public sealed interface Gate {
        /** Go ahead: the request may start at {@code slot} (already waited for); report it back with {@link #done}. */
        record Go(SiteKey site, Instant slot) implements Gate {}

        /** Not now: ask again from {@code until}. */
        record Wait(Instant until, String why) implements Gate {}

        /** robots.txt forbids the URL. */
        record Disallowed(String reason) implements Gate {}

        /**
         * robots.txt stayed unreachable past the deadline, or the site's address is one the SSRF guard refuses
         * ({@code blocked: …}): the URL fails.
         */
        record Unreachable(String reason) implements Gate {}
    }

    private final RobotsPolicy robots;
    private final RobotsStore robotsStore;
    private final RateLimiter limiter;
    private final RateStore rates;
    private final RateOverrides overrides;
    private final PageFetcher fetcher;
    private final Clock clock;
    private final Pause pause;
    private final DoubleSupplier jitter;
    /**
     * Slots taken ahead for the jobs of this thread's invocation ({@link #reserve}), per site, earliest first. Per
     * thread, because the local runner's pollers, like concurrent Lambda invocations, must not share them.
     */
    private final ThreadLocal<Map<SiteKey, Deque<Reserved>>> reserved = ThreadLocal.withInitial(HashMap::new);

    /**
     * A slot taken ahead: {@code slot} identifies its in-flight place; the request waits until {@code notBefore},
     * which moves later when an earlier request of the site reached it late.
     */
    private record Reserved(Instant slot, Instant notBefore) {}

    public SitePoliteness(RobotsPolicy robots, RobotsStore robotsStore, RateLimiter limiter, RateStore rates,
            RateOverrides overrides, PageFetcher fetcher, Clock clock, Pause pause, DoubleSupplier jitter) {
        this.robots = robots;
        this.robotsStore = robotsStore;
        this.limiter = limiter;
        this.rates = rates;
        this.overrides = overrides;
        this.fetcher = fetcher;
        this.clock = clock;
        this.pause = pause;
        this.jitter = jitter;
    }

    /** Checks robots.txt (fetching it if needed) and takes a rate slot for one request to {@code url}. */
    public Gate admit(NormalizedUrl url) {
        RobotsOrigin origin = RobotsOrigin.of(url);
        Optional<RobotsCacheEntry> entry = robotsStore.find(origin);
        if (robots.needsFetch(entry, clock.instant())) {
            Gate slot = acquire(url.siteKey(), entry.flatMap(RobotsCacheEntry::crawlDelay));
            if (!(slot instanceof Gate.Go go)) {
                return slot;
            }
            FetchResult result = fetcher.fetch(FetchRequest.get(origin.robotsUrl()));
            done(go, result);
            // Redirects are followed here, one hop at a time, each hop taking a slot of its own site's rate.
            String at = origin.robotsUrl();
            int hops = 0;
            while (result instanceof FetchResult.Response r && r.redirect()
                    && hops < robots.settings().maxRedirects()) {
                Optional<NormalizedUrl> next = hop(at, r.headers().get("location"));
                if (next.isEmpty()) {
                    break;
                }
                Gate hopSlot = acquire(next.get().siteKey(), Optional.empty());
                if (!(hopSlot instanceof Gate.Go hopGo)) {
                    return hopSlot;
                }
                hops++;
                at = next.get().value();
                result = fetcher.fetch(FetchRequest.get(at));
                done(hopGo, result);
            }
            if (result instanceof FetchResult.Failure f && "blocked".equals(f.kind())) {
                // The SSRF guard refused the site's address: nothing of it will ever be fetched.
                return new Gate.Unreachable("blocked: " + f.message());
            }
            RobotsCacheEntry fetched = robots.onFetched(origin, RobotsFetchOutcome.from(result, hops), entry,
                    clock.instant(), jitter.getAsDouble());
            robotsStore.save(fetched);
            entry = Optional.of(fetched);
        }
        return switch (robots.decide(entry, url.value(), clock.instant())) {
            case RobotsVerdict.Allowed allowed -> acquire(url.siteKey(), Optional.of(allowed.crawlDelay())
                    .filter(d -> !d.isZero()));
            case RobotsVerdict.Disallowed d -> new Gate.Disallowed(d.reason());
            case RobotsVerdict.Wait w -> new Gate.Wait(w.until(), "robots.txt unavailable");
            case RobotsVerdict.Unreachable u -> new Gate.Unreachable(u.reason());
            case RobotsVerdict.FetchFirst f -> new Gate.Wait(clock.instant().plusSeconds(1), "robots.txt not cached");
        };
    }

    private static Optional<NormalizedUrl> hop(String from, String location) {
        if (location == null || location.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(NormalizedUrl.parse(java.net.URI.create(from).resolve(location.strip()).toString()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * An invocation holding {@code k} jobs of one site takes their slots in one conditional write, as many as the
     * limiter grants (never more than the free in-flight places, nor beyond its max delay); {@link #acquire} then
     * hands them out before asking the store again. Call {@link #returnReserved} when the invocation ends.
     */
    public void reserve(NormalizedUrl first, int k) {
        if (k < 2) {
            return;
        }
        SiteKey site = first.siteKey();
        Optional<Duration> crawlDelay = robotsStore.find(RobotsOrigin.of(first))
                .filter(e -> !e.expired(clock.instant()))
                .flatMap(RobotsCacheEntry::crawlDelay)
                .map(d -> d.compareTo(robots.settings().crawlDelayCap()) > 0 ? robots.settings().crawlDelayCap() : d);
        Duration base = limiter.baseInterval(site.value(), overrides, crawlDelay);
        for (int attempt = 0; attempt < RATE_ATTEMPTS; attempt++) {
            Optional<SiteRate> stored = rates.find(site);
            SiteRate state = stored.map(s -> limiter.rebase(s, base)).orElseGet(() -> limiter.initial(base));
            if (!(limiter.acquire(state, nowMillis(), k) instanceof RateDecision.Granted granted)) {
                return;
            }
            if (rates.save(site, granted.next(), stored.map(SiteRate::version).orElse(0L))) {
                Deque<Reserved> ahead = reserved.get().computeIfAbsent(site, x -> new ArrayDeque<>());
                granted.slots().forEach(slot -> ahead.add(new Reserved(slot, slot)));
                return;
            }
        }
    }

    /** Gives back the in-flight places of reserved slots this thread did not use. */
    public void returnReserved() {
        Map<SiteKey, Deque<Reserved>> mine = reserved.get();
        mine.forEach((site, slots) -> {
            for (Reserved r : slots) {
                release(site, r.slot());
            }
        });
        mine.clear();
    }

    private void release(SiteKey site, Instant slot) {
        update(site, state -> limiter.release(state, slot));
    }

    /**
     * Applies {@code change} to the site's stored state and writes the result on the version read, again on a lost
     * race; an unchanged state is not written. Returns the state now stored, empty for a site with none.
     */
    private Optional<SiteRate> update(SiteKey site, UnaryOperator<SiteRate> change) {
        for (int attempt = 0; attempt < RATE_ATTEMPTS; attempt++) {
            Optional<SiteRate> stored = rates.find(site);
            if (stored.isEmpty()) {
                return stored;
            }
            SiteRate next = change.apply(stored.get());
            if (next.equals(stored.get()) || rates.save(site, next, stored.get().version())) {
                return Optional.of(next);
            }
        }
        throw new IllegalStateException("rate item of " + site.value() + " kept changing under " + RATE_ATTEMPTS
                + " attempts");
    }

    /**
     * Takes one slot of the site's rate: read, decide, write on the version read, again on a lost race. A refusal
     * says when to ask again. A granted slot is waited for here (at most the limiter's max delay).
     */
    public Gate acquire(SiteKey site, Optional<Duration> crawlDelay) {
        Deque<Reserved> ahead = reserved.get().get(site);
        if (ahead != null && !ahead.isEmpty()) {
            Reserved r = ahead.poll();
            Instant start = r.notBefore().isAfter(r.slot()) ? r.notBefore() : r.slot();
            if (start.isAfter(clock.instant())) {
                pause.until(start);
            }
            return new Gate.Go(site, r.slot());
        }
        Duration base = limiter.baseInterval(site.value(), overrides, crawlDelay);
        for (int attempt = 0; attempt < RATE_ATTEMPTS; attempt++) {
            Optional<SiteRate> stored = rates.find(site);
            SiteRate state = stored.map(s -> limiter.rebase(s, base)).orElseGet(() -> limiter.initial(base));
            long readVersion = stored.map(SiteRate::version).orElse(0L);
            switch (limiter.acquire(state, nowMillis(), 1)) {
                case RateDecision.Refused refused -> {
                    return new Gate.Wait(refused.retryAt(), "rate: " + refused.reason().name().toLowerCase());
                }
                case RateDecision.Granted granted -> {
                    if (rates.save(site, granted.next(), readVersion)) {
                        Instant slot = granted.slots().getFirst();
                        if (slot.isAfter(clock.instant())) {
                            pause.until(slot);
                        }
                        return new Gate.Go(site, slot);
                    }
                }
            }
        }
        throw new IllegalStateException("rate item of " + site.value() + " kept changing under " + RATE_ATTEMPTS
                + " attempts");
    }

    /** Slots reserved ahead start no earlier than one interval after each other, counted from the request just sent. */
    private void delayReserved(SiteKey site, Instant sent, Duration interval) {
        Deque<Reserved> ahead = reserved.get().get(site);
        if (ahead == null || ahead.isEmpty()) {
            return;
        }
        Deque<Reserved> moved = new ArrayDeque<>();
        Instant earliest = sent;
        for (Reserved r : ahead) {
            earliest = earliest.plus(interval);
            moved.add(r.notBefore().isBefore(earliest) ? new Reserved(r.slot(), earliest) : r);
        }
        ahead.clear();
        ahead.addAll(moved);
    }

    /**
     * Now, rounded up to the millisecond: stores keep times to the millisecond, and a slot must read back exactly as
     * granted for {@link #done} to find its in-flight place.
     */
    private Instant nowMillis() {
        Instant now = clock.instant();
        Instant floor = now.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        return floor.equals(now) ? now : floor.plusMillis(1);
    }

    /** Gives back the request's in-flight place and lets the site's answer adjust its rate (slower after a 429). */
    public void done(Gate.Go go, FetchResult result) {
        Instant now = nowMillis();
        // When the request reached the site: the call's start plus the time to connect.
        Optional<Instant> sent = result instanceof FetchResult.Response r
                ? Optional.of(now.minus(r.total()).plus(r.connect())) : Optional.empty();
        Optional<SiteRate> written = update(go.site(), state -> {
            SiteRate next = limiter.onResult(limiter.release(state, go.slot()), result, now, jitter.getAsDouble());
            return sent.map(at -> limiter.sentAt(next, at)).orElse(next);
        });
        if (sent.isPresent() && written.isPresent()) {
            delayReserved(go.site(), sent.get(), limiter.interval(written.get()));
        }
    }
}
