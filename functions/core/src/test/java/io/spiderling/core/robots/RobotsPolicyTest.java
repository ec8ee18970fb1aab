package io.spiderling.core.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.robots.RobotsFetchOutcome.Failure;
import io.spiderling.core.robots.RobotsFetchOutcome.Response;
import io.spiderling.core.robots.RobotsPolicy.Settings;
import io.spiderling.core.robots.RobotsVerdict.Allowed;
import io.spiderling.core.robots.RobotsVerdict.Disallowed;
import io.spiderling.core.robots.RobotsVerdict.FetchFirst;
import io.spiderling.core.robots.RobotsVerdict.Unreachable;
import io.spiderling.core.robots.RobotsVerdict.Wait;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.ValueSource;

class RobotsPolicyTest {

    private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");
    private static final RobotsOrigin ORIGIN = RobotsOrigin.of("https://example.com/");
    private static final String SITE = "https://example.com";
    private static final Pattern STATUS_STEP = Pattern.compile("(\\d{3})(?:x(\\d+))?(?:~(.+))?");

    private final RobotsPolicy policy = RobotsPolicy.create();

    @ParameterizedTest(name = "{0}: {1} as {2}, {3}")
    @CsvFileSource(resources = "/robots/rules-cases.csv", numLinesToSkip = 1)
    void decide_whenFreshCopyOfFixture_expectVerdictAndCrawlDelay(String rule, String fixture, String agent,
            String path, String verdict, Duration crawlDelay, Duration requestedDelay) {
        RobotsPolicy agentPolicy = RobotsPolicy.create(Settings.DEFAULTS.withAgent(agent));
        RobotsCacheEntry entry = agentPolicy.onFetched(ORIGIN, ok(fixture(fixture)), Optional.empty(), T0, 0);

        RobotsVerdict actual = agentPolicy.decide(Optional.of(entry), RequestUrl.from(SITE + path), T0);

        switch (verdict) {
            case "allowed" -> assertEquals(new Allowed(crawlDelay), actual, rule);
            case "disallowed" -> assertInstanceOf(Disallowed.class, actual, rule);
            default -> throw new IllegalArgumentException("unknown verdict " + verdict);
        }
        assertEquals(Optional.ofNullable(requestedDelay), entry.crawlDelay(), rule + ": the requested delay is kept");
    }

    @ParameterizedTest(name = "{0}: {1} after {2} redirects -> {3}, {4}")
    @CsvFileSource(resources = "/robots/outcome-cases.csv", numLinesToSkip = 1)
    void onFetched_whenOutcome_expectAccessResultAndVerdict(String rule, String outcome, int redirects,
            AccessResult result, String verdict) {
        RobotsFetchOutcome fetched = Character.isDigit(outcome.charAt(0))
                ? new Response(Integer.parseInt(outcome), fixture("disallow-all.txt").getBytes(StandardCharsets.UTF_8),
                        Optional.empty(), redirects)
                : new Failure(FailureKind.valueOf(outcome.toUpperCase(java.util.Locale.ROOT)), redirects);

        RobotsCacheEntry entry = policy.onFetched(ORIGIN, fetched, Optional.empty(), T0, 0);

        assertEquals(result, policy.classify(fetched), rule);
        assertEquals(result, entry.lastResult(), rule);
        assertEquals(fetched instanceof Response r ? Optional.of(r.status()) : Optional.empty(), entry.lastStatus(),
                rule);
        assertEquals(expectedVerdict(verdict), kind(policy.decide(Optional.of(entry), RequestUrl.from(SITE + "/x"), T0)),
                rule);
        assertFalse(policy.needsFetch(Optional.of(entry), T0), rule + ": nothing to fetch right after a fetch");
    }

