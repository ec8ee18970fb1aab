package io.spiderling.core.politeness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.politeness.RetryDecision.Done;
import io.spiderling.core.politeness.RetryDecision.GiveUp;
import io.spiderling.core.politeness.RetryDecision.Retry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RetryPolicyTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    /**
     * The tables' policy: the defaults with a 30 s backoff base, so that their waits stay readable whole seconds (the
     * default base is 5 s; {@link #defaults_retryAfterFiveThenTwentySecondsNominal} checks it).
     */
    private final RetryPolicy policy = RetryPolicy.create(RetryPolicy.Settings.builder().maxAttempts(3)
            .maxThrottledAttempts(5).backoffBase(Duration.ofSeconds(30)).backoffMultiplier(4)
            .maxBackoff(Duration.ofHours(1)).maxRetryAfter(Duration.ofMinutes(10)).retryAfterJitter(0.1).build());

    @Test
    void defaults_retryAfterFiveThenTwentySecondsNominal() {
        RetryPolicy defaults = RetryPolicy.create();

        assertEquals(Duration.ofMillis(2500), defaults.backoff(1, 0.0));
        assertEquals(Duration.ofSeconds(5), defaults.backoff(1, 0.999_999));
        assertEquals(Duration.ofSeconds(10), defaults.backoff(2, 0.0));
        assertEquals(Duration.ofSeconds(20), defaults.backoff(2, 0.999_999));
        assertEquals(3, defaults.settings().maxAttempts());
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/politeness/retry-schedule-cases.csv", numLinesToSkip = 1)
    void decide_whenTableCase_givesExpectedDecision(String rule, FetchOutcome outcome, int attempt, double jitter,
            Duration retryAfter, String decision, Duration waits, Integer nextAttempt, String reason) {
        RetryDecision expected = switch (decision) {
            case "retry" -> new Retry(NOW.plus(waits), nextAttempt);
            case "give-up" -> new GiveUp(reason);
            case "done" -> new Done();
            default -> throw new IllegalArgumentException("unknown decision in table: " + decision);
        };

        assertEquals(expected, policy.decide(outcome, attempt, NOW, jitter, Optional.ofNullable(retryAfter)), rule);
    }

    @ParameterizedTest(name = "attempt {0}, jitter {1} -> {2}")
    @CsvSource({
            "1, 0.0, PT15S",
            "2, 0.0, PT1M",
            "3, 0.0, PT4M",
            "4, 0.0, PT16M",
            "5, 0.0, PT30M",   // nominal 30 s x 4^4 = 128 min, capped at 1 h
            "6, 0.0, PT30M",
            "60, 0.5, PT45M",  // no overflow however many attempts
    })
    void backoff_whenAttemptGrows_isEqualJitterOverCappedExponential(int attempt, double jitter, Duration expected) {
        assertEquals(expected, policy.backoff(attempt, jitter));
    }

    @Test
    void decide_whenResponse500OnLastAttempt_givesUpWithStatusAndAttempts() {
        assertEquals(new GiveUp("http 500 after 3 attempts"), policy.decide(response(500, Map.of()), 3, NOW, 0.0));
    }

    @Test
    void decide_whenResponse404_givesUpWithStatus() {
        assertEquals(new GiveUp("http 404"), policy.decide(response(404, Map.of()), 1, NOW, 0.0));
    }

    @Test
    void decide_whenResponse429WithRetryAfterSeconds_waitsThatLong() {
        assertEquals(new Retry(NOW.plusSeconds(120), 2),
                policy.decide(response(429, Map.of("retry-after", "120")), 1, NOW, 0.0));
    }

    @Test
    void decide_whenResponse503WithRetryAfterDate_waitsUntilThen() {
        FetchResult result = response(503, Map.of("retry-after", "Sun, 22 Nov 2026 12:03:00 GMT"));

        assertEquals(new Retry(NOW.plusSeconds(180), 3), policy.decide(result, 2, NOW, 0.0));
    }

    @Test
    void decide_whenResponse429WithUnreadableRetryAfter_usesBackoff() {
        assertEquals(new Retry(NOW.plusSeconds(15), 2),
                policy.decide(response(429, Map.of("retry-after", "later")), 1, NOW, 0.0));
    }

    @Test
    void decide_whenTimeoutFailureOnLastAttempt_givesUpKeepingTheError() {
        FetchResult failure = new FetchResult.Failure(FailureKind.TIMEOUT, "read timed out", Duration.ofSeconds(30));

        assertEquals(new GiveUp("timeout: read timed out after 3 attempts"), policy.decide(failure, 3, NOW, 0.0));
    }

    @Test
    void decide_whenResponse200_isDone() {
        assertEquals(new Done(), policy.decide(response(200, Map.of()), 1, NOW, 0.0));
    }

    @Test
    void decide_whenSameInputs_isSameDecision() {
        FetchResult result = response(502, Map.of());

        assertEquals(policy.decide(result, 1, NOW, 0.37), policy.decide(result, 1, NOW, 0.37));
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.1, 1.0, Double.NaN})
    void decide_whenJitterOutsideUnitInterval_throws(double jitter) {
        assertThrows(IllegalArgumentException.class,
                () -> policy.decide(FetchOutcome.SERVER_ERROR, 1, NOW, jitter, Optional.empty()));
    }

    @Test
    void decide_whenAttemptBelowOne_throws() {
        assertThrows(IllegalArgumentException.class,
                () -> policy.decide(FetchOutcome.SERVER_ERROR, 0, NOW, 0.0, Optional.empty()));
    }

    @Test
    void decide_whenSettingsAllowMoreAttempts_retriesLonger() {
        RetryPolicy patient = RetryPolicy.create(RetryPolicy.Settings.builder().maxAttempts(5).maxThrottledAttempts(5)
                .backoffBase(Duration.ofSeconds(10)).backoffMultiplier(2).maxBackoff(Duration.ofMinutes(1))
                .maxRetryAfter(Duration.ofMinutes(10)).retryAfterJitter(0.0).build());

        assertEquals(new Retry(NOW.plusSeconds(20), 4),
                patient.decide(FetchOutcome.SERVER_ERROR, 3, NOW, 0.0, Optional.empty()));
    }

    private static FetchResult response(int status, Map<String, String> headers) {
        return FetchResult.Response.builder().status(status).headers(headers).body(new byte[0]).truncated(false)
                .finalUrl("https://example.com/").timeToFirstByte(Duration.ZERO).total(Duration.ofMillis(100)).build();
    }
}
