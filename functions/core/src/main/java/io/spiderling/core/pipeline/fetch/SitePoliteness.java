package io.spiderling.core.pipeline.fetch;

import io.spiderling.core.batch.Reason;
import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.SendWindow;
import io.spiderling.core.politeness.FetchOutcome;
import io.spiderling.core.politeness.RateDecision;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.FetchTelemetry;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsFetchOutcome;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.robots.RobotsRefusal;
import io.spiderling.core.robots.RobotsVerdict;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The gate every request to a site passes: robots.txt first (fetched when the cache has no usable copy, which itself
 * takes a slot of the site's rate), then a slot from the site's rate item. The decisions are the pure
 * {@link RobotsPolicy} and {@link RateLimiter}; this class keeps their state, writes it back conditionally and waits
 * for a granted slot, which the limiter keeps within a second.
 *
 * <p><b>One write per request.</b> A {@link Session} (one per invocation, shared by its concurrent fetches) reads a
 * site's rate item and robots.txt entry once, then decides on the state it last wrote: a conditional write that loses
 * returns the winner's state, and the decision is taken again on that, with no read in between. An ordinary answer
 * is not written at once: its release, response time and send time are folded into the site's next write (the next
 * slot, usually a moment later) or into the session's last write ({@link Session#close}). Holding a lease a little
 * longer only makes others more careful. An answer that changes what others must do (a throttle, a failure, a pause)
 * is written at once.
 */
public final class SitePoliteness {

    /** How long a claim to fetch robots.txt holds off other fetchers: above the fetch's timeouts and hops. */
    private static final Duration ROBOTS_CLAIM = Duration.ofSeconds(45);
    /**
     * How long a redirect of robots.txt, part-way down its chain, is asked again here rather than given up: well
     * within the claim. Bounded by time, not tries: on a site allowed 10 requests a second a busy core can miss the
     * 25 ms send window several times in a row.
     */
    private static final Duration ROBOTS_HOP_PATIENCE = Duration.ofSeconds(15);
    /**
     * How long a fetcher that finds robots.txt claimed by another waits here for the rules it will save: its own fetch
     * is a slot and a GET, usually done in a second. Going back to the frontier instead costs a put back and a release
     * (about 12 write units) and a second's wait at least. Read again every {@link #ROBOTS_POLL}.
     */
    static final Duration ROBOTS_WAIT = Duration.ofSeconds(5);
    static final Duration ROBOTS_POLL = Duration.ofMillis(250);
    /**
     * How long a request that keeps missing its slot's window (a busy core) is given new slots here before it goes
     * back to the frontier, and at most how many slots: each slot is the site's, so asking again is never less polite,
     * and cheaper than a put back and a release.
     */
    static final Duration LATE_PATIENCE = Duration.ofSeconds(10);
    static final int LATE_TRIES = 20;

    /**
     * Conditional writes before giving up: each loser sees a newer state, so a few suffice for a site at the default
     * rate. A site allowed 50 a second has as many fetchers writing its item, so from the third loss on a loser backs
     * off for a random part of {@code CONTENTION_STEP × 2^losses} (at most 64 steps) before it writes again.
     */
    private static final int RATE_ATTEMPTS = 20;
    /**
     * The most slots one write of a site's rate item takes for a session's fetches asking at once: an invocation
     * takes at most 10 messages, so at most 10 of its fetches ask for one site.
     */
    static final int MAX_SLOTS_AT_ONCE = 10;
    private static final java.time.Duration CONTENTION_STEP = java.time.Duration.ofMillis(2);

    /**
     * The site's rate item kept changing under every attempt to write it: other fetchers took its slots meanwhile. A
     * slot asked for is then a wait, not a failure (the job goes back to the frontier, and its message is not retried).
     */
    static final class Contended extends IllegalStateException {
        Contended(String message) {
            super(message);
        }
    }

    /** Blocks until an instant; a test passes one that moves its clock instead. */
    @FunctionalInterface
    public interface Pause {
        void until(Instant when);
    }