    @ParameterizedTest(name = "{0}: [{1}] read at {2}")
    @CsvFileSource(resources = "/robots/timeline-cases.csv", numLinesToSkip = 1)
    void decide_whenTimelineOfFetches_expectVerdict(String rule, String steps, Duration readAt, String path,
            boolean needsFetch, String verdict) {
        Optional<RobotsCacheEntry> entry = Optional.empty();
        for (String step : steps == null ? new String[0] : steps.trim().split("\\s+")) {
            String[] parts = step.split("@");
            Instant at = T0.plus(Duration.parse(parts[1]));
            entry = Optional.of(policy.onFetched(ORIGIN, outcome(parts[0]), entry, at, 0));
        }
        Instant now = T0.plus(readAt);

        assertEquals(needsFetch, policy.needsFetch(entry, now), rule + ": needsFetch");
        assertEquals(expectedVerdict(verdict), kind(policy.decide(entry, RequestUrl.from(SITE + path), now)), rule);
    }

    @ParameterizedTest(name = "{0}: [{1}] -> {2}")
    @CsvFileSource(resources = "/robots/freshness-cases.csv", numLinesToSkip = 1)
    void onFetched_whenCacheControl_expectFreshnessWithinBounds(String rule, String cacheControl, Duration fresh) {
        for (int status : new int[] {200, 404}) {
            RobotsCacheEntry entry = policy.onFetched(ORIGIN,
                    new Response(status, "User-agent: *\nDisallow: /x\n".getBytes(StandardCharsets.UTF_8),
                            Optional.ofNullable(cacheControl), 0),
                    Optional.empty(), T0, 0);

            assertEquals(Optional.of(T0.plus(fresh)), entry.freshUntil(), rule + " after " + status);
            assertEquals(T0.plus(Duration.ofDays(7)), entry.expiresAt(), rule + ": expiry is not freshness");
        }
    }

    @ParameterizedTest(name = "failure {0}, jitter {1} -> {2}")
    @CsvFileSource(resources = "/robots/backoff-cases.csv", numLinesToSkip = 1)
    void backoff_whenConsecutiveFailuresAndJitter_expectCappedDoublingWait(int failures, double jitter,
            Duration wait) {
        assertEquals(wait, policy.backoff(failures, jitter));
    }

    @Test
    void onFetched_whenFailuresRepeatThenRecover_expectCountersKeptThenReset() {
        RobotsCacheEntry copy = policy.onFetched(ORIGIN, ok("User-agent: *\nDisallow: /p\nCrawl-delay: 4\n"),
                Optional.empty(), T0, 0);
        RobotsCacheEntry first = policy.onFetched(ORIGIN, Response.of(503, "busy"), Optional.of(copy),
                T0.plus(Duration.ofDays(1)), 0.5);
        RobotsCacheEntry second = policy.onFetched(ORIGIN, new Failure(FailureKind.TIMEOUT, 0), Optional.of(first),
                T0.plus(Duration.ofDays(2)), 0);
        RobotsCacheEntry recovered = policy.onFetched(ORIGIN, ok("User-agent: *\nDisallow: /q\n"),
                Optional.of(second), T0.plus(Duration.ofDays(3)), 0);

        assertEquals(1, first.consecutiveFailures());
        assertEquals(Optional.of(T0.plus(Duration.ofDays(1))), first.firstFailureAt());
        assertEquals(Optional.of(T0.plus(Duration.ofDays(1)).plusSeconds(45)), first.nextRetryAt(), "jitter 0.5");
        assertEquals(Optional.of(503), first.lastStatus());
        assertEquals(copy.fetchedAt(), first.fetchedAt(), "the good copy is kept");
        assertEquals(copy.freshUntil(), first.freshUntil());
        assertEquals(copy.robotsText(), first.robotsText());
        assertEquals(Optional.of(Duration.ofSeconds(4)), first.crawlDelay());
        assertEquals(2, second.consecutiveFailures());
        assertEquals(first.firstFailureAt(), second.firstFailureAt(), "the failure clock runs from the first");
        assertEquals(Optional.empty(), second.lastStatus(), "no response, no status");
        assertEquals(T0.plus(Duration.ofDays(9)), second.expiresAt(), "each attempt keeps the entry alive");
        assertEquals(0, recovered.consecutiveFailures());
        assertEquals(Optional.empty(), recovered.firstFailureAt());
        assertEquals(Optional.empty(), recovered.nextRetryAt());
        assertEquals(Optional.empty(), recovered.crawlDelay());
        assertEquals(AccessResult.SUCCESS, recovered.lastResult());
    }

