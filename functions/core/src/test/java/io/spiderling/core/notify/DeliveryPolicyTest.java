package io.spiderling.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.notify.DeliveryPolicy.Attempt;
import io.spiderling.core.notify.DeliveryPolicy.Decision;
import io.spiderling.core.notify.DeliveryPolicy.Decision.Delivered;
import io.spiderling.core.notify.DeliveryPolicy.Decision.GiveUp;
import io.spiderling.core.notify.DeliveryPolicy.Decision.Retry;
import io.spiderling.core.notify.DeliveryPolicy.Failure;
import io.spiderling.core.notify.DeliveryPolicy.Settings;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DeliveryPolicyTest {

    private final DeliveryPolicy policy = DeliveryPolicy.create();

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/notify/delivery-decisions.csv", numLinesToSkip = 1)
    void decide_whenTableCase_givesExpectedDecision(String rule, String outcome, int attempt, double jitter,
            String decision, Long delaySeconds, String reason) {
        Decision expected = switch (decision) {
            case "delivered" -> new Delivered();
            case "retry" -> new Retry(Duration.ofSeconds(delaySeconds), reason);
            case "give-up" -> new GiveUp(reason);
            default -> throw new IllegalArgumentException("unknown decision in table: " + decision);
        };

        assertEquals(expected, policy.decide(attempt(outcome), attempt, jitter), rule);
    }

    @ParameterizedTest(name = "attempt {0}, jitter {1} -> {2}")
    @CsvSource({
            "8, 0.0, PT7M30S",    // nominal 1280 s, capped at 900 s, half of it fixed
            "8, 0.999, PT15M",
            "60, 0.999, PT15M",   // no overflow however many attempts
            "2147483647, 0.0, PT7M30S",
    })
    void backoff_whenNominalDelayPassesTheCap_staysWithinFifteenMinutes(int attempt, double jitter,
            Duration expected) {
        assertEquals(expected, policy.backoff(attempt, jitter));
    }

    @Test
    void backoff_whenJitterSweepsTheUnitInterval_coversEveryWholeSecondFromHalfToFull() {
        Set<Long> seen = new TreeSet<>();
        for (int i = 0; i < 1000; i++) {
            seen.add(policy.backoff(1, i / 1000.0).toSeconds());
        }

        assertEquals(Set.of(5L, 6L, 7L, 8L, 9L, 10L), seen);
    }

    @Test
    void decide_whenFailureHasNoDetail_reasonIsTheFailureWord() {
        assertEquals(new Retry(Duration.ofSeconds(5), "connect"),
                policy.decide(Attempt.failed(Failure.CONNECT, null), 1, 0.0));
    }

    @Test
    void decide_whenSettingsAllowOneAttempt_givesUpAfterTheFirst() {
        DeliveryPolicy once = DeliveryPolicy.create(new Settings(1, Duration.ofSeconds(10), Duration.ofMinutes(15)));

        assertEquals(new GiveUp("gave up after 1 attempt: http 503"), once.decide(Attempt.status(503), 1, 0.0));
    }

    @Test
    void decide_whenSettingsChangeBaseAndCap_usesThem() {
        DeliveryPolicy quick = DeliveryPolicy.create(new Settings(5, Duration.ofSeconds(1), Duration.ofSeconds(3)));

        assertEquals(new Retry(Duration.ofSeconds(3), "http 500"), quick.decide(Attempt.status(500), 4, 0.999));
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.1, 1.0, Double.NaN})
    void decide_whenJitterOutsideUnitInterval_throws(double jitter) {
        assertThrows(IllegalArgumentException.class, () -> policy.decide(Attempt.status(500), 1, jitter));
    }

    @Test
    void decide_whenAttemptBelowOne_throws() {
        assertThrows(IllegalArgumentException.class, () -> policy.decide(Attempt.status(500), 0, 0.0));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 99, 600, -1})
    void status_whenNotAnHttpStatus_throws(int status) {
        assertThrows(IllegalArgumentException.class, () -> Attempt.status(status));
    }

    @ParameterizedTest(name = "{0}, {1}, {2}")
    @CsvSource({
            "0, PT10S, PT15M",       // no attempts at all
            "8, PT0S, PT15M",        // no base delay
            "8, PT0.5S, PT15M",      // not whole seconds
            "8, PT10S, PT15M0.5S",
            "8, PT10S, PT15M1S",     // longer than a queue message can wait
            "8, PT1M, PT30S",        // cap below base
    })
    void settings_whenOutOfBounds_throws(int maxAttempts, Duration base, Duration max) {
        assertThrows(IllegalArgumentException.class, () -> new Settings(maxAttempts, base, max));
    }

    private static Attempt attempt(String outcome) {
        if (outcome.chars().allMatch(Character::isDigit)) {
            return Attempt.status(Integer.parseInt(outcome));
        }
        if (outcome.equals("blocked")) {
            return Attempt.blocked("address 10.0.0.1 is private");
        }
        return Attempt.failed(Failure.valueOf(outcome.toUpperCase(Locale.ROOT)), "boom");
    }
}
