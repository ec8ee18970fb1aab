package io.spiderling.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.politeness.FetchOutcome;
import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.robots.AccessResult;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class WaitingReasonsTest {

    private static final Instant NOW = Instant.parse("2026-11-24T22:40:00Z");
    private static final SiteKey SITE = new SiteKey("127.0.0.4");
    private static final RobotsOrigin ORIGIN = RobotsOrigin.of("http://127.0.0.4:8080/");

    private final WaitingReasons reasons = new WaitingReasons(RobotsPolicy.create(), RateLimiter.create());

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/batch/waiting-reasons-cases.csv", numLinesToSkip = 1)
    void of_whenTableCase_namesExpectedWait(String rule, String robots, Long robotsNextTry, String rate,
            Long rateSeconds, int throttles, String cause, int parked, int retries, Long retryIn, boolean suspect,
            String reason, Long until, Integer urls) {
        WaitingReasons.SiteState state = new WaitingReasons.SiteState(SITE,
                rate(rate, rateSeconds, throttles, cause(cause)), robots(robots, robotsNextTry).stream().toList());
        List<FrontierEntry> pending = new ArrayList<>();
        for (int i = 0; i < parked; i++) {
            pending.add(entry("/page-" + i, 1, NOW));
        }
        for (int i = 0; i < retries; i++) {
            pending.add(entry("/retry-" + i, 2, NOW.plusSeconds(retryIn)));
        }

        Optional<Waiting> waiting = reasons.of(state, WaitingReasons.Parked.of(pending, NOW), NOW);

        assertEquals(reason, waiting.map(WaitingReasonsTest::label).orElse("none"), rule);
        assertEquals(Optional.ofNullable(until).map(NOW::plusSeconds), waiting.flatMap(Waiting::until), rule);
        assertEquals(urls == null ? 0 : urls, waiting.map(Waiting::urls).orElse(0), rule);
        waiting.ifPresent(w -> assertEquals(Optional.of(SITE), w.site(), rule));
        if (waiting.orElse(null) instanceof Waiting.Paused paused) {
            assertEquals(cause(cause), paused.cause(), rule + ": the stored cause");
            assertEquals(throttles, paused.pausesInRow(), rule);
        }
        assertEquals(suspect, reasons.suspect(state, NOW), rule);
    }

    /** The table's names for the kinds (the API's wire names are the API's, in its Views). */
    private static String label(Waiting waiting) {
        return switch (waiting) {
            case Waiting.RobotsUnreachable r -> "robots-unreachable";
            case Waiting.Paused p -> "paused";
            case Waiting.RateLimited r -> "rate-limited";
            case Waiting.Retrying r -> "retrying";
            case Waiting.Planning p -> "planning";
            case Waiting.FetchingPaused f -> "fetching-paused";
        };
    }

    private static FrontierEntry entry(String path, int attempt, Instant notBefore) {
        return new FrontierEntry("b1", NormalizedUrl.parse("http://127.0.0.4:8080" + path), attempt, 0, notBefore);
    }

    private static Optional<SiteRate> rate(String kind, Long seconds, int throttles, Optional<PauseCause> cause) {
        SiteRate idle = SiteRate.builder().lastSlot(NOW.minus(Duration.ofHours(1))).interval(Duration.ofSeconds(1))
                .baseInterval(Duration.ofSeconds(1)).pausedUntil(Instant.EPOCH).pauseCause(Optional.empty())
                .throttles(0).successes(0).responseTime(Duration.ZERO).inFlight(List.of()).failing(List.of())
                .version(3).build();
        return switch (kind) {
            case "none" -> Optional.empty();
            case "idle" -> Optional.of(idle);
            case "paused" -> Optional.of(SiteRate.builder().lastSlot(idle.lastSlot()).interval(Duration.ofSeconds(2))
                    .baseInterval(idle.baseInterval()).pausedUntil(NOW.plusSeconds(seconds)).pauseCause(cause)
                    .throttles(throttles).successes(0).responseTime(Duration.ZERO).inFlight(List.of())
                    .failing(List.of()).version(4).build());
            case "slow" -> Optional.of(idle.next(c -> c.interval(Duration.ofSeconds(seconds)).lastSlot(NOW)));
            case "busy" -> Optional.of(idle.next(c -> c.lastSlot(NOW).inFlight(List.of(NOW.minusMillis(500), NOW))));
            default -> throw new IllegalArgumentException("unknown rate in table: " + kind);
        };
    }

    /** "throttled <status> <Retry-After|none>", "failures <urls> <last outcome>", "unknown", or empty for none. */
    private static Optional<PauseCause> cause(String cell) {
        if (cell == null || cell.equals("unknown")) {
            return Optional.empty();
        }
        String[] words = cell.split(" ");
        return Optional.of(switch (words[0]) {
            case "throttled" -> new PauseCause.Throttled(Integer.parseInt(words[1]),
                    words[2].equals("none") ? Optional.empty() : Optional.of(Duration.parse(words[2])));
            case "failures" -> new PauseCause.Failures(Integer.parseInt(words[1]),
                    FetchOutcome.fromWireName(words[2]).orElseThrow());
            default -> throw new IllegalArgumentException("unknown cause in table: " + cell);
        });
    }

    private static Optional<RobotsCacheEntry> robots(String kind, Long nextTry) {
        Instant expires = NOW.plus(Duration.ofDays(7));
        return switch (kind) {
            case "none" -> Optional.empty();
            case "fresh" -> Optional.of(RobotsCacheEntry.builder().origin(ORIGIN).lastResult(AccessResult.SUCCESS)
                    .lastStatus(Optional.of(200)).attemptedAt(NOW.minusSeconds(60))
                    .fetchedAt(Optional.of(NOW.minusSeconds(60)))
                    .freshUntil(Optional.of(NOW.plus(Duration.ofHours(1)))).expiresAt(expires).robotsGzip(new byte[0])
                    .truncated(false).consecutiveFailures(0).firstFailureAt(Optional.empty())
                    .nextRetryAt(Optional.empty()).crawlDelay(Optional.empty()).build());
            case "503", "no-answer", "503-retry-due" -> Optional.of(failing(kind.equals("no-answer")
                    ? Optional.empty() : Optional.of(503), NOW.minusSeconds(10), Optional.empty(),
                    NOW.plusSeconds(nextTry)));
            case "503-past-deadline" -> Optional.of(failing(Optional.of(503), NOW.minus(Duration.ofHours(7)),
                    Optional.empty(), NOW.plusSeconds(nextTry)));
            case "503-with-copy" -> Optional.of(failing(Optional.of(503), NOW.minusSeconds(10),
                    Optional.of(NOW.minus(Duration.ofHours(1))), NOW.plusSeconds(nextTry)));
            default -> throw new IllegalArgumentException("unknown robots in table: " + kind);
        };
    }

    private static RobotsCacheEntry failing(Optional<Integer> status, Instant since, Optional<Instant> copyAt,
            Instant nextTry) {
        return RobotsCacheEntry.builder().origin(ORIGIN).lastResult(AccessResult.UNREACHABLE).lastStatus(status)
                .attemptedAt(NOW.minusSeconds(1)).fetchedAt(copyAt)
                .freshUntil(copyAt.map(at -> at.plus(Duration.ofMinutes(30)))).expiresAt(NOW.plus(Duration.ofDays(7)))
                .robotsGzip(new byte[0]).truncated(false).consecutiveFailures(2).firstFailureAt(Optional.of(since))
                .nextRetryAt(Optional.of(nextTry)).crawlDelay(Optional.empty()).build();
    }
}