    @Test
    void onFetched_whenBodyBeyondParseLimit_expectRulesAfterLimitIgnored() {
        StringBuilder robots = new StringBuilder(fixture("rfc9309-parse-limit.txt"));
        int straddleStart = RobotsPolicy.MIN_PARSE_LIMIT - 15; // cut there, the line would read "Disallow: /str"
        String filler = "# filler to reach the 500 KiB parse limit\n";
        while (robots.length() + filler.length() < straddleStart) {
            robots.append(filler);
        }
        robots.append("#".repeat(straddleStart - robots.length() - 1)).append('\n');
        robots.append("Disallow: /straddles-the-limit\n");
        robots.append("Disallow: /after\n");
        byte[] body = robots.toString().getBytes(StandardCharsets.UTF_8);

        RobotsCacheEntry entry = policy.onFetched(ORIGIN, ok(body), Optional.empty(), T0, 0);

        assertTrue(entry.truncated());
        assertTrue(body.length > RobotsPolicy.MIN_PARSE_LIMIT);
        assertTrue(entry.robotsText().length() <= RobotsPolicy.MIN_PARSE_LIMIT);
        assertTrue(entry.robotsText().endsWith("\n"), "a cut never splits a line");
        assertInstanceOf(Disallowed.class, decide(entry, "/before/x"));
        assertEquals(new Allowed(Duration.ZERO), decide(entry, "/after"), "rules past 500 KiB are not read");
        assertEquals(new Allowed(Duration.ZERO), decide(entry, "/straddles"),
                "the line across the limit is dropped, not cut to Disallow: /stra…");
    }

    @Test
    void onFetched_whenBodyExactlyAtLimitEndingInLineBreak_expectAllKept() {
        String head = "User-agent: *\nDisallow: /last\n";
        StringBuilder robots = new StringBuilder("User-agent: *\n");
        String filler = "#".repeat(99) + "\n";
        while (robots.length() + filler.length() <= RobotsPolicy.MIN_PARSE_LIMIT - head.length()) {
            robots.append(filler);
        }
        robots.append("#".repeat(RobotsPolicy.MIN_PARSE_LIMIT - head.length() - robots.length() - 1)).append('\n');
        robots.append(head);
        byte[] body = robots.toString().getBytes(StandardCharsets.US_ASCII);

        RobotsCacheEntry entry = policy.onFetched(ORIGIN, ok(body), Optional.empty(), T0, 0);

        assertEquals(RobotsPolicy.MIN_PARSE_LIMIT, body.length);
        assertFalse(entry.truncated());
        assertEquals(robots.toString(), entry.robotsText());
        assertInstanceOf(Disallowed.class, decide(entry, "/last"));
    }

    @Test
    void onFetched_whenCompressedBodyNearItemLimit_expectCutToFitWithRulesBeforeKept() {
        StringBuilder robots = new StringBuilder("User-agent: *\nDisallow: /first\n");
        Random random = new Random(9309);
        while (robots.length() < RobotsPolicy.MIN_PARSE_LIMIT) {
            robots.append("# ");
            for (int i = 0; i < 76; i++) {
                robots.append((char) ('!' + random.nextInt(94))); // printable ASCII barely compresses
            }
            robots.append('\n');
        }
        String text = robots.substring(0, RobotsPolicy.MIN_PARSE_LIMIT);

        RobotsCacheEntry entry = policy.onFetched(ORIGIN, ok(text.getBytes(StandardCharsets.US_ASCII)),
                Optional.empty(), T0, 0);

        assertTrue(entry.robotsGzip().length <= 350_000, "compressed " + entry.robotsGzip().length + " bytes");
        assertTrue(entry.robotsGzip().length > 300_000, "cut no more than needed: " + entry.robotsGzip().length);
        assertTrue(entry.truncated());
        assertTrue(text.startsWith(entry.robotsText()), "what is kept is a prefix");
        assertTrue(entry.robotsText().endsWith("\n"), "of whole lines");
        assertInstanceOf(Disallowed.class, decide(entry, "/first/a"));
    }

