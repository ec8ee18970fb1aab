package io.spiderling.core.politeness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.politeness.RateDecision.Granted;
import io.spiderling.core.politeness.RateDecision.Reason;
import io.spiderling.core.politeness.RateDecision.Refused;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;

class RateLimiterTest {

    /** Slots, leases, pacing, throttling, failures: with no send window, so slots are exactly an interval apart. */
    private static final String SEQUENCES = "/politeness/rate-limiter-sequences.csv";
    /** The send window, with the default settings: slots an interval plus a window apart, late sends. */
    private static final String SEND_WINDOW = "/politeness/rate-limiter-send-window.csv";
    private static final LocalDate DAY = LocalDate.parse("2026-11-22");
    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    private final RateLimiter limiter = RateLimiter.create();

    /**
     * One dynamic test per scenario of the sequence table: the steps of a scenario share one state, which a
     * {@code @CsvFileSource} row cannot carry, so the table is read here and replayed in order.
     */
    @TestFactory
    Stream<DynamicTest> acquire_whenSequenceTableScenario_givesExpectedSlotsAndState() throws IOException {
        return scenarios(SEQUENCES, RateLimiter.create(RateLimiter.Settings.DEFAULTS.withSendWindow(0)
                .withMaxInFlightCap(2)));
    }

    /** The allowance table: places, pacing and window of a site by its override, cap and response time. */
    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/politeness/rate-limiter-allowance.csv", numLinesToSkip = 1)
    void maxInFlight_whenOverrideTableCase_scalesPlacesPacingAndWindow(String name, int cap, String rate,
            Duration responseTime, int maxInFlight, Duration interval, Duration window, double perSecond,
            int grantedAtOnce) {
        RateLimiter capped = RateLimiter.create(RateLimiter.Settings.DEFAULTS.withMaxInFlightCap(cap));
        RateOverrides overrides = rate.equals("none") ? RateOverrides.none()
                : RateOverrides.parse("site.example " + rate);
        Duration base = capped.baseInterval("site.example", overrides, Optional.empty());
        SiteRate answered = capped.onSuccess(capped.initial(base), responseTime);

        assertEquals(maxInFlight, capped.maxInFlight(base), "places");
        assertEquals(interval, capped.interval(answered), "interval");
        assertEquals(window, Duration.between(NOW, capped.sendBy(answered, NOW)), "window");
        assertEquals(perSecond, Math.round(100_000.0 / interval.plus(window).toMillis()) / 100.0, "per second");
        Granted granted = assertInstanceOf(Granted.class, capped.acquire(answered, NOW, 1000));
        assertEquals(grantedAtOnce, granted.slots().size(), "slots at once");
        for (int i = 1; i < granted.slots().size(); i++) {
            assertEquals(interval.plus(window), Duration.between(granted.slots().get(i - 1), granted.slots().get(i)),
                    "slots an interval plus the window apart");
        }
    }

    /**
     * A site without an override decides as the limiter did before overrides raised places: every acquire, pacing
     * and window the same as with a cap of 2 (no site above 2 places), over throttles, failures and slow answers.
     */
    @ParameterizedTest
    @CsvSource({"PT1S", "PT2S", "PT30S"})
    void acquire_whenNoOverride_decidesAsWithTwoPlacesForEverySite(Duration base) {
        RateLimiter two = RateLimiter.create(RateLimiter.Settings.DEFAULTS.withMaxInFlightCap(2));
        SiteRate state = limiter.initial(base);
        Instant at = NOW;
        for (int step = 0; step < 60; step++) {
            assertEquals(2, limiter.maxInFlight(state.baseInterval()));
            assertEquals(two.interval(state), limiter.interval(state), "interval at step " + step);
            assertEquals(two.sendBy(state, at), limiter.sendBy(state, at), "window at step " + step);
            RateDecision decision = limiter.acquire(state, at, 3);
            assertEquals(two.acquire(state, at, 3), decision, "decision at step " + step);
            state = switch (step % 6) {
                case 0 -> decision instanceof Granted g ? g.next() : state;
                case 1 -> limiter.onSuccess(state, Duration.ofMillis(150 + 40L * step));
                case 2 -> state.inFlight().isEmpty() ? state : limiter.release(state, state.inFlight().getFirst());
                case 3 -> step % 4 == 3 ? limiter.onThrottled(state, at, 429, Optional.empty(), 0.5)
                        : limiter.onSuccess(state, Duration.ofMillis(90));
                case 4 -> limiter.onFailure(state, URL_A, FetchOutcome.TIMEOUT, at, 0.3);
                default -> decision instanceof Granted g ? g.next() : state;
            };
            at = at.plusMillis(700);
        }
    }

