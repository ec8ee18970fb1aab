package io.spiderling.core.robots;

import io.spiderling.core.robots.RobotsFetchOutcome.Failure;
import io.spiderling.core.robots.RobotsFetchOutcome.Response;
import io.spiderling.core.url.RequestUrl;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The robots.txt rules of RFC 9309 as pure functions of a fetch outcome, the cached entry and the time.
 *
 * <p>The caller's loop, per URL: load the origin's entry; if {@link #needsFetch} says so, fetch {@code /robots.txt}
 * (following redirects), store {@link #onFetched}'s new entry; then act on {@link #decide}. Right after
 * {@code onFetched}, {@code decide} never answers {@link RobotsVerdict.FetchFirst} for the same time.
 *
 * <p>While the rules are undefined (5xx, 429, network failure) nothing is fetched on their account. A last good copy
 * stands in if it was fetched within the {@link Settings#ttl() TTL}; otherwise the origin's URLs wait for the next
 * retry, which backs off exponentially, and fail as {@value RobotsVerdict#UNREACHABLE} once the failures have lasted
 * {@link Settings#unreachableAfter()}. RFC 9309 section 2.3.1.4 lets a crawler treat robots.txt that stays
 * unreachable "for a reasonably long period of time (for example, 30 days)" as unavailable, i.e. allow everything; a
 * batch fetcher cannot keep clients waiting that long, and we would rather report that we could not ask than fetch
 * against rules we never saw, so the answer is a distinct failure, never an allow.
 *
 * <p>crawler-commons parses (the group of our agent token or else {@code *}); {@link RobotsRules} matches (longest
 * match wins, Allow wins a tie, {@code *} and {@code $}) in time linear in the path. crawler-commons' status handling
 * is not used: it allows everything after a 429, which RFC 9309 counts as a server error, and it disallows everything
 * after a Crawl-delay above a fixed maximum, where this policy caps the delay instead.
 */
public final class RobotsPolicy {

    /** RFC 9309 section 2.5: the parsing limit "MUST be at least 500 kibibytes". */
    public static final int MIN_PARSE_LIMIT = 500 * 1024;

    /** DynamoDB's item size limit, names and values of all attributes together. */
    public static final int DYNAMODB_ITEM_LIMIT = 400 * 1024;

    /**
     * @param agent the product token matched against {@code User-agent} lines, case-insensitively; RFC 9309 allows
     *     letters, {@code _} and {@code -}
     * @param maxBodyBytes how much of a robots.txt body is parsed; RFC 9309 requires at least 500 KiB
     * @param maxStoredBytes the largest compressed text kept in an entry; the text is cut further to fit
     * @param maxRedirects a redirect received after this many hops means "unavailable" (RFC 9309 section 2.3.1.2)
     * @param minFreshness the shortest time a copy is trusted, whatever Cache-Control asks
     * @param maxFreshness the longest time a copy is trusted; RFC 9309 section 2.4 says at most 24 hours
     * @param ttl how long a copy may stand in for undefined rules, and how long an idle origin's entry lives
     * @param backoffBase the wait after the first failure; it doubles with each further one
     * @param backoffCap the longest wait between robots.txt retries
     * @param unreachableAfter how long failures may last, with no good copy, before URLs fail
     * @param crawlDelayCap the longest Crawl-delay honoured
     */
    public record Settings(String agent, int maxBodyBytes, int maxStoredBytes, int maxRedirects,
            Duration minFreshness, Duration maxFreshness, Duration ttl, Duration backoffBase, Duration backoffCap,
            Duration unreachableAfter, Duration crawlDelayCap) {

        // before DEFAULTS, whose construction uses it
        private static final Pattern PRODUCT_TOKEN = Pattern.compile("[A-Za-z_-]+");

        /**
         * The defaults, and why:
         * <ul>
         *   <li>agent {@code spiderling}, the product token of our User-Agent;</li>
         *   <li>500 KiB parsed, the RFC's minimum, which no sensible robots.txt comes near;</li>
         *   <li>350,000 compressed bytes stored, leaving about 50 KB of the 400 KB item for the other attributes;</li>
         *   <li>5 redirects, the RFC's number;</li>
         *   <li>fresh for 5 minutes to 24 hours: 24 hours is the RFC's ceiling, and the 5-minute floor keeps a
         *   {@code no-cache} robots.txt from being fetched before every URL of its site;</li>
         *   <li>a 7-day TTL, so a known copy rides out a long weekend's outage and idle origins disappear;</li>
         *   <li>backoff from 1 minute, doubling, capped at 1 hour: quick recovery from a blip, at most one robots.txt
         *   request an hour to a site that is down;</li>
         *   <li>unreachable after 6 hours: long enough for most maintenance windows, short enough that a batch gets
         *   its answer the same working day;</li>
         *   <li>Crawl-delay honoured up to 30 seconds: common values are 1 to 10 seconds, and at 30 a 100-URL batch on
         *   one site still finishes within the hour.</li>
         * </ul>
         */
        public static final Settings DEFAULTS = new Settings("spiderling", MIN_PARSE_LIMIT, 350_000, 5,
                Duration.ofMinutes(5), Duration.ofHours(24), Duration.ofDays(7), Duration.ofMinutes(1),
                Duration.ofHours(1), Duration.ofHours(6), Duration.ofSeconds(30));

        public Settings {
            Objects.requireNonNull(agent, "agent");
            if (!PRODUCT_TOKEN.matcher(agent).matches()) {
                throw new IllegalArgumentException("agent must be a product token of letters, '_' and '-': " + agent);
            }
            agent = agent.toLowerCase(Locale.ROOT);
            if (maxBodyBytes < MIN_PARSE_LIMIT) {
                throw new IllegalArgumentException("maxBodyBytes must be at least 500 KiB (RFC 9309), was "
                        + maxBodyBytes);
            }
            if (maxStoredBytes < 1 || maxStoredBytes >= DYNAMODB_ITEM_LIMIT) {
                throw new IllegalArgumentException("maxStoredBytes must be below the 400 KB item limit, was "
                        + maxStoredBytes);
            }
            if (maxRedirects < 0) {
                throw new IllegalArgumentException("maxRedirects must not be negative, was " + maxRedirects);
            }
            requirePositive(minFreshness, "minFreshness");
            if (maxFreshness.compareTo(minFreshness) < 0 || maxFreshness.compareTo(Duration.ofHours(24)) > 0) {
                throw new IllegalArgumentException("maxFreshness must be between minFreshness and 24 hours, was "
                        + maxFreshness);
            }
            if (ttl.compareTo(maxFreshness) < 0) {
                throw new IllegalArgumentException("ttl must be at least maxFreshness, was " + ttl);
            }
            requirePositive(backoffBase, "backoffBase");
            if (backoffCap.compareTo(backoffBase) < 0) {
                throw new IllegalArgumentException("backoffCap must be at least backoffBase, was " + backoffCap);
            }
            requirePositive(unreachableAfter, "unreachableAfter");
            if (crawlDelayCap.isNegative()) {
                throw new IllegalArgumentException("crawlDelayCap must not be negative, was " + crawlDelayCap);
            }
        }

        public Settings withAgent(String newAgent) {
            return new Settings(newAgent, maxBodyBytes, maxStoredBytes, maxRedirects, minFreshness, maxFreshness, ttl,
                    backoffBase, backoffCap, unreachableAfter, crawlDelayCap);
        }

        private static void requirePositive(Duration value, String name) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
        }

        /** Names each of the 11 parts where the value is made. */
        public static Builder builder() {
            return new Builder();
        }

        /** A builder holding this value's parts, to change some of them. */
        public Builder toBuilder() {
            return new Builder()
                    .agent(agent)
                    .maxBodyBytes(maxBodyBytes)
                    .maxStoredBytes(maxStoredBytes)
                    .maxRedirects(maxRedirects)
                    .minFreshness(minFreshness)
                    .maxFreshness(maxFreshness)
                    .ttl(ttl)
                    .backoffBase(backoffBase)
                    .backoffCap(backoffCap)
                    .unreachableAfter(unreachableAfter)
                    .crawlDelayCap(crawlDelayCap);
        }

        /** The parts by name; {@link #build} checks them as the constructor does. */
        public static final class Builder {
            private String agent;
            private int maxBodyBytes;
            private int maxStoredBytes;
            private int maxRedirects;
            private Duration minFreshness;
            private Duration maxFreshness;
            private Duration ttl;
            private Duration backoffBase;
            private Duration backoffCap;
            private Duration unreachableAfter;
            private Duration crawlDelayCap;

            private Builder() {}

            public Builder agent(String value) {
                agent = value;
                return this;
            }

            public Builder maxBodyBytes(int value) {
                maxBodyBytes = value;
                return this;
            }

            public Builder maxStoredBytes(int value) {
                maxStoredBytes = value;
                return this;
            }

            public Builder maxRedirects(int value) {
                maxRedirects = value;
                return this;
            }

            public Builder minFreshness(Duration value) {
                minFreshness = value;
                return this;
            }

            public Builder maxFreshness(Duration value) {
                maxFreshness = value;
                return this;
            }

            public Builder ttl(Duration value) {
                ttl = value;
                return this;
            }

            public Builder backoffBase(Duration value) {
                backoffBase = value;
                return this;
            }

            public Builder backoffCap(Duration value) {
                backoffCap = value;
                return this;
            }

            public Builder unreachableAfter(Duration value) {
                unreachableAfter = value;
                return this;
            }

            public Builder crawlDelayCap(Duration value) {
                crawlDelayCap = value;
                return this;
            }

            public Settings build() {
                return new Settings(agent, maxBodyBytes, maxStoredBytes, maxRedirects, minFreshness, maxFreshness, ttl,
                        backoffBase, backoffCap, unreachableAfter, crawlDelayCap);
            }
        }
    }

    private final Settings settings;
    private final ParsedRules parsed;

    private RobotsPolicy(Settings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.parsed = new ParsedRules(settings.agent());
    }

    public static RobotsPolicy create() {
        return create(Settings.DEFAULTS);
    }

    public static RobotsPolicy create(Settings settings) {
        return new RobotsPolicy(settings);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * What a fetch outcome means (RFC 9309 section 2.3.1). A redirect as the final status is "unavailable" when it
     * came after {@link Settings#maxRedirects()} hops: the RFC lets a crawler that met more than five consecutive
     * redirects assume robots.txt is unavailable, which allows everything, and we take that option because the site
     * answered, only not usefully. A redirect the adapter stopped at earlier (one it could not follow) is a server
     * fault and "unreachable", as are informational and unknown codes.
     */
    public AccessResult classify(RobotsFetchOutcome outcome) {
        return switch (outcome) {
            case Failure failure -> AccessResult.UNREACHABLE;
            case Response response -> classify(response.status(), response.redirects());
        };
    }

    private AccessResult classify(int status, int redirects) {
        if (status >= 200 && status < 300) {
            return AccessResult.SUCCESS;
        }
        if (status >= 300 && status < 400) {
            return redirects >= settings.maxRedirects() ? AccessResult.UNAVAILABLE : AccessResult.UNREACHABLE;
        }
        if (status == 429) {
            return AccessResult.UNREACHABLE; // RFC 9309 section 2.3.1.4 lists 429 with the server errors
        }
        if (status >= 400 && status < 500) {
            return AccessResult.UNAVAILABLE;
        }
        return AccessResult.UNREACHABLE;
    }

    /**
     * The entry to store after fetching the origin's robots.txt at {@code now}.
     *
     * @param previous the stored entry, if any; ignored when expired, as if DynamoDB had already deleted it
     * @param jitter a uniform random number in [0, 1), taking up to half off the backoff so that origins which failed
     *     together do not retry together
     * @throws IllegalArgumentException if {@code previous} is of another origin, or {@code jitter} is out of range
     */
    public RobotsCacheEntry onFetched(RobotsOrigin origin, RobotsFetchOutcome outcome,
            Optional<RobotsCacheEntry> previous, Instant now, double jitter) {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(now, "now");
        requireJitter(jitter);
        previous.ifPresent(p -> requireSameOrigin(p, origin));
        Optional<RobotsCacheEntry> live = live(previous, now);
        Optional<Integer> status = outcome instanceof Response r ? Optional.of(r.status()) : Optional.empty();
        Instant expiresAt = now.plus(settings.ttl());
        if (live.isPresent() && live.get().expiresAt().isAfter(expiresAt)) {
            expiresAt = live.get().expiresAt(); // a clock behind the previous writer's never shortens the life
        }
        AccessResult result = classify(outcome);
        return switch (result) {
            case SUCCESS -> {
                Response response = (Response) outcome;
                RobotsText.Kept kept = RobotsText.keep(response.body(), settings.maxBodyBytes(),
                        settings.maxStoredBytes());
                RobotsRules rules = parsed.parseNew(origin, now, kept.text(), kept.gzip());
                yield RobotsCacheEntry.builder().origin(origin).lastResult(result).lastStatus(status).attemptedAt(now)
                        .fetchedAt(Optional.of(now)).freshUntil(Optional.of(now.plus(freshness(response))))
                        .expiresAt(expiresAt).robotsGzip(kept.gzip()).truncated(kept.truncated())
                        .consecutiveFailures(0).firstFailureAt(Optional.empty()).nextRetryAt(Optional.empty())
                        .crawlDelay(requestedDelay(rules)).build();
            }
            case UNAVAILABLE -> RobotsCacheEntry.builder().origin(origin).lastResult(result).lastStatus(status)
                    .attemptedAt(now).fetchedAt(Optional.of(now))
                    .freshUntil(Optional.of(now.plus(freshness(outcome)))).expiresAt(expiresAt)
                    .robotsGzip(new byte[0]).truncated(false).consecutiveFailures(0).firstFailureAt(Optional.empty())
                    .nextRetryAt(Optional.empty()).crawlDelay(Optional.empty()).build();
            case UNREACHABLE -> {
                int failures = live.map(RobotsCacheEntry::consecutiveFailures).orElse(0) + 1;
                Instant firstFailure = live.flatMap(RobotsCacheEntry::firstFailureAt).orElse(now);
                yield RobotsCacheEntry.builder().origin(origin).lastResult(result).lastStatus(status).attemptedAt(now)
                        .fetchedAt(live.flatMap(RobotsCacheEntry::fetchedAt))
                        .freshUntil(live.flatMap(RobotsCacheEntry::freshUntil)).expiresAt(expiresAt)
                        .robotsGzip(live.map(RobotsCacheEntry::robotsGzip).orElseGet(() -> new byte[0]))
                        .truncated(live.map(RobotsCacheEntry::truncated).orElse(false)).consecutiveFailures(failures)
                        .firstFailureAt(Optional.of(firstFailure))
                        .nextRetryAt(Optional.of(now.plus(backoff(failures, jitter))))
                        .crawlDelay(live.flatMap(RobotsCacheEntry::crawlDelay)).build();
            }
        };
    }

    /**
     * True when robots.txt should be fetched before deciding: no entry, an expired one, a stale copy, or a failure
     * whose retry time has come. A fresh copy is trusted, failing or not.
     */
    public boolean needsFetch(Optional<RobotsCacheEntry> entry, Instant now) {
        Optional<RobotsCacheEntry> live = live(entry, now);
        if (live.isEmpty()) {
            return true;
        }
        RobotsCacheEntry e = live.get();
        if (e.fresh(now)) {
            return false;
        }
        return e.consecutiveFailures() == 0 || retryDue(e, now);
    }

    /**
     * Whether {@code url} may be fetched at {@code now}, by the entry of its origin.
     *
     * @param url the URL as it is sent: the rules are matched against its request-target ({@link RequestUrl#target()},
     *     the path and query exactly as serialized, in the order written)
     * @throws IllegalArgumentException if the entry is of another origin
     */
    public RobotsVerdict decide(Optional<RobotsCacheEntry> entry, RequestUrl url, Instant now) {
        RobotsOrigin origin = RobotsOrigin.of(url);
        entry.ifPresent(e -> requireSameOrigin(e, origin));
        Optional<RobotsCacheEntry> live = live(entry, now);
        if (live.isEmpty()) {
            return new RobotsVerdict.FetchFirst();
        }
        RobotsCacheEntry e = live.get();
        if (e.fresh(now)) {
            return byCopy(e, url);
        }
        if (e.consecutiveFailures() == 0) {
            return new RobotsVerdict.FetchFirst(); // stale: fetch again, keeping the copy in case that fails
        }
        if (e.hasCopy() && now.isBefore(e.fetchedAt().orElseThrow().plus(settings.ttl()))) {
            return byCopy(e, url); // the last good copy stands in for undefined rules
        }
        if (retryDue(e, now)) {
            return new RobotsVerdict.FetchFirst();
        }
        if (!now.isBefore(e.firstFailureAt().orElseThrow().plus(settings.unreachableAfter()))) {
            return new RobotsVerdict.Unreachable(new RobotsOutage(e.origin().robotsUrl(), e.lastStatus(),
                    e.consecutiveFailures(), e.firstFailureAt().orElseThrow(), e.nextRetryAt().orElseThrow()));
        }
        return new RobotsVerdict.Wait(e.nextRetryAt().orElseThrow());
    }

    /**
     * The wait after the {@code consecutiveFailures}-th failure in a row: {@code backoffBase × 2^(n−1)}, capped at
     * {@code backoffCap}, less {@code jitter / 2} of it. With no jitter: 1, 2, 4, … minutes, then 1 hour.
     */
    public Duration backoff(int consecutiveFailures, double jitter) {
        if (consecutiveFailures < 1) {
            throw new IllegalArgumentException("consecutiveFailures must be at least 1, was " + consecutiveFailures);
        }
        requireJitter(jitter);
        Duration wait = settings.backoffBase();
        for (int i = 1; i < consecutiveFailures && wait.compareTo(settings.backoffCap()) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        if (wait.compareTo(settings.backoffCap()) > 0) {
            wait = settings.backoffCap();
        }
        long millis = wait.toMillis();
        return Duration.ofMillis(Math.max(1, millis - (long) (millis * jitter / 2)));
    }

    private RobotsVerdict byCopy(RobotsCacheEntry entry, RequestUrl url) {
        if (entry.robotsGzip().length == 0) {
            return new RobotsVerdict.Allowed(Duration.ZERO); // unavailable, or an empty file: no rules
        }
        RobotsRules rules = rules(entry);
        RobotsRules.Decision decision = rules.decide(url.target(), new RobotsRules.Work());
        if (!decision.allowed()) {
            return new RobotsVerdict.Disallowed(refusal(entry, rules, decision.rule()));
        }
        Duration delay = requestedDelay(rules).orElse(Duration.ZERO);
        return new RobotsVerdict.Allowed(delay.compareTo(settings.crawlDelayCap()) > 0 ? settings.crawlDelayCap()
                : delay);
    }

    /** What a refusal by the rule at {@code rule} of an entry's copy rests on. */
    private RobotsRefusal refusal(RobotsCacheEntry entry, RobotsRules rules, int rule) {
        boolean byRule = rule != RobotsRules.NO_RULE;
        return new RobotsRefusal(entry.origin().robotsUrl(),
                byRule ? Optional.of(rules.describe(rule)) : Optional.empty(),
                byRule ? rules.lineOf(rule, entry::robotsText, settings.agent()) : OptionalInt.empty(),
                new RobotsRefusal.Copy(entry.lastStatus(), entry.fetchedAt().orElseThrow(),
                        entry.consecutiveFailures() > 0));
    }

    /** The rules of an entry's copy, parsed once and kept for the next decisions on the same copy. */
    RobotsRules rules(RobotsCacheEntry entry) {
        return parsed.of(entry.origin(), entry.fetchedAt().orElseThrow(), entry.robotsGzip());
    }

    private static Optional<Duration> requestedDelay(RobotsRules rules) {
        long millis = rules.crawlDelayMillis();
        return millis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(millis));
    }

    /** How long a copy from this outcome is trusted: max-age if the response names one, within the bounds. */
    private Duration freshness(RobotsFetchOutcome outcome) {
        Duration asked = outcome instanceof Response r
                ? r.cacheControl().flatMap(CacheControl::maxAge).orElse(settings.maxFreshness())
                : settings.maxFreshness();
        if (asked.compareTo(settings.minFreshness()) < 0) {
            return settings.minFreshness();
        }
        return asked.compareTo(settings.maxFreshness()) > 0 ? settings.maxFreshness() : asked;
    }

    private static boolean retryDue(RobotsCacheEntry entry, Instant now) {
        return !now.isBefore(entry.nextRetryAt().orElseThrow());
    }

    private static Optional<RobotsCacheEntry> live(Optional<RobotsCacheEntry> entry, Instant now) {
        return entry.filter(e -> !e.expired(now));
    }

    private static void requireSameOrigin(RobotsCacheEntry entry, RobotsOrigin origin) {
        if (!entry.origin().equals(origin)) {
            throw new IllegalArgumentException("entry of " + entry.origin() + " used for " + origin);
        }
    }

    private static void requireJitter(double jitter) {
        if (!(jitter >= 0 && jitter < 1)) {
            throw new IllegalArgumentException("jitter must be in [0, 1), was " + jitter);
        }
    }
}