    @Test
    void onFetched_whenLargeCompressibleBody_expectGzipRoundTripUntruncated() {
        StringBuilder robots = new StringBuilder("User-agent: *\n");
        for (int i = 0; robots.length() < 400 * 1024; i++) {
            robots.append("Disallow: /generated/section-").append(i).append("/\n");
        }

        RobotsCacheEntry entry = policy.onFetched(ORIGIN, ok(robots.toString()), Optional.empty(), T0, 0);

        assertFalse(entry.truncated());
        assertEquals(robots.toString(), entry.robotsText());
        assertTrue(entry.robotsGzip().length < robots.length() / 5, "rules compress well");
        assertEquals(0x1f, entry.robotsGzip()[0] & 0xff, "gzip magic");
        assertEquals(0x8b, entry.robotsGzip()[1] & 0xff, "gzip magic");
        assertInstanceOf(Disallowed.class, decide(entry, "/generated/section-4242/page"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rfc9309-longest-match.txt", "utf8-bom.txt", "percent-encoding.txt"})
    void robotsText_whenStoredCopy_expectFixtureBytesBack(String fixture) {
        byte[] body = fixtureBytes(fixture);

        RobotsCacheEntry entry = policy.onFetched(ORIGIN, ok(body), Optional.empty(), T0, 0);

        assertEquals(new String(body, StandardCharsets.UTF_8), entry.robotsText());
        assertTrue(entry.robotsGzip().length > 0);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {404, 503})
    void onFetched_whenNoBodyKept_expectEmptyGzipAndText(int status) {
        RobotsCacheEntry entry = policy.onFetched(ORIGIN, Response.of(status, "User-agent: *\nDisallow: /\n"),
                Optional.empty(), T0, 0);

        assertEquals(0, entry.robotsGzip().length);
        assertEquals("", entry.robotsText());
    }

    @Test
    void decide_whenTwoCopiesShareOriginAndFetchTime_expectEachOwnRules() {
        RobotsCacheEntry a = policy.onFetched(ORIGIN, ok("User-agent: *\nDisallow: /a\n"), Optional.empty(), T0, 0);
        RobotsCacheEntry b = policy.onFetched(ORIGIN, ok("User-agent: *\nDisallow: /b\n"), Optional.empty(), T0, 0);

        for (int round = 0; round < 2; round++) {
            assertInstanceOf(Disallowed.class, decide(a, "/a"));
            assertInstanceOf(Allowed.class, decide(a, "/b"));
            assertInstanceOf(Disallowed.class, decide(b, "/b"));
            assertInstanceOf(Allowed.class, decide(b, "/a"));
        }
    }

    @Test
    void decide_whenEntryReadBackFromStorage_expectSameVerdict() {
        RobotsCacheEntry written = policy.onFetched(ORIGIN, ok(fixture("rfc9309-wildcards.txt")), Optional.empty(),
                T0, 0);
        RobotsCacheEntry read = RobotsCacheEntry.builder().origin(RobotsOrigin.of(written.origin().value()))
                .lastResult(written.lastResult()).lastStatus(written.lastStatus()).attemptedAt(written.attemptedAt())
                .fetchedAt(written.fetchedAt()).freshUntil(written.freshUntil()).expiresAt(written.expiresAt())
                .robotsGzip(written.robotsGzip().clone()).truncated(written.truncated())
                .consecutiveFailures(written.consecutiveFailures()).firstFailureAt(written.firstFailureAt())
                .nextRetryAt(written.nextRetryAt()).crawlDelay(written.crawlDelay()).build();

        assertEquals(written, read);
        assertEquals(written.hashCode(), read.hashCode());
        RobotsPolicy otherInstance = RobotsPolicy.create();
        assertEquals(decide(written, "/docs/a.pdf"), otherInstance.decide(Optional.of(read), RequestUrl.from(SITE + "/docs/a.pdf"), T0));
    }

    @Test
    void toString_whenEntryHasBody_expectLengthNotBytes() {
        RobotsCacheEntry entry = policy.onFetched(ORIGIN, ok(fixture("rfc9309-wildcards.txt")), Optional.empty(), T0,
                0);

        assertTrue(entry.toString().contains("robotsGzip=" + entry.robotsGzip().length + " bytes"), entry.toString());
    }

    @Test
    void decide_whenUrlOfAnotherOrigin_expectIllegalArgument() {
        RobotsCacheEntry entry = policy.onFetched(ORIGIN, Response.of(404, ""), Optional.empty(), T0, 0);

        assertThrows(IllegalArgumentException.class,
                () -> policy.decide(Optional.of(entry), RequestUrl.from("http://example.com/x"), T0), "other scheme");
        assertThrows(IllegalArgumentException.class,
                () -> policy.decide(Optional.of(entry), RequestUrl.from("https://example.com:8443/x"), T0), "other port");
        assertThrows(IllegalArgumentException.class,
                () -> policy.decide(Optional.of(entry), RequestUrl.from("https://www.example.com/x"), T0), "other host");
        assertEquals(new Allowed(Duration.ZERO), policy.decide(Optional.of(entry), RequestUrl.from("https://EXAMPLE.com:443/x"), T0));
    }

    @Test
    void onFetched_whenPreviousOfAnotherOrigin_expectIllegalArgument() {
        RobotsCacheEntry other = policy.onFetched(RobotsOrigin.of("http://example.com/"), Response.of(404, ""),
                Optional.empty(), T0, 0);

        assertThrows(IllegalArgumentException.class,
                () -> policy.onFetched(ORIGIN, Response.of(200, ""), Optional.of(other), T0, 0));
    }

    @ParameterizedTest(name = "jitter {0}")
    @ValueSource(doubles = {-0.1, 1.0, 1.5, Double.NaN})
    void onFetched_whenJitterOutOfRange_expectIllegalArgument(double jitter) {
        assertThrows(IllegalArgumentException.class,
                () -> policy.onFetched(ORIGIN, Response.of(503, ""), Optional.empty(), T0, jitter));
        assertThrows(IllegalArgumentException.class, () -> policy.backoff(1, jitter));
    }

    @Test
    void backoff_whenNoFailure_expectIllegalArgument() {
        assertThrows(IllegalArgumentException.class, () -> policy.backoff(0, 0));
    }

    @Test
    void from_whenFetchResult_expectOutcomeWithCacheControlAndRedirects() {
        FetchResult response = FetchResult.Response.builder().status(200)
                .headers(Map.of("cache-control", "max-age=60")).body(new byte[] {'x'}).truncated(false)
                .finalUrl("https://example.com/robots.txt").timeToFirstByte(Duration.ZERO).total(Duration.ZERO).build();
        FetchResult failure = new FetchResult.Failure(FailureKind.TIMEOUT, "read timed out", Duration.ofSeconds(10));

        Response mapped = assertInstanceOf(Response.class, RobotsFetchOutcome.from(response, 2));
        assertEquals(200, mapped.status());
        assertEquals(Optional.of("max-age=60"), mapped.cacheControl());
        assertEquals(2, mapped.redirects());
        assertEquals(new Failure(FailureKind.TIMEOUT, 1), RobotsFetchOutcome.from(failure, 1));
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "spider ling", "spiderling/1.0", "spider1ing", "*"})
    void settings_whenAgentNotAProductToken_expectIllegalArgument(String agent) {
        assertThrows(IllegalArgumentException.class, () -> Settings.DEFAULTS.withAgent(agent));
    }

    @Test
    void settings_whenAgentMixedCase_expectLowerCased() {
        assertEquals("my-bot_x", Settings.DEFAULTS.withAgent("My-Bot_X").agent());
    }

    @Test
    void settings_whenLimitsBreakRfcOrItemSize_expectIllegalArgument() {
        Settings d = Settings.DEFAULTS;
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().agent(d.agent())
                .maxBodyBytes(100 * 1024).maxStoredBytes(d.maxStoredBytes()).maxRedirects(d.maxRedirects())
                .minFreshness(d.minFreshness()).maxFreshness(d.maxFreshness()).ttl(d.ttl())
                .backoffBase(d.backoffBase()).backoffCap(d.backoffCap()).unreachableAfter(d.unreachableAfter())
                .crawlDelayCap(d.crawlDelayCap()).build(), "parse limit below 500 KiB");
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().agent(d.agent())
                .maxBodyBytes(d.maxBodyBytes()).maxStoredBytes(400 * 1024).maxRedirects(d.maxRedirects())
                .minFreshness(d.minFreshness()).maxFreshness(d.maxFreshness()).ttl(d.ttl())
                .backoffBase(d.backoffBase()).backoffCap(d.backoffCap()).unreachableAfter(d.unreachableAfter())
                .crawlDelayCap(d.crawlDelayCap()).build(), "stored body at the item limit");
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().agent(d.agent())
                .maxBodyBytes(d.maxBodyBytes()).maxStoredBytes(d.maxStoredBytes()).maxRedirects(d.maxRedirects())
                .minFreshness(d.minFreshness()).maxFreshness(Duration.ofHours(25)).ttl(d.ttl())
                .backoffBase(d.backoffBase()).backoffCap(d.backoffCap()).unreachableAfter(d.unreachableAfter())
                .crawlDelayCap(d.crawlDelayCap()).build(), "fresh beyond 24 h");
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().agent(d.agent())
                .maxBodyBytes(d.maxBodyBytes()).maxStoredBytes(d.maxStoredBytes()).maxRedirects(d.maxRedirects())
                .minFreshness(Duration.ZERO).maxFreshness(d.maxFreshness()).ttl(d.ttl()).backoffBase(d.backoffBase())
                .backoffCap(d.backoffCap()).unreachableAfter(d.unreachableAfter()).crawlDelayCap(d.crawlDelayCap())
                .build(), "zero freshness would refetch forever");
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().agent(d.agent())
                .maxBodyBytes(d.maxBodyBytes()).maxStoredBytes(d.maxStoredBytes()).maxRedirects(d.maxRedirects())
                .minFreshness(d.minFreshness()).maxFreshness(d.maxFreshness()).ttl(Duration.ofHours(1))
                .backoffBase(d.backoffBase()).backoffCap(d.backoffCap()).unreachableAfter(d.unreachableAfter())
                .crawlDelayCap(d.crawlDelayCap()).build(), "TTL below freshness");
        assertThrows(IllegalArgumentException.class, () -> Settings.builder().agent(d.agent())
                .maxBodyBytes(d.maxBodyBytes()).maxStoredBytes(d.maxStoredBytes()).maxRedirects(d.maxRedirects())
                .minFreshness(d.minFreshness()).maxFreshness(d.maxFreshness()).ttl(d.ttl())
                .backoffBase(Duration.ofHours(2)).backoffCap(d.backoffCap()).unreachableAfter(d.unreachableAfter())
                .crawlDelayCap(d.crawlDelayCap()).build(), "cap below base");
    }

    @Test
    void decide_whenCrawlDelayCapConfigured_expectThatCap() {
        Settings d = Settings.DEFAULTS;
        RobotsPolicy strict = RobotsPolicy.create(Settings.builder().agent(d.agent()).maxBodyBytes(d.maxBodyBytes())
                .maxStoredBytes(d.maxStoredBytes()).maxRedirects(d.maxRedirects()).minFreshness(d.minFreshness())
                .maxFreshness(d.maxFreshness()).ttl(d.ttl()).backoffBase(d.backoffBase()).backoffCap(d.backoffCap())
                .unreachableAfter(d.unreachableAfter()).crawlDelayCap(Duration.ofSeconds(1)).build());
        RobotsCacheEntry entry = strict.onFetched(ORIGIN, ok(fixture("crawl-delay-under-cap.txt")),
                Optional.empty(), T0, 0);

        assertEquals(new Allowed(Duration.ofSeconds(1)), strict.decide(Optional.of(entry), RequestUrl.from(SITE + "/a"), T0));
        assertEquals(Optional.of(Duration.ofSeconds(2)), entry.crawlDelay());
    }

    @Test
    void decide_whenUnreachableDeadlineConfigured_expectThatDeadline() {
        Settings d = Settings.DEFAULTS;
        RobotsPolicy impatient = RobotsPolicy.create(Settings.builder().agent(d.agent())
                .maxBodyBytes(d.maxBodyBytes()).maxStoredBytes(d.maxStoredBytes()).maxRedirects(d.maxRedirects())
                .minFreshness(d.minFreshness()).maxFreshness(d.maxFreshness()).ttl(d.ttl())
                .backoffBase(d.backoffBase()).backoffCap(d.backoffCap()).unreachableAfter(Duration.ofMinutes(30))
                .crawlDelayCap(d.crawlDelayCap()).build());
        Optional<RobotsCacheEntry> entry = Optional.empty();
        for (Duration at : new Duration[] {Duration.ZERO, Duration.ofMinutes(1), Duration.ofMinutes(3),
                Duration.ofMinutes(7), Duration.ofMinutes(15), Duration.ofMinutes(31)}) {
            entry = Optional.of(impatient.onFetched(ORIGIN, Response.of(503, ""), entry, T0.plus(at), 0));
        }

        assertEquals(new Unreachable(new RobotsOutage(ORIGIN.robotsUrl(), Optional.of(503), 6, T0,
                        entry.orElseThrow().nextRetryAt().orElseThrow())),
                impatient.decide(entry, RequestUrl.from(SITE + "/x"), T0.plus(Duration.ofMinutes(31))));
    }

    private RobotsVerdict decide(RobotsCacheEntry entry, String path) {
        return policy.decide(Optional.of(entry), RequestUrl.from(SITE + path), T0);
    }

    /** A verdict with what a refusal rests on left out, for tables that give only its kind. */
    private static Object kind(RobotsVerdict verdict) {
        return switch (verdict) {
            case Disallowed d -> "disallowed";
            case Unreachable u -> "unreachable";
            default -> verdict;
        };
    }

    private static Object expectedVerdict(String text) {
        if (text.startsWith("wait@")) {
            return new Wait(T0.plus(Duration.parse(text.substring("wait@".length()))));
        }
        return switch (text) {
            case "allowed" -> new Allowed(Duration.ZERO);
            case "disallowed", "unreachable" -> text;
            case "fetch-first" -> new FetchFirst();
            default -> throw new IllegalArgumentException("unknown verdict " + text);
        };
    }

    /** {@code 200}, {@code 301x5}, {@code 200~max-age=60} or a failure kind such as {@code timeout}. */
    private static RobotsFetchOutcome outcome(String step) {
        Matcher m = STATUS_STEP.matcher(step);
        if (!m.matches()) {
            return new Failure(FailureKind.valueOf(step.toUpperCase(java.util.Locale.ROOT)), 0);
        }
        int status = Integer.parseInt(m.group(1));
        byte[] body = status == 200 ? fixtureBytes("timeline.txt") : new byte[0];
        return new Response(status, body, Optional.ofNullable(m.group(3)),
                m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
    }

    private static Response ok(String body) {
        return Response.of(200, body);
    }

    private static Response ok(byte[] body) {
        return new Response(200, body, Optional.empty(), 0);
    }

    private static String fixture(String name) {
        return new String(fixtureBytes(name), StandardCharsets.UTF_8);
    }

    private static byte[] fixtureBytes(String name) {
        try (InputStream in = RobotsPolicyTest.class.getResourceAsStream("/robots/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