    @ParameterizedTest
    @CsvSource({"1", "1000"})
    void settings_whenMaxInFlightCapOutsideDefaultTo999_throws(int cap) {
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.Settings.DEFAULTS.withMaxInFlightCap(cap));
    }

    /** The send-window table, on the default settings: a request late within its window never crowds the next. */
    @TestFactory
    Stream<DynamicTest> acquire_whenSendWindowTableScenario_spacesSlotsAnIntervalPastTheWindow() throws IOException {
        return scenarios(SEND_WINDOW, RateLimiter.create());
    }

    private Stream<DynamicTest> scenarios(String table, RateLimiter tableLimiter) throws IOException {
        Map<String, List<Step>> scenarios = new LinkedHashMap<>();
        for (Step step : readSteps(table)) {
            scenarios.computeIfAbsent(step.scenario(), k -> new ArrayList<>()).add(step);
        }
        return scenarios.entrySet().stream()
                .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> replay(tableLimiter, e.getValue())));
    }

    @Test
    void acquire_whenKBelowOne_throws() {
        assertThrows(IllegalArgumentException.class, () -> limiter.acquire(SiteRate.initial(Duration.ofSeconds(1)),
                NOW, 0));
    }

    @Test
    void acquire_whenGranted_bumpsVersionAndRefusalLeavesStateAlone() {
        SiteRate state = SiteRate.initial(Duration.ofSeconds(1));

        Granted granted = assertInstanceOf(Granted.class, limiter.acquire(state, NOW, 1));
        Refused refused = assertInstanceOf(Refused.class, limiter.acquire(granted.next(), NOW.minusSeconds(5), 1));

        assertEquals(1, granted.next().version());
        assertSame(granted.next(), refused.state());
    }

    @Test
    void acquire_whenSameInputs_isSameDecision() {
        SiteRate state = limiter.onSuccess(SiteRate.initial(Duration.ofSeconds(1)), Duration.ofMillis(700));

        assertEquals(limiter.acquire(state, NOW, 2), limiter.acquire(state, NOW, 2));
    }

    @Test
    void acquire_whenMaxDelayIsZero_grantsOnlyWhenSlotIsDue() {
        RateLimiter.Settings defaults = RateLimiter.Settings.DEFAULTS;
        RateLimiter strict = RateLimiter.create(new RateLimiter.Settings(
                new RateLimiter.Settings.Spacing(Duration.ofSeconds(1), Duration.ofSeconds(60), 0.0),
                new RateLimiter.Settings.Admission(Duration.ZERO, 2, Duration.ofMinutes(2)), defaults.pacing(),
                defaults.pausing()));
        Granted first = assertInstanceOf(Granted.class, strict.acquire(strict.initial(Duration.ofSeconds(1)), NOW, 2));

        Refused refused = assertInstanceOf(Refused.class, strict.acquire(first.next(), NOW.plusMillis(500), 1));

        assertEquals(List.of(NOW), first.slots());
        assertEquals(new Refused(NOW.plusSeconds(1), Reason.TOO_SOON, first.next()), refused);
    }

    @Test
    void onResult_when429WithRetryAfter_pausesForIt() {
        SiteRate state = limiter.onResult(SiteRate.initial(Duration.ofSeconds(1)),
                response(429, Map.of("retry-after", "120")), URL_A, NOW, 0.0);

        assertEquals(NOW.plusSeconds(120), state.pausedUntil());
        assertEquals(Optional.of(new PauseCause.Throttled(429, Optional.of(Duration.ofSeconds(120)))),
                state.pauseCause());
        assertEquals(Duration.ofSeconds(2), limiter.interval(state));
    }

    @Test
    void onResult_when503WithoutRetryAfter_widensButDoesNotPause() {
        SiteRate state = limiter.onResult(SiteRate.initial(Duration.ofSeconds(1)), response(503, Map.of()), URL_A,
                NOW, 0.0);

        assertEquals(Instant.EPOCH, state.pausedUntil());
        assertEquals(Duration.ofSeconds(2), limiter.interval(state));
        assertEquals(List.of(URL_A), state.failing());
    }

    @Test
    void onResult_when503WithRetryAfter_pausesForIt() {
        SiteRate state = limiter.onResult(SiteRate.initial(Duration.ofSeconds(1)),
                response(503, Map.of("retry-after", "30")), URL_A, NOW, 0.0);

        assertEquals(NOW.plusSeconds(30), state.pausedUntil());
        assertEquals(Optional.of(new PauseCause.Throttled(503, Optional.of(Duration.ofSeconds(30)))),
                state.pauseCause());
        assertEquals(1, state.throttles());
    }

    @Test
    void onResult_whenThreeDifferentUrlsFailInARow_pausesTheSiteAndStartsANewStreak() {
        SiteRate state = SiteRate.initial(Duration.ofSeconds(1));
        for (String url : List.of(URL_A, URL_A, URL_B)) {
            state = limiter.onResult(state, response(500, Map.of()), url, NOW, 0.0);
        }
        assertEquals(Instant.EPOCH, state.pausedUntil(), "one URL retried and a second are not yet evidence");

        state = limiter.onResult(state, response(502, Map.of()), URL_C, NOW, 0.0);

        assertEquals(NOW.plusSeconds(10), state.pausedUntil());
        assertEquals(Optional.of(new PauseCause.Failures(3, FetchOutcome.SERVER_ERROR)), state.pauseCause());
        assertEquals(List.of(), state.failing());
    }

    @Test
    void onResult_whenAProperAnswerComesBetweenFailures_clearsTheStreak() {
        SiteRate state = limiter.onResult(SiteRate.initial(Duration.ofSeconds(1)), response(500, Map.of()), URL_A,
                NOW, 0.0);
        state = limiter.onResult(state, response(404, Map.of()), URL_B, NOW, 0.0);
        state = limiter.onResult(state, response(500, Map.of()), URL_B, NOW, 0.0);
        state = limiter.onResult(state, response(500, Map.of()), URL_C, NOW, 0.0);

        assertEquals(Instant.EPOCH, state.pausedUntil());
        assertEquals(List.of(URL_B, URL_C), state.failing());
    }

    @Test
    void onResult_whenTheFetcherRefusedTheRequest_leavesTheSiteAlone() {
        SiteRate state = SiteRate.initial(Duration.ofSeconds(1));

        assertSame(state, limiter.onResult(state, new FetchResult.Failure(FailureKind.BLOCKED, "private address",
                Duration.ZERO), URL_A, NOW, 0.0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"200", "304", "404", "410"})
    void onResult_whenAnswerIsNoSignOfLoad_countsAsSuccess(int status) {
        SiteRate state = limiter.onResult(SiteRate.initial(Duration.ofSeconds(1)), response(status, Map.of()),
                URL_A, NOW, 0.0);

        assertEquals(1, state.successes());
        assertEquals(Duration.ofMillis(100), state.responseTime());
    }

    @Test
    void onResult_whenServerErrorAfterSuccesses_restartsRecoveryRunWithoutPacingSample() {
        SiteRate state = limiter.onSuccess(SiteRate.initial(Duration.ofSeconds(1)), Duration.ofMillis(100));

        SiteRate after = limiter.onResult(state, response(500, Map.of()), URL_A, NOW, 0.0);

        assertEquals(0, after.successes());
        assertEquals(Duration.ofMillis(100), after.responseTime(), "the failure's duration is no sample");
    }

    @Test
    void onResult_whenTimeout_widensTheIntervalButDoesNotPaceTheSiteByIt() {
        SiteRate state = limiter.onResult(SiteRate.initial(Duration.ofSeconds(1)),
                new FetchResult.Failure(FailureKind.TIMEOUT, "read timed out", Duration.ofSeconds(10)), URL_A, NOW,
                0.0);

        assertEquals(Duration.ofSeconds(2), limiter.interval(state), "doubled, not 2 x the 10 s the page hung");
        assertEquals(Duration.ZERO, state.responseTime());
    }

    @ParameterizedTest
    @CsvSource({"-0.01", "1.0", "NaN"})
    void onThrottled_whenJitterOutsideUnitInterval_throws(double jitter) {
        assertThrows(IllegalArgumentException.class, () -> limiter.onThrottled(
                SiteRate.initial(Duration.ofSeconds(1)), NOW, 429, Optional.empty(), jitter));
    }

    @ParameterizedTest
    @CsvSource({"OK", "THROTTLED", "CLIENT_ERROR", "BLOCKED"})
    void onFailure_whenOutcomeIsNoFailureOfTheSite_throws(FetchOutcome outcome) {
        assertThrows(IllegalArgumentException.class, () -> limiter.onFailure(
                SiteRate.initial(Duration.ofSeconds(1)), URL_A, outcome, NOW, 0.0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "default,                       , , PT1S",
            "override-faster,               fast.example, , PT0.1S",
            "crawl-delay-slower,            , PT10S, PT10S",
            "crawl-delay-below-override,    slow.example, PT2S, PT4S",
            "crawl-delay-above-override,    fast.example, PT3S, PT3S",
            "crawl-delay-below-default,     , PT0.5S, PT1S",
    })
    void baseInterval_whenOverrideAndCrawlDelay_takesTheSlower(String rule, String overridden, Duration crawlDelay,
            Duration expected) {
        RateOverrides overrides = RateOverrides.parse("fast.example 10\nslow.example 0.25\n");
        String site = overridden == null ? "example.com" : overridden;

        assertEquals(expected, limiter.baseInterval(site, overrides, Optional.ofNullable(crawlDelay)), rule);
    }

    @Test
    void rebase_whenBaseUnchanged_returnsSameState() {
        SiteRate state = SiteRate.initial(Duration.ofSeconds(1));

        assertSame(state, limiter.rebase(state, Duration.ofSeconds(1)));
    }

    @Test
    void siteRate_whenInFlightOutOfOrder_keepsItSorted() {
        SiteRate state = SiteRate.builder().lastSlot(NOW).interval(Duration.ofSeconds(1))
                .baseInterval(Duration.ofSeconds(1)).pausedUntil(Instant.EPOCH).pauseCause(Optional.empty())
                .throttles(0).successes(0).responseTime(Duration.ZERO).inFlight(List.of(NOW, NOW.minusSeconds(1)))
                .failing(List.of()).version(3).build();

        assertEquals(List.of(NOW.minusSeconds(1), NOW), state.inFlight());
    }

    @Test
    void settings_whenMaxIntervalBelowDefault_throws() {
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter.Settings.Spacing(Duration.ofSeconds(2),
                Duration.ofSeconds(1), 0.1));
    }

    @ParameterizedTest
    @CsvSource({"-0.1", "1.5", "NaN"})
    void settings_whenSendWindowOutsideZeroToOne_throws(double window) {
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.Settings.DEFAULTS.withSendWindow(window));
    }

    private static final String URL_A = "a".repeat(64);
    private static final String URL_B = "b".repeat(64);
    private static final String URL_C = "c".repeat(64);

    private void replay(RateLimiter limiter, List<Step> steps) {
        SiteRate state = null;
        for (Step step : steps) {
            String where = step.scenario() + " (line " + step.line() + ": " + step.action() + " " + step.arg() + ")";
            int repeat = step.action().contains("*") ? Integer.parseInt(step.action().replaceAll(".*\\*", "")) : 1;
            String action = step.action().replaceAll("\\*.*", "");
            for (int i = 0; i < repeat; i++) {
                state = apply(limiter, state, action, step, where);
            }
            if (!step.interval().isEmpty()) {
                assertEquals(Duration.parse(step.interval()), limiter.interval(state), where + ": interval");
            }
            if (!step.inFlight().isEmpty()) {
                assertEquals(Integer.parseInt(step.inFlight()), state.inFlight().size(), where + ": in flight");
            }
        }
    }

    private SiteRate apply(RateLimiter limiter, SiteRate state, String action, Step step, String where) {
        Instant at = at(step.at());
        return switch (action) {
            case "start" -> limiter.initial(Duration.parse(step.arg()));
            // "acquire <k> [<lead>]": a lead as PageFetcher.lead() asks with it
            case "acquire" -> {
                String[] parts = step.arg().split(" ");
                RateDecision decision = parts.length > 1
                        ? limiter.acquire(state, at, Duration.parse(parts[1]), Integer.parseInt(parts[0]))
                        : limiter.acquire(state, at, Integer.parseInt(parts[0]));
                assertEquals(expectedDecision(step.expect(), state, decision), decision, where);
                yield decision instanceof Granted granted ? granted.next() : state;
            }
            case "release" -> {
                SiteRate next = limiter.release(state, at(step.arg()));
                if (step.expect().equals("unchanged")) {
                    assertSame(state, next, where + ": a release of a slot not in flight writes nothing");
                } else {
                    assertTrue(next.version() > state.version(), where + ": a release is a write");
                }
                yield next;
            }
            case "success" -> limiter.onSuccess(state, Duration.parse(step.arg()));
            // "failure [url [outcome]]": the URL failing, for the streak (one URL when not named)
            case "failure" -> {
                String[] parts = step.arg().split(" ");
                FetchOutcome outcome = parts.length > 1 ? outcome(parts[1]) : FetchOutcome.SERVER_ERROR;
                yield expectCause(limiter.onFailure(state, parts[0].isEmpty() ? URL_A : parts[0], outcome, at, 0.0),
                        step, where);
            }
            case "throttle" -> {
                String[] parts = step.arg().split(" ");
                yield expectCause(limiter.onThrottled(state, at, Integer.parseInt(parts[0]), retryAfter(parts[1]),
                        Double.parseDouble(parts[2])), step, where);
            }
            case "rebase" -> limiter.rebase(state, Duration.parse(step.arg()));
            case "sendBy" -> {
                assertEquals(at(step.expect()), limiter.sendBy(state, at(step.arg())), where);
                yield state;
            }
            case "sent" -> limiter.sentAt(state, at(step.arg()));
            default -> throw new IllegalArgumentException(where + ": unknown action");
        };
    }

    /** Checks the pause cause the table expects after a failure or a throttle, if it names one. */
    private static SiteRate expectCause(SiteRate state, Step step, String where) {
        if (!step.expect().isEmpty()) {
            assertEquals(expectedCause(step.expect()), state.pauseCause(), where + ": pause cause");
        }
        return state;
    }

    /** "cause none", "cause throttled <status> <retryAfter|none>" or "cause failures <urls> <last outcome>". */
    private static Optional<PauseCause> expectedCause(String expect) {
        String[] words = expect.split(" ");
        return switch (words[1]) {
            case "none" -> Optional.empty();
            case "throttled" -> Optional.of(new PauseCause.Throttled(Integer.parseInt(words[2]), retryAfter(words[3])));
            case "failures" -> Optional.of(new PauseCause.Failures(Integer.parseInt(words[2]), outcome(words[3])));
            default -> throw new IllegalArgumentException("unknown cause: " + expect);
        };
    }

    private static Optional<Duration> retryAfter(String cell) {
        return cell.equals("none") ? Optional.empty() : Optional.of(Duration.parse(cell));
    }

    private static FetchOutcome outcome(String wireName) {
        return FetchOutcome.fromWireName(wireName)
                .orElseThrow(() -> new IllegalArgumentException("unknown outcome: " + wireName));
    }

    /** Builds the decision the table expects, so a mismatch shows both in full. */
    private static RateDecision expectedDecision(String expect, SiteRate before, RateDecision actual) {
        String[] words = expect.split(" ");
        return switch (words[0]) {
            // "granted <slot>... [opens <instant>]": the first slot's window opens at its slot unless named
            case "granted" -> {
                int opensAt = Arrays.asList(words).indexOf("opens");
                List<Instant> slots = Arrays.stream(words, 1, opensAt < 0 ? words.length : opensAt)
                        .map(RateLimiterTest::at).toList();
                yield new Granted(slots, opensAt < 0 ? slots.getFirst() : at(words[opensAt + 1]),
                        actual instanceof Granted g ? g.next() : before);
            }
            case "refused" -> new Refused(at(words[1]), Reason.valueOf(words[2].toUpperCase().replace('-', '_')),
                    before);
            default -> throw new IllegalArgumentException("unknown expectation: " + expect);
        };
    }

    private static Instant at(String timeOfDay) {
        return LocalTime.parse(timeOfDay).atDate(DAY).toInstant(ZoneOffset.UTC);
    }

    private static FetchResult response(int status, Map<String, String> headers) {
        return FetchResult.Response.builder().status(status).headers(headers).body(new byte[0]).truncated(false)
                .finalUrl("https://example.com/").timeToFirstByte(Duration.ZERO).total(Duration.ofMillis(100)).build();
    }

    private record Step(int line, String scenario, String at, String action, String arg, String expect,
            String interval, String inFlight) {}

    private static List<Step> readSteps(String table) throws IOException {
        try (InputStream in = RateLimiterTest.class.getResourceAsStream(table)) {
            if (in == null) {
                throw new IOException("missing test resource " + table);
            }
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            List<Step> steps = new ArrayList<>();
            for (int i = 1; i < lines.size(); i++) { // line 1 is the header
                String line = lines.get(i);
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cells = line.split(",", -1);
                if (cells.length != 7) {
                    throw new IllegalStateException(table + " line " + (i + 1) + ": expected 7 cells");
                }
                steps.add(new Step(i + 1, cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6]));
            }
            return steps;
        }
    }
}