    /** Where a URL stands with its site. */
    public sealed interface Gate {
        /**
         * Go ahead: the request may go out from {@code sendFrom} (waited for, up to the fetcher's
         * {@link PageFetcher#lead}) until {@code sendBy}, and not later: pass {@link #window} to the fetcher
         * ({@link FetchRequest#withSend}); report it back with {@code done}. {@code slot} is the place taken in the
         * site's rate, which names the lease; the window opens there, or earlier for the first request after the site
         * was free ({@link io.spiderling.core.politeness.RateDecision.Granted#opens}).
         */
        record Go(SiteKey site, Instant slot, Instant sendBy, Instant sendFrom) implements Gate {
            public Go {
                if (sendFrom.isAfter(slot) || sendBy.isBefore(slot)) {
                    throw new IllegalArgumentException("a send window " + sendFrom + " to " + sendBy
                            + " must hold its slot " + slot);
                }
            }

            /** A request that waits for its slot. */
            public Go(SiteKey site, Instant slot, Instant sendBy) {
                this(site, slot, sendBy, slot);
            }

            /** When the request may be written. */
            public SendWindow window() {
                return new SendWindow(sendFrom, sendBy);
            }
        }

        /** Anything but a go-ahead: nothing is sent. */
        sealed interface Stop extends Gate permits Wait, Disallowed, Unreachable {}

        /** Not now: ask again from {@code until}. */
        record Wait(Instant until, String why) implements Stop {}

        /** robots.txt forbids the URL, by the rule {@code refusal} names. */
        record Disallowed(RobotsRefusal refusal) implements Stop {}

        /**
         * robots.txt stayed unreachable past the deadline ({@link Reason#ROBOTS_UNREACHABLE}), or the site's address
         * is one the SSRF guard refuses ({@link Reason#BLOCKED}): the URL fails, for the reason given.
         */
        record Unreachable(Reason reason, String detail) implements Stop {}
    }

    /** What a request sent through the gate came to ({@link Session#send}). */
    public sealed interface Sent {
        /** Not sent: the gate said no, or the request missed its slot's window twice ({@link #LATE}). */
        record Refused(Gate.Stop gate) implements Sent {}

        /** The site's answer (or the failure to get one), to a request started at {@code at} in {@code go}'s slot. */
        record Answered(Gate.Go go, FetchResult result, Instant at) implements Sent {}
    }

    private final RobotsPolicy robots;
    private final RobotsStore robotsStore;
    private final RateLimiter limiter;
    private final RateStore rates;
    private final RateOverrides overrides;
    private final PageFetcher fetcher;
    private final UrlNormalizer normalizer;
    private final Clock clock;
    private final Pause pause;
    private final DoubleSupplier jitter;
    private final RedirectFollower redirects;
    /**
     * What this fetcher's late sends taught it, for all its sessions: they share the cores that make it late
     * ({@link LateMargin}).
     */
    private final AtomicReference<LateMargin> lateMargin = new AtomicReference<>(LateMargin.NONE);

