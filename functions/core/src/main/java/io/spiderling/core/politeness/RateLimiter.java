package io.spiderling.core.politeness;

import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.politeness.RateDecision.Granted;
import io.spiderling.core.politeness.RateDecision.Reason;
import io.spiderling.core.politeness.RateDecision.Refused;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The per-site rate decision: Aragog's slot scheduler, plus a cap on fetches in flight, pacing by response time and
 * backoff after 429/503. Pure: each method maps a {@link SiteRate} (and the time, passed in) to a decision and a new
 * state, which the adapter stores with a conditional write on the version it read.
 *
 * <p><b>Slots.</b> The next slot is {@code max(now, lastSlot + interval + window, pausedUntil)} (the window is
 * below). A slot more than {@code maxDelay + window} away is refused, and the URL goes back to the frontier until
 * {@code slot − maxDelay − window}, the first moment at which asking again can succeed; a fetcher therefore never
 * sleeps longer than {@code maxDelay + window} for its turn (the window is added so that the fetcher that has just
 * taken a slot can still wait for the next one, as it could without a window). Asking for k slots in one write (an
 * invocation holding k URLs of the site) grants consecutive slots {@code slot₁, slot₁ + interval + window, …}, but
 * only those within {@code maxDelay} and only as many as there are free places in flight: possibly fewer than k, at
 * least one, or a refusal. The caller parks the URLs it got no slot for.
 *
 * <p><b>Send window.</b> A slot is not an instant but a window: its request must be written to the connection
 * within {@code window = sendWindow × interval} after the slot, or not at all ({@link #sendBy}; the fetcher checks
 * at the moment of writing and gives up with {@link FetchOutcome#LATE}, and the URL asks for a new slot).
 * Consecutive slots are {@code interval + window} apart, so two requests that each went out within their windows
 * reach the site at least one interval apart, however late either was within its own: a busy fetcher (a loaded
 * core, a GC pause, another invocation of the same site) can delay a request but never bring two closer than the
 * interval. The window costs {@code sendWindow} of the site's rate (at most {@link #MAX_WINDOW_SHARE} where the
 * shortest window applies); without it, a request sent late by δ would be followed by the next one, on time, only
 * {@code interval − δ} later.
 *
 * <p><b>In flight.</b> Every granted slot is a lease that the fetcher ends with {@link #release} once the fetch is
 * done (whatever its outcome), and that lapses on its own {@code lease} after its slot, so a fetcher that crashed
 * or timed out holds its place for at most that long. Leases are identified by their slot, which is unique per site
 * because slots strictly increase. At {@code maxInFlight} live leases, acquiring is refused until one interval later
 * (or until the next slot is within reach, if that is later): a lease usually ends well before it lapses.
 *
 * <p><b>Sites allowed more get more places</b> ({@link #maxInFlight}). A site's places follow its base interval: the
 * default {@code maxInFlight} (2), unless an override allows it more than the default rate, R requests a second;
 * then {@code ceil(R × heldPerRequest)}, at least the default and at most {@code maxInFlightCap} (50). A request
 * holds its place for more than the answer (the fetcher's lead before the slot, storing the page after), about 1 s
 * with a site answering in 200 ms, so 2 places allowed such a site about 2 requests a second whatever its override;
 * 50 places let it reach 50. The fetch queue gives the site as many message groups ({@code Lanes}), so that as many
 * fetchers can hold them. A crawl delay that raises the base lowers the places with it.
 *
 * <p><b>Effective interval.</b>
 * <pre>
 *   interval(state) = max(base, min(maxInterval, max(state.interval, responseFactor × rt / maxInFlight)))
 *   rt ← rt + smoothing × (sample − rt)       (the first sample is taken as it is)
 * </pre>
 * where {@code rt} is an exponentially weighted moving average of the durations of the site's answers (not of
 * failures to get one), in milliseconds, and {@code maxInFlight} is the site's ({@link #maxInFlight}). With the
 * default factor 2 and 2 in flight, a site answering in 1.5 s is asked once every 1.5 s: on average our requests hold
 * at most half of the connections we may hold at once (one of two), however slow the site gets (until the cap). A site
 * answering in 200 ms can thus be asked 5 times a second with two requests overlapping; one allowed 50 a second, with
 * 50 places, 250 times (its base holds it to 50), and it keeps its 50 while it answers within 500 ms. The
 * base (configured interval raised to robots.txt's crawl delay) is a floor that nothing lowers, and only it may exceed
 * {@code maxInterval}.
 *
 * <p><b>Throttling and recovery</b> (multiplicative increase, stepwise decrease). Each 429, or 5xx with a
 * Retry-After, doubles the earned interval, up to {@code maxInterval}, and pauses the site: for its
 * {@code Retry-After}, or without one for {@code defaultPause × 2^(throttles − 1)} (60 s, 2 min, 4 min, … for
 * consecutive 429s), in both cases capped at {@code maxPause} after adding {@code pauseJitter × jitter} of itself.
 * Each run of {@code recoverAfter} successful answers halves the earned interval again, never below the base; an error
 * resets the run. From the 60 s cap, six halvings of ten successes each bring a site back to 1 s.
 *
 * <p><b>Failures are evidence only together</b> (ADR 8). A server error without Retry-After, or a failure to get an
 * answer, raises the earned interval to twice the base but does not pause the site: one broken URL says little about
 * the site, and pausing would hold up all its other pages. The URL is remembered in the failure streak
 * ({@link SiteRate#failing()}); when {@code failuresToPause} different URLs have failed with no proper answer in
 * between, the site pauses for {@code failurePause} (10 s, doubling while it repeats) and its interval doubles, and
 * the streak starts over. Any proper answer clears it. The same URL failing again (its retries) adds nothing.
 *
 * <p><b>Why a site is paused</b> goes into the same state as the pause ({@link SiteRate#pauseCause()}): the status
 * and Retry-After of a throttle, or the number of URLs and the last failure of a streak. It costs no write of its
 * own, and lets a status report name the cause ({@code paused by 429}) instead of guessing.
 */
public final class RateLimiter {

    /**
     * The shortest send window of a slot (see {@link #window}), for a site whose interval is at least
     * {@code MIN_WINDOW / MAX_WINDOW_SHARE} (200 ms).
     */
    public static final Duration MIN_WINDOW = Duration.ofMillis(25);

    /**
     * The most of a fast site's interval that {@link #MIN_WINDOW} may take: a window costs the site that share of its
     * rate, so a site allowed 50 requests a second gets a 3 ms window and 43 requests a second, not 25.
     */
    public static final double MAX_WINDOW_SHARE = 0.125;

    /**
     * The most places in flight, and so message groups, of one site: a group id leaves four characters for its
     * {@code #k} suffix ({@link io.spiderling.core.url.SiteKey#messageGroupId}).
     */
    public static final int MAX_LANES = 999;

    /** The limiter's settings, by concern. */
    public record Settings(Spacing spacing, Admission admission, Pacing pacing, Pausing pausing) {

        public static final Settings DEFAULTS = new Settings(
                new Spacing(Duration.ofSeconds(1), Duration.ofSeconds(60), 0.1),
                new Admission(Duration.ofSeconds(1), 2, Duration.ofMinutes(2), 50, Duration.ofSeconds(1)),
                new Pacing(2.0, 0.3, 10),
                new Pausing(Duration.ofSeconds(60), Duration.ofMinutes(10), 0.2, 3, Duration.ofSeconds(10)));

        public Settings {
            Objects.requireNonNull(spacing, "spacing");
            Objects.requireNonNull(admission, "admission");
            Objects.requireNonNull(pacing, "pacing");
            Objects.requireNonNull(pausing, "pausing");
        }

        /**
         * How far apart a site's requests go.
         *
         * @param defaultInterval spacing for a site with no override: 1 s, StormCrawler's default, is 1 request per
         *     second
         * @param maxInterval the slowest that throttling and pacing make a site (a crawl delay may be slower)
         * @param sendWindow how late after its slot a request may still go out, as a fraction of the interval, in
         *     [0, 1]; slots are that much further apart (see the class comment)
         */
        public record Spacing(Duration defaultInterval, Duration maxInterval, double sendWindow) {
            public Spacing {
                positive(defaultInterval, "defaultInterval");
                positive(maxInterval, "maxInterval");
                if (maxInterval.compareTo(defaultInterval) < 0) {
                    throw new IllegalArgumentException("maxInterval " + maxInterval + " is below defaultInterval "
                            + defaultInterval);
                }
                if (!(sendWindow >= 0 && sendWindow <= 1)) {
                    throw new IllegalArgumentException("sendWindow must be in [0, 1], was " + sendWindow);
                }
            }
        }

        /**
         * Who gets a slot now.
         *
         * @param maxDelay the longest a fetcher waits for its slot; a later slot is refused (Aragog: 1 s)
         * @param maxInFlight most fetches of one site at once, unless an override allows it more (see
         *     {@link RateLimiter#maxInFlight})
         * @param lease how long a granted slot counts as in flight without a release; above the fetch's total timeout
         * @param maxInFlightCap most fetches at once of a site whose override allows it more: a ceiling on the
         *     places, and so on the fetch queue's message groups, that one site can take; {@code maxInFlight} or more
         * @param heldPerRequest how long one request holds its place in flight, from its grant to its release (the
         *     fetcher's lead, the answer, storing it): a site allowed R requests a second gets
         *     {@code ceil(R × heldPerRequest)} places, and keeps its rate while it answers within
         *     {@code heldPerRequest / responseFactor}
         */
        public record Admission(Duration maxDelay, int maxInFlight, Duration lease, int maxInFlightCap,
                Duration heldPerRequest) {
            public Admission {
                Objects.requireNonNull(maxDelay, "maxDelay");
                if (maxDelay.isNegative()) {
                    throw new IllegalArgumentException("maxDelay must not be negative, was " + maxDelay);
                }
                if (maxInFlight < 1) {
                    throw new IllegalArgumentException("maxInFlight must be at least 1, was " + maxInFlight);
                }
                positive(lease, "lease");
                if (maxInFlightCap < maxInFlight || maxInFlightCap > MAX_LANES) {
                    throw new IllegalArgumentException("maxInFlightCap must be in [maxInFlight, " + MAX_LANES
                            + "], was " + maxInFlightCap + " with maxInFlight " + maxInFlight);
                }
                positive(heldPerRequest, "heldPerRequest");
            }

            /** An admission where no site gets more than {@code maxInFlight} places, whatever its override. */
            public Admission(Duration maxDelay, int maxInFlight, Duration lease) {
                this(maxDelay, maxInFlight, lease, maxInFlight, Duration.ofSeconds(1));
            }
        }

        /**
         * How the interval follows the site's answers.
         *
         * @param responseFactor interval per unit of smoothed response time
         * @param smoothing the weight of a new sample in the response-time average, in (0, 1]
         * @param recoverAfter successful answers in a row that halve a throttled interval
         */
        public record Pacing(double responseFactor, double smoothing, int recoverAfter) {
            public Pacing {
                if (!(responseFactor >= 0) || Double.isInfinite(responseFactor)) {
                    throw new IllegalArgumentException("responseFactor must be finite and >= 0, was "
                            + responseFactor);
                }
                if (!(smoothing > 0 && smoothing <= 1)) {
                    throw new IllegalArgumentException("smoothing must be in (0, 1], was " + smoothing);
                }
                if (recoverAfter < 1) {
                    throw new IllegalArgumentException("recoverAfter must be at least 1, was " + recoverAfter);
                }
            }
        }

        /**
         * How long a site pauses when it asks to, or fails.
         *
         * @param defaultPause the pause after a 429/503 without a readable Retry-After, doubled for each further one
         * @param maxPause the longest pause, whatever Retry-After asks for
         * @param pauseJitter the fraction of a pause added at random, in [0, 1]
         * @param failuresToPause different URLs failing in a row that pause the site
         * @param failurePause the pause those failures cause, doubled for each further one in a row: shorter than a
         *     throttle's, since the site asked for nothing and only needs time to recover
         */
        public record Pausing(Duration defaultPause, Duration maxPause, double pauseJitter, int failuresToPause,
                Duration failurePause) {
            public Pausing {
                positive(defaultPause, "defaultPause");
                positive(maxPause, "maxPause");
                if (!(pauseJitter >= 0 && pauseJitter <= 1)) {
                    throw new IllegalArgumentException("pauseJitter must be in [0, 1], was " + pauseJitter);
                }
                if (failuresToPause < 1) {
                    throw new IllegalArgumentException("failuresToPause must be at least 1, was " + failuresToPause);
                }
                positive(failurePause, "failurePause");
            }
        }

        /** These settings with another pause after a 429 without Retry-After. */
        public Settings withDefaultPause(Duration pause) {
            return new Settings(spacing, admission, pacing, new Pausing(pause, pausing.maxPause(),
                    pausing.pauseJitter(), pausing.failuresToPause(), pausing.failurePause()));
        }

        /**
         * These settings with another ceiling on the places in flight of a site whose override allows it more (1 or
         * {@code maxInFlight}: none gets more than {@code maxInFlight}).
         */
        public Settings withMaxInFlightCap(int cap) {
            return new Settings(spacing, new Admission(admission.maxDelay(), admission.maxInFlight(),
                    admission.lease(), cap, admission.heldPerRequest()), pacing, pausing);
        }

        /** These settings with another send window (a fraction of the interval, in [0, 1]). */
        public Settings withSendWindow(double window) {
            return new Settings(new Spacing(spacing.defaultInterval(), spacing.maxInterval(), window), admission,
                    pacing, pausing);
        }

        private static void positive(Duration d, String name) {
            Objects.requireNonNull(d, name);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + d);
            }
        }
    }

    private final Settings settings;

    private RateLimiter(Settings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public static RateLimiter create() {
        return new RateLimiter(Settings.DEFAULTS);
    }

    public static RateLimiter create(Settings settings) {
        return new RateLimiter(settings);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * The interval a well-behaved site gets: its override, else the default, raised to the robots.txt crawl delay
     * (which the robots policy has already capped).
     */
    public Duration baseInterval(String siteKey, RateOverrides overrides, Optional<Duration> crawlDelay) {
        Duration configured = overrides.intervalFor(siteKey, settings.spacing().defaultInterval());
        return crawlDelay.filter(d -> d.compareTo(configured) > 0).orElse(configured);
    }

    /** A new site's state with this base interval. */
    public SiteRate initial(Duration baseInterval) {
        return SiteRate.initial(baseInterval);
    }

    /**
     * The state with a new base interval, for when the override or the crawl delay changed since it was stored. An
     * unthrottled site moves to the new base at once; a throttled one keeps its earned interval unless the new base
     * is above it, and recovers toward the new base. Returns {@code state} itself when nothing changes.
     */
    public SiteRate rebase(SiteRate state, Duration baseInterval) {
        if (baseInterval.equals(state.baseInterval())) {
            return state;
        }
        boolean throttled = state.interval().compareTo(state.baseInterval()) > 0;
        Duration interval = throttled ? max(state.interval(), baseInterval) : baseInterval;
        return SiteRate.builder().lastSlot(state.lastSlot()).interval(interval).baseInterval(baseInterval)
                .pausedUntil(state.pausedUntil()).pauseCause(state.pauseCause()).throttles(state.throttles())
                .successes(state.successes()).responseTime(state.responseTime()).inFlight(state.inFlight())
                .failing(state.failing()).version(state.version() + 1).build();
    }

    /**
     * The most fetches at once of a site with this base interval: {@code maxInFlight}, or for a site whose override
     * allows it more than the default rate (a base below {@code defaultInterval}) {@code ceil(R × heldPerRequest)} at
     * R requests a second, up to {@code maxInFlightCap}. See the class comment.
     */
    public int maxInFlight(Duration baseInterval) {
        Settings.Admission admission = settings.admission();
        if (baseInterval.compareTo(settings.spacing().defaultInterval()) >= 0) {
            return admission.maxInFlight();
        }
        long interval = Math.max(1, baseInterval.toMillis());
        long needed = (admission.heldPerRequest().toMillis() + interval - 1) / interval;
        return (int) Math.max(admission.maxInFlight(), Math.min(admission.maxInFlightCap(), needed));
    }

    /** The spacing between this site's slots now: see the class comment for the formula. */
    public Duration interval(SiteRate state) {
        Duration paced = max(state.interval(), scale(state.responseTime(),
                settings.pacing().responseFactor() / maxInFlight(state.baseInterval())));
        return max(state.baseInterval(), min(settings.spacing().maxInterval(), paced));
    }

    /**
     * Asks for up to {@code k} slots at {@code now}. See the class comment for when slots are granted, how many, and
     * when a refused caller should ask again.
     *
     * @throws IllegalArgumentException if {@code k} is less than 1
     */
    public RateDecision acquire(SiteRate state, Instant now, int k) {
        return acquire(state, now, Duration.ZERO, k);
    }

    /**
     * Asks for up to {@code k} slots, none earlier than {@code lead} from {@code now}: a fetcher that needs that long
     * to be ready to write at a slot (a connection to open, a thread to wake) asks with it. The slots and the state
     * are those of {@link #acquire(SiteRate, Instant, int)} at {@code now + lead}; but when the site was free before
     * the first slot, its request may go out from when the site was free, and not before {@code now}
     * ({@link Granted#opens}): an interval after the previous slot's window, so still never closer than the interval
     * to the request before, while the next slot stays an interval after this one's window. An idle site's request
     * therefore goes out as soon as the fetcher is ready instead of {@code lead} later.
     *
     * @throws IllegalArgumentException if {@code k} is less than 1 or {@code lead} is negative
     */
    public RateDecision acquire(SiteRate state, Instant now, Duration lead, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, was " + k);
        }
        if (lead.isNegative()) {
            throw new IllegalArgumentException("lead must not be negative, was " + lead);
        }
        Instant asked = now.plus(lead);
        Duration window = window(state);
        Duration every = interval(state).plus(window);
        // The longest wait grows by the window too: a fetcher that just took a slot finds the next one within reach.
        Duration longest = settings.admission().maxDelay().plus(window);
        Instant free = latest(state.lastSlot().plus(every), state.pausedUntil());
        Instant first = latest(asked, free);
        Instant reachable = first.minus(longest);
        List<Instant> inFlight = live(state, asked);
        int places = maxInFlight(state.baseInterval()) - inFlight.size();
        if (places <= 0) {
            return new Refused(latest(reachable, asked.plus(every)), Reason.IN_FLIGHT, state);
        }
        Instant horizon = asked.plus(longest);
        List<Instant> slots = new ArrayList<>();
        for (Instant slot = first; slots.size() < Math.min(k, places) && !slot.isAfter(horizon);
                slot = slot.plus(every)) {
            slots.add(slot);
        }
        if (slots.isEmpty()) {
            boolean paused = state.pausedUntil().equals(first) && first.isAfter(state.lastSlot().plus(every));
            return new Refused(reachable, paused ? Reason.PAUSED : Reason.TOO_SOON, state);
        }
        inFlight.addAll(slots);
        return new Granted(slots, latest(now, free), state.next(c -> c.lastSlot(slots.getLast()).inFlight(inFlight)));
    }

    /**
     * The last moment at which the request of {@code slot} may be written to the connection: the slot plus its
     * window ({@code sendWindow × interval}). A request not written by then is not sent at all; the next slot is an
     * interval past this deadline, so the site never sees two requests closer than the interval.
     */
    public Instant sendBy(SiteRate state, Instant slot) {
        return slot.plus(window(state));
    }

    /**
     * The slack of a slot: {@code sendWindow × interval}, to the millisecond, but at least {@link #MIN_WINDOW} or
     * {@link #MAX_WINDOW_SHARE} of the interval, whichever is shorter (none when {@code sendWindow} is 0). How late a
     * fetcher writes is a matter of milliseconds whatever the site's rate (a timer, a busy event loop), so a tenth of a
     * 100 ms interval would leave many requests late and never sent; but the window also spaces the slots, and 25 ms
     * on a 20 ms interval would halve the rate of a site allowed 50 requests a second. Its requests are held on the
     * fetcher's event loop until the slot ({@code PageFetcher.lead()}), which writes them within a few milliseconds.
     */
    private Duration window(SiteRate state) {
        Duration interval = interval(state);
        if (settings.spacing().sendWindow() == 0) {
            return Duration.ZERO;
        }
        return max(scale(interval, settings.spacing().sendWindow()), min(MIN_WINDOW, scale(interval,
                MAX_WINDOW_SHARE)));
    }

    /**
     * Ends the lease of a granted slot, whatever the fetch's outcome. Releasing a slot that is not in flight (released
     * already, or lapsed and dropped) returns {@code state} itself, so a repeated release needs no write.
     */
    public SiteRate release(SiteRate state, Instant slot) {
        if (!state.inFlight().contains(slot)) {
            return state;
        }
        List<Instant> inFlight = new ArrayList<>(state.inFlight());
        inFlight.remove(slot);
        return state.next(c -> c.inFlight(inFlight));
    }

    /**
     * The request of a slot reached the site only at {@code sent} (a cold connection, a busy fetcher): later slots
     * count from then, so the site never sees two requests closer than the interval, whatever the delay in between.
     */
    public SiteRate sentAt(SiteRate state, Instant sent) {
        if (!sent.isAfter(state.lastSlot())) {
            return state;
        }
        return state.next(c -> c.lastSlot(sent));
    }

    /**
     * Feeds one outcome to the state: {@link #onThrottled} for a 429 or a 5xx with Retry-After (reading it),
     * {@link #onFailure} for other server errors and failures to get an answer, {@link #onSuccess} for any other
     * answer (a 404 is no sign of load); a request the fetcher refused leaves the state alone. The sample is the
     * fetch's total duration.
     *
     * @param urlHash the URL that was asked, for the failure streak
     * @param jitter uniformly random in [0, 1)
     */
    public SiteRate onResult(SiteRate state, FetchResult result, String urlHash, Instant now, double jitter) {
        return switch (FetchOutcome.of(result)) {
            case THROTTLED -> {
                FetchResult.Response response = (FetchResult.Response) result;
                yield onThrottled(state, now, response.status(),
                        RetryAfter.parse(response.headers().get("retry-after"), now), jitter);
            }
            case OK, CLIENT_ERROR -> onSuccess(state, result.total());
            case SERVER_ERROR, TIMEOUT, CONNECT, DNS, TLS, IO ->
                    onFailure(state, urlHash, FetchOutcome.of(result), now, jitter);
            case BLOCKED, LATE -> state;
        };
    }

    /**
     * The site answered normally: the answer's duration joins the average, the run toward recovery grows, and the
     * failure streak ends.
     */
    public SiteRate onSuccess(SiteRate state, Duration responseTime) {
        int successes = Math.min(state.successes() + 1, settings.pacing().recoverAfter());
        Duration interval = state.interval();
        if (successes == settings.pacing().recoverAfter() && interval.compareTo(state.baseInterval()) > 0) {
            interval = max(state.baseInterval(), interval.dividedBy(2));
            successes = 0;
        }
        Duration earned = interval;
        int run = successes;
        return state.next(c -> c.interval(earned).throttles(0).successes(run)
                .responseTime(smooth(state.responseTime(), responseTime)).failing(List.of()));
    }

    /**
     * A server error without Retry-After, or no answer: the run toward recovery starts over, the earned interval is
     * raised to at least twice the base (once, not for every failure: one URL failing again says nothing new), and
     * the URL joins the failure streak. The time it took does not join the response-time average: one page that hangs
     * for its whole timeout would otherwise set the pace of the site's every other page (pacing is for the answers
     * the site gives). The {@code failuresToPause}-th different URL in the streak pauses the site for
     * {@code failurePause × 2^(pauses in a row − 1)} and doubles its interval, and starts a new streak.
     *
     * @param outcome how the URL failed: one whose {@link FetchOutcome#siteFailure()} holds, named in the
     *     {@link PauseCause.Failures} of a pause
     * @param jitter uniformly random in [0, 1)
     * @throws IllegalArgumentException if {@code outcome} is not a failure of the site
     */
    public SiteRate onFailure(SiteRate state, String urlHash, FetchOutcome outcome, Instant now, double jitter) {
        Jitter.require(jitter);
        if (!outcome.siteFailure()) {
            throw new IllegalArgumentException(outcome + " is not a failure of the site");
        }
        List<String> failing = new ArrayList<>(state.failing());
        if (!failing.contains(urlHash)) {
            failing.add(urlHash);
        }
        Duration widened = min(settings.spacing().maxInterval(),
                max(state.interval(), state.baseInterval().multipliedBy(2)));
        Duration interval = max(widened, state.baseInterval());
        if (failing.size() < settings.pausing().failuresToPause()) {
            return state.next(c -> c.interval(interval).successes(0).failing(failing));
        }
        int throttles = nextThrottles(state);
        Instant until = now.plus(pause(doublings(settings.pausing().failurePause(), throttles - 1), jitter));
        PauseCause cause = new PauseCause.Failures(failing.size(), outcome);
        return state.next(c -> paused(c, state, until, cause).interval(doubled(state)).successes(0)
                .failing(List.of()).throttles(throttles));
    }

    /**
     * The site asked us to slow down (429, or a 5xx with Retry-After): double the earned interval and pause the
     * site, as the class comment describes. A pause never shortens one already in place.
     *
     * @param status the answer's HTTP status (429, or the 5xx that came with a Retry-After), for its
     *     {@link PauseCause.Throttled}
     * @param retryAfter the wait the answer asked for (see {@link RetryAfter}); empty when absent or unreadable
     * @param jitter uniformly random in [0, 1)
     */
    public SiteRate onThrottled(SiteRate state, Instant now, int status, Optional<Duration> retryAfter,
            double jitter) {
        Jitter.require(jitter);
        int throttles = nextThrottles(state);
        Duration asked = retryAfter.orElseGet(() -> doublings(settings.pausing().defaultPause(), throttles - 1));
        Instant until = now.plus(pause(asked, jitter));
        PauseCause cause = new PauseCause.Throttled(status, retryAfter);
        return state.next(c -> paused(c, state, until, cause).interval(doubled(state)).throttles(throttles)
                .successes(0).failing(List.of()));
    }

    /**
     * A pause until {@code until} for {@code cause}, unless the pause in place ends later (a pause never shortens
     * one in place): then that pause and its cause stay, since they are what holds the site.
     */
    private static SiteRate.Change paused(SiteRate.Change change, SiteRate state, Instant until, PauseCause cause) {
        return until.isAfter(state.pausedUntil()) ? change.pause(until, cause) : change;
    }

    /** The pauses in a row, this one included (saturating). */
    private static int nextThrottles(SiteRate state) {
        return state.throttles() == Integer.MAX_VALUE ? Integer.MAX_VALUE : state.throttles() + 1;
    }

    /** The earned interval doubled for a pause, up to {@code maxInterval}, never below the base. */
    private Duration doubled(SiteRate state) {
        return max(min(settings.spacing().maxInterval(), max(state.interval(), state.baseInterval()).multipliedBy(2)),
                state.baseInterval());
    }

    /** A pause of {@code asked}, capped at {@code maxPause} after adding up to {@code pauseJitter} of itself. */
    private Duration pause(Duration asked, double jitter) {
        Settings.Pausing pausing = settings.pausing();
        return min(pausing.maxPause(), scale(min(pausing.maxPause(), asked), 1 + pausing.pauseJitter() * jitter));
    }

    /** The leases that have not lapsed at {@code now}, earliest first. */
    private List<Instant> live(SiteRate state, Instant now) {
        List<Instant> live = new ArrayList<>();
        for (Instant slot : state.inFlight()) {
            if (slot.plus(settings.admission().lease()).isAfter(now)) {
                live.add(slot);
            }
        }
        return live;
    }

    private Duration smooth(Duration average, Duration sample) {
        if (average.isZero()) {
            return sample.isNegative() ? Duration.ZERO : sample;
        }
        long avg = average.toMillis();
        long next = avg + Math.round(settings.pacing().smoothing() * (Math.max(0, sample.toMillis()) - avg));
        return Duration.ofMillis(Math.max(0, next));
    }

    /** {@code base × 2^times}, saturating well before overflow (callers cap the result). */
    private static Duration doublings(Duration base, int times) {
        return times >= 30 ? base.multipliedBy(1L << 30) : base.multipliedBy(1L << Math.max(0, times));
    }

    private static Duration scale(Duration d, double factor) {
        return Duration.ofMillis(Math.round(d.toMillis() * factor));
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