    private SitePoliteness(Builder b) {
        this.robots = Objects.requireNonNull(b.robots, "robots");
        this.robotsStore = b.robotsStore; // none for a caller that only takes rate slots
        this.limiter = Objects.requireNonNull(b.limiter, "limiter");
        this.rates = Objects.requireNonNull(b.rates, "rates");
        this.overrides = Objects.requireNonNull(b.overrides, "overrides");
        this.fetcher = Objects.requireNonNull(b.fetcher, "fetcher");
        this.normalizer = Objects.requireNonNull(b.normalizer, "normalizer");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.pause = Objects.requireNonNull(b.pause, "pause");
        this.jitter = Objects.requireNonNull(b.jitter, "jitter");
        this.redirects = new RedirectFollower(normalizer, fetcher);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Names each collaborator; the robots.txt policy, the overrides, the normalizer, the clock and the jitter have
     * defaults. The decisions ({@code robots}, {@code limiter}) are pure; the stores and the fetcher
     * are ports; {@code pause} waits for a granted slot.
     */
    public static final class Builder {
        private RobotsPolicy robots = RobotsPolicy.create();
        private RobotsStore robotsStore;
        private RateLimiter limiter;
        private RateStore rates;
        private RateOverrides overrides = RateOverrides.none();
        private PageFetcher fetcher;
        private UrlNormalizer normalizer = UrlNormalizer.create();
        private Clock clock = Clock.systemUTC();
        private Pause pause;
        private DoubleSupplier jitter = Math::random;

        private Builder() {}

        public Builder robots(RobotsPolicy value) {
            robots = value;
            return this;
        }

        public Builder robotsStore(RobotsStore value) {
            robotsStore = value;
            return this;
        }

        public Builder limiter(RateLimiter value) {
            limiter = value;
            return this;
        }

        public Builder rates(RateStore value) {
            rates = value;
            return this;
        }

        public Builder overrides(RateOverrides value) {
            overrides = value;
            return this;
        }

        public Builder fetcher(PageFetcher value) {
            fetcher = value;
            return this;
        }

        public Builder normalizer(UrlNormalizer value) {
            normalizer = value;
            return this;
        }

        public Builder clock(Clock value) {
            clock = value;
            return this;
        }

        public Builder pause(Pause value) {
            pause = value;
            return this;
        }

        public Builder jitter(DoubleSupplier value) {
            jitter = value;
            return this;
        }

        public SitePoliteness build() {
            return new SitePoliteness(this);
        }
    }

    /** A new session, for one invocation's fetches; close it when they are done. */
    public Session session() {
        return session(FetchTelemetry.NONE);
    }

    /** A new session that counts its robots.txt GETs and rate refusals in {@code telemetry}. */
    public Session session(FetchTelemetry telemetry) {
        return new Session(telemetry);
    }

    /** Where robots.txt's chain stopped: its last hop's answer or refusal, after {@code hops} redirects. */
    private record RobotsChain(Sent last, int hops) {}

    /** An answer whose write is put off until the site's next write. */
    private record Deferred(Instant slot, FetchResult result, String urlHash, Instant at, Optional<Instant> sent) {}

    /**
     * What one step decided: the state to write ({@code null}: nothing to write) and the caller's result. A step that
     * writes nothing on a state the session did not just read ({@code confirm}) is taken again on a fresh read: a
     * refusal must not rest on what another invocation has changed since.
     */
    private record Step<T>(SiteRate write, T result, boolean confirm) {
        Step(SiteRate write, T result) {
            this(write, result, false);
        }
    }

    /**
     * One site as a session knows it: the state it last read or wrote ({@code null} before the first read), and the
     * answers not yet written. Guarded by itself: a session's concurrent fetches of one site take turns.
     */
    private static final class Site {
        private Optional<SiteRate> known;
        private final List<Deferred> deferred = new ArrayList<>();
        /** Slots one of the session's fetches took for others that were asking at the time, in order. */
        private final java.util.ArrayDeque<Gate.Go> spare = new java.util.ArrayDeque<>();
        /** The session's fetches asking for a slot of the site now, whether waiting for their turn or taking it. */
        private final java.util.concurrent.atomic.AtomicInteger asking =
                new java.util.concurrent.atomic.AtomicInteger();
    }

    /** A slot decision for the fetch asking ({@code first}) and the slots granted with it for the others asking. */
    private record Taken(Gate first, List<Gate.Go> spare) {}

    /**
     * One invocation's view of the sites it fetches from: the robots.txt entries and rate items it read, and the
     * answers it has not written yet. Safe for concurrent use by the invocation's fetches.
     */
    public final class Session implements AutoCloseable {

        private final Map<RobotsOrigin, Optional<RobotsCacheEntry>> robotsEntries = new ConcurrentHashMap<>();
        /** One lock per origin: of a session's lanes, one fetches robots.txt while the others wait for its rules. */
        private final Map<RobotsOrigin, Object> robotsLocks = new ConcurrentHashMap<>();
        private final Map<SiteKey, Site> sites = new ConcurrentHashMap<>();

        private final FetchTelemetry telemetry;

        private Session(FetchTelemetry telemetry) {
            this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        }

        /**
         * Checks robots.txt (fetching it if needed) for the request {@code hop} sends, and takes a rate slot of its
         * site for it.
         */
        public Gate admit(Hop hop) {
            NormalizedUrl url = hop.url();
            RobotsOrigin origin = RobotsOrigin.of(url);
            Optional<RobotsCacheEntry> entry;
            synchronized (robotsLocks.computeIfAbsent(origin, o -> new Object())) {
                entry = robots(origin);
                if (robots.needsFetch(entry, clock.instant())) {
                    Optional<Gate> stop = fetchRobots(origin, entry);
                    if (stop.isPresent()) {
                        return stop.get();
                    }
                    entry = robots(origin);
                }
            }
            return switch (robots.decide(entry, hop.request(), clock.instant())) {
                case RobotsVerdict.Allowed allowed -> acquire(url.siteKey(), Optional.of(allowed.crawlDelay())
                        .filter(d -> !d.isZero()));
                case RobotsVerdict.Disallowed d -> new Gate.Disallowed(d.refusal());
                case RobotsVerdict.Wait w -> new Gate.Wait(w.until(), "robots.txt unavailable");
                case RobotsVerdict.Unreachable u -> new Gate.Unreachable(Reason.ROBOTS_UNREACHABLE,
                        u.outage().describe());
                case RobotsVerdict.FetchFirst f -> new Gate.Wait(clock.instant().plusSeconds(1),
                        "robots.txt not cached");
            };
        }

        /**
         * Gives back the request's in-flight place and lets the site's answer adjust its rate: at the site's next
         * write for an ordinary answer or a request not sent (late, or blocked), at once for one that slows the site
         * down. A late request asks for its next slot at once, so its release rides on that write.
         *
         * @param urlHash the URL asked, for the site's failure streak
         */
        public void done(Gate.Go go, FetchResult result, String urlHash) {
            Instant now = nowMillis();
            // When the request reached the site: the call's start plus the time to connect.
            Optional<Instant> sent = result instanceof FetchResult.Response r
                    ? Optional.of(ceilMillis(now.minus(r.total()).plus(r.connect()))) : Optional.empty();
            Deferred answer = new Deferred(go.slot(), result, urlHash, now, sent);
            FetchOutcome outcome = FetchOutcome.of(result);
            Site site = site(go.site());
            synchronized (site) {
                site.deferred.add(answer);
                if (outcome != FetchOutcome.THROTTLED && !outcome.siteFailure()) {
                    return;
                }
                // Slots taken for the session's other fetches before this answer are given back with it: the site
                // may now be paused, or slowed down, and they ask again.
                List<Gate.Go> unused = List.copyOf(site.spare);
                site.spare.clear();
                try {
                    change(go.site(), site, state -> new Step<>(released(state, unused), null));
                } catch (Contended e) {
                    // Still deferred: the answer rides on the site's next write, as an ordinary one does.
                }
            }
        }

        /**
         * Writes every site's answers not yet written. A site whose item kept changing under every attempt keeps them
         * unwritten: its places lapse with their leases, and failing the invocation would send its jobs again.
         */
        @Override
        public void close() {
            sites.forEach((key, site) -> {
                synchronized (site) {
                    if (!site.deferred.isEmpty() || !site.spare.isEmpty()) {
                        List<Gate.Go> unused = List.copyOf(site.spare);
                        site.spare.clear();
                        try {
                            change(key, site, state -> new Step<>(released(state, unused), null));
                        } catch (Contended e) {
                            site.deferred.clear();
                        }
                    }
                }
            });
        }

        /**
         * Passes {@code gate} ({@link #admit} or {@link #acquire}) and sends the request {@code fetch} makes in the
         * slot it grants, reporting the answer ({@link #done}). A request that missed its slot's window is not sent; it
         * gets the next slot at once: a first request often misses its window only by opening the connection (a cold
         * start), which the next one finds open, and a busy core may make it miss a few. Still missing after
         * {@link #LATE_PATIENCE} (or {@link #LATE_TRIES} slots) is a {@link Gate.Wait} for {@link #LATE}.
         */
        public Sent send(Supplier<Gate> gate, Function<Gate.Go, FetchResult> fetch, String urlHash) {
            Instant giveUp = clock.instant().plus(LATE_PATIENCE);
            for (int tries = 1; ; tries++) {
                Gate.Go go;
                switch (gate.get()) {
                    case Gate.Stop stop -> {
                        return new Sent.Refused(stop);
                    }
                    case Gate.Go granted -> go = granted;
                }
                Instant at = clock.instant();
                FetchResult result = fetch.apply(go);
                done(go, result, urlHash);
                lateMargin.updateAndGet(late(result) ? LateMargin::afterLate : LateMargin::afterOnTime);
                if (!late(result)) {
                    return new Sent.Answered(go, result, at);
                }
                telemetry.lateSend();
                if (tries >= LATE_TRIES || clock.instant().isAfter(giveUp)) {
                    return new Sent.Refused(new Gate.Wait(clock.instant(), LATE));
                }
            }
        }

        /** Takes one slot of the site's rate; a refusal says when to ask again. A granted slot is waited for here. */
        public Gate acquire(SiteKey key, Optional<Duration> crawlDelay) {
            Duration base = limiter.baseInterval(key.value(), overrides, crawlDelay);
            Site site = site(key);
            Gate gate;
            site.asking.incrementAndGet();
            try {
                synchronized (site) {
                    gate = take(key, site, base);
                }
            } finally {
                site.asking.decrementAndGet();
            }
            // The fetcher holds a request that comes early until its slot, on the thread that writes it: waking a
            // little before the slot leaves its own delays (a busy core, a connection to open) out of the send time.
            if (gate instanceof Gate.Go go && go.sendFrom().minus(lead()).isAfter(clock.instant())) {
                pause.until(go.sendFrom().minus(lead()));
            }
            if (gate instanceof Gate.Wait) {
                telemetry.rateRefused();
            }
            return gate;
        }

        /**
         * A slot taken for this fetch by another of the session's fetches of the site, or else one read, decided and
         * written, with a slot for each other fetch asking at the time ({@link #MAX_SLOTS_AT_ONCE} in all at most):
         * fetches of one site in one invocation then write its rate item once instead of once each. Called with the
         * site's lock held.
         */
        private Gate take(SiteKey key, Site site, Duration base) {
            Gate.Go spare = site.spare.pollFirst();
            if (spare != null) {
                return spare;
            }
            try {
                Taken taken = slots(key, site, base);
                site.spare.addAll(taken.spare());
                return taken.first();
            } catch (Contended e) {
                // Every attempt lost to another fetcher's slot: the site's slots are taken for now.
                return new Gate.Wait(clock.instant().plus(limiter.settings().admission().maxDelay()),
                        "rate: contended");
            }
        }

        /**
         * The read-decide-write of a slot for each of the session's fetches asking when the decision is made (once the
         * state is read): each a {@link Gate.Go} with its send window.
         */
        private Taken slots(SiteKey key, Site site, Duration base) {
            return change(key, site, state -> {
                SiteRate rebased = limiter.rebase(state, base);
                int wanted = Math.min(Math.max(1, site.asking.get()), MAX_SLOTS_AT_ONCE);
                // A slot no earlier than the fetcher's lead from now: a request whose slot is "now" would have to
                // open its connection within the window (a cold start misses it); with the lead it connects before.
                // A site free before that slot lets its request go out at once (a warm connection writes it within
                // milliseconds), its window reaching from now to the slot's end.
                return switch (limiter.acquire(rebased, nowMillis(), lead(), wanted)) {
                    case RateDecision.Refused refused -> new Step<>(null, new Taken(new Gate.Wait(refused.retryAt(),
                            "rate: " + refused.reason().name().toLowerCase(java.util.Locale.ROOT)), List.of()), true);
                    case RateDecision.Granted granted -> {
                        List<Gate.Go> gos = granted.slots().stream()
                                .map(slot -> new Gate.Go(key, slot, limiter.sendBy(rebased, slot))).toList();
                        Gate.Go first = gos.getFirst();
                        Gate.Go opened = new Gate.Go(key, first.slot(), first.sendBy(), granted.opens());
                        yield new Step<>(granted.next(), new Taken(opened, gos.subList(1, gos.size())));
                    }
                };
            }, base);
        }

        private <T> T change(SiteKey key, Site site, Function<SiteRate, Step<T>> step) {
            return change(key, site, step, limiter.settings().spacing().defaultInterval());
        }

        /**
         * The one read-decide-write loop: folds the site's unwritten answers into its known state (read once per
         * session; a new site starts from {@code base}), lets {@code step} decide, and writes the result on the
         * version known. A lost write brings the winner's state, and the step decides again on it. A step that writes
         * nothing keeps the unwritten answers for later.
         */
        private <T> T change(SiteKey key, Site site, Function<SiteRate, Step<T>> step, Duration base) {
            boolean fresh = false;
            if (site.known == null) {
                site.known = rates.find(key);
                fresh = true;
            }
            for (int attempt = 0; attempt < RATE_ATTEMPTS; attempt++) {
                SiteRate stored = site.known.orElseGet(() -> limiter.initial(base));
                SiteRate folded = fold(stored, site.deferred);
                Step<T> decided = step.apply(folded);
                if (decided.write() == null || decided.write().equals(stored)) {
                    if (decided.confirm() && !fresh) {
                        site.known = rates.find(key);
                        fresh = true;
                        continue;
                    }
                    return decided.result();
                }
                // Every transition raises the version, so the state to write is always newer than the one read.
                long readVersion = site.known.map(SiteRate::version).orElse(0L);
                SiteRate next = decided.write();
                switch (rates.save(key, next, readVersion)) {
                    case RateStore.Written.Saved saved -> {
                        site.known = Optional.of(next);
                        site.deferred.clear();
                        return decided.result();
                    }
                    case RateStore.Written.Conflict conflict -> {
                        site.known = conflict.stored();
                        fresh = true;
                        if (attempt >= 2) {
                            pause.until(clock.instant().plus(CONTENTION_STEP.multipliedBy(
                                    Math.round(jitter.getAsDouble() * (1L << Math.min(attempt, 6))))));
                        }
                    }
                }
            }
            throw new Contended("rate item of " + key.value() + " kept changing under " + RATE_ATTEMPTS
                    + " attempts");
        }

        /** The state with the places of slots taken for fetches that never asked for them given back. */
        private SiteRate released(SiteRate state, List<Gate.Go> unused) {
            SiteRate s = state;
            for (Gate.Go go : unused) {
                s = limiter.release(s, go.slot());
            }
            return s;
        }

        private SiteRate fold(SiteRate state, List<Deferred> answers) {
            SiteRate s = state;
            for (Deferred d : answers) {
                s = limiter.onResult(limiter.release(s, d.slot()), d.result(), d.urlHash(), d.at(),
                        jitter.getAsDouble());
                if (d.sent().isPresent()) {
                    s = limiter.sentAt(s, d.sent().get());
                }
            }
            return s;
        }

        private Site site(SiteKey key) {
            return sites.computeIfAbsent(key, k -> new Site());
        }

        private Optional<RobotsCacheEntry> robots(RobotsOrigin origin) {
            return robotsEntries.computeIfAbsent(origin, robotsStore::find);
        }

        /**
         * Fetches robots.txt through the site's rate, following redirects one hop at a time, each hop taking a slot
         * of its own site's rate, and caches what the policy makes of it. Returns a gate only when the URL cannot go
         * on: no slot now, or an address the SSRF guard refuses.
         */
        private Optional<Gate> fetchRobots(RobotsOrigin origin, Optional<RobotsCacheEntry> entry) {
            Instant now = clock.instant();
            Instant giveUp = now.plus(ROBOTS_WAIT);
            Optional<RobotsCacheEntry> known = entry;
            for (int polls = 0; !robotsStore.claimFetch(origin, now, now.plus(ROBOTS_CLAIM)); polls++) {
                // Another invocation is fetching it: its rules are usually saved within a second, so wait for them
                // here, up to ROBOTS_WAIT, then ask again from the frontier.
                if (polls >= ROBOTS_WAIT.dividedBy(ROBOTS_POLL) || !now.isBefore(giveUp)) {
                    return Optional.of(new Gate.Wait(now.plusSeconds(1),
                            "robots.txt being fetched by another fetcher"));
                }
                pause.until(now.plus(ROBOTS_POLL));
                known = robotsStore.find(origin);
                now = clock.instant();
                if (!robots.needsFetch(known, now)) {
                    robotsEntries.put(origin, known);
                    return Optional.empty();
                }
            }
            return fetchClaimedOrGiveBack(origin, known, now);
        }

        /** {@link #fetchClaimed}, giving the claim back if a store or the rate fails part-way. */
        private Optional<Gate> fetchClaimedOrGiveBack(RobotsOrigin origin, Optional<RobotsCacheEntry> entry,
                Instant now) {
            try {
                return fetchClaimed(origin, entry, now);
            } catch (RuntimeException e) {
                // A store (or the rate) failed part-way: without the claim back, every fetcher of the origin would
                // wait out its 45 s, taking this failure for another fetcher at work.
                try {
                    robotsStore.releaseFetch(origin);
                } catch (RuntimeException again) {
                    e.addSuppressed(again);
                }
                throw e;
            }
        }

        /** {@link #fetchRobots} once this session holds the origin's fetch claim. */
        private Optional<Gate> fetchClaimed(RobotsOrigin origin, Optional<RobotsCacheEntry> entry, Instant now) {
            // A fetcher gives its claim back once it has saved the rules, so one that finished between this session's
            // read and this claim left its rules behind, and the claim was free: read again before asking the site.
            Optional<RobotsCacheEntry> current = robotsStore.find(origin);
            if (!robots.needsFetch(current, now)) {
                robotsStore.releaseFetch(origin);
                robotsEntries.put(origin, current);
                return Optional.empty();
            }
            Hop first = Hop.of(NormalizedUrl.parse(origin.robotsUrl()));
            RobotsChain chain = getRobots(first, entry.flatMap(RobotsCacheEntry::crawlDelay));
            return switch (chain.last()) {
                case Sent.Refused refused -> {
                    // Not fetching after all: the claim would keep every fetcher, this one too, off it for its 45 s.
                    robotsStore.releaseFetch(origin);
                    yield Optional.of(refused.gate());
                }
                case Sent.Answered answered -> cache(origin, entry, answered.result(), chain.hops());
            };
        }

        /**
         * GETs robots.txt, following redirects up to the policy's limit: each hop takes a slot of its own site's rate
         * (the first with the crawl delay last known). The last hop's answer, or the refusal that stopped the chain.
         */
        private RobotsChain getRobots(Hop first, Optional<Duration> crawlDelay) {
            Hop hop = first;
            while (true) {
                Hop asked = hop;
                Optional<Duration> delay = asked == first ? crawlDelay : Optional.empty();
                Sent sent = asked == first ? sendRobots(asked, delay) : sendRobotsHop(asked);
                if (!(sent instanceof Sent.Answered answered)) {
                    return new RobotsChain(sent, asked.via().size());
                }
                telemetry.robotsFetched(FetchOutcome.of(answered.result()));
                if (asked.via().size() >= robots.settings().maxRedirects()
                        || !(redirects.next(asked, answered.result()) instanceof RedirectFollower.Next.Redirect to)) {
                    return new RobotsChain(answered, asked.via().size());
                }
                hop = to.hop();
            }
        }

        private Sent sendRobots(Hop hop, Optional<Duration> crawlDelay) {
            return redirects.send(this, hop, () -> acquire(hop.siteKey(), crawlDelay),
                    FetchRequest.get(hop.request().value()));
        }

        /**
         * A redirect of robots.txt, part-way down its chain, claim held. Given up, the chain would start again from
         * robots.txt later, asking the site again for a hop it already answered. So a send that missed its window (a
         * busy core) or a slot not far off is asked again here, for up to {@link #ROBOTS_HOP_PATIENCE}.
         */
        private Sent sendRobotsHop(Hop hop) {
            Instant giveUp = clock.instant().plus(ROBOTS_HOP_PATIENCE);
            Sent sent = sendRobots(hop, Optional.empty());
            while (sent instanceof Sent.Refused(Gate.Wait wait) && !wait.until().isAfter(giveUp)) {
                pause.until(wait.until());
                sent = sendRobots(hop, Optional.empty());
            }
            return sent;
        }

        /** What the policy makes of robots.txt's answer, cached; a gate only when the site's address is refused. */
        private Optional<Gate> cache(RobotsOrigin origin, Optional<RobotsCacheEntry> entry, FetchResult result,
                int hops) {
            if (result instanceof FetchResult.Failure f && f.kind() == FailureKind.BLOCKED) {
                // The SSRF guard refused the site's address: nothing of it will ever be fetched.
                robotsStore.releaseFetch(origin);
                return Optional.of(new Gate.Unreachable(Reason.BLOCKED, "blocked: " + f.message()
                        + " (asking for robots.txt)"));
            }
            RobotsCacheEntry fetched = robots.onFetched(origin, RobotsFetchOutcome.from(result, hops), entry,
                    clock.instant(), jitter.getAsDouble());
            robotsStore.save(fetched);
            if (fetched.nextRetryAt().isPresent()) {
                // An outage: its next try is due in seconds, and a claim left behind would hold it off for 45 s.
                // Rules that were fetched keep the claim to its end: nobody needs it while they are fresh, and a
                // fetcher that found them missing just before waits a second for them, as it always has.
                robotsStore.releaseFetch(origin);
            }
            robotsEntries.put(origin, Optional.of(fetched));
            return Optional.empty();
        }
    }

    /** Why a URL waits whose request missed its slot's window: it asks for a new slot at once. */
    public static final String LATE = "rate: late for its slot";

    /** Whether the fetcher sent nothing because the request missed its slot's window ({@link FailureKind#LATE}). */
    public static boolean late(FetchResult result) {
        return result instanceof FetchResult.Failure f && f.kind() == FailureKind.LATE;
    }

    /**
     * How long before its slot a request is handed to the fetcher: the fetcher's own lead, plus the margin late sends
     * have taught ({@link LateMargin}). A fetcher that holds nothing (a lead of zero) is called at the slot: it would
     * send a request handed over early at once.
     */
    private Duration lead() {
        Duration own = fetcher.lead();
        return own.isZero() ? own : own.plus(lateMargin.get().duration());
    }

    /**
     * Now, rounded up to the millisecond: stores keep times to the millisecond, and a slot must read back exactly as
     * granted for {@code done} to find its in-flight place.
     */
    private Instant nowMillis() {
        return ceilMillis(clock.instant());
    }

    /**
     * Rounded up to the millisecond, as the store keeps times: every instant that a slot is computed from must read
     * back exactly as this session holds it, or a release by another session's copy would miss its lease.
     */
    private static Instant ceilMillis(Instant at) {
        Instant floor = at.truncatedTo(ChronoUnit.MILLIS);
        return floor.equals(at) ? at : floor.plusMillis(1);
    }
}
