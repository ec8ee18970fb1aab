package io.spiderling.core.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class QuotaTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/quota/quota-decisions.csv", numLinesToSkip = 1)
    void decide_whenTableCase_givesTheDecisionAndResetTime(String name, long limit, long used, long requested,
            Instant now, String decision, Long usedAfter, Instant resetAt, Long retryAfterSeconds) {
        Quota.Decision d = Quota.decide(limit, used, requested, now);

        switch (decision) {
            case "unlimited" -> assertInstanceOf(Quota.Decision.Unlimited.class, d, name);
            case "allowed" -> assertEquals(new Quota.Decision.Allowed(limit, usedAfter, resetAt), d, name);
            case "over" -> assertEquals(new Quota.Decision.OverQuota(limit, usedAfter, requested, resetAt,
                    Duration.ofSeconds(retryAfterSeconds)), d, name);
            default -> throw new IllegalArgumentException(decision);
        }
    }

    @Test
    void reason_whenOverQuota_namesWhatWasAskedWhatIsLeftAndTheReset() {
        var over = (Quota.Decision.OverQuota) Quota.decide(100, 40, 61, Instant.parse("2026-11-28T10:00:00Z"));

        assertEquals("quota exceeded: 61 URLs asked, 60 of 100 left today (UTC); resets at 2026-11-29T00:00:00Z",
                over.reason());
    }

    @Test
    void decide_whenNegative_throws() {
        Instant now = Instant.parse("2026-11-28T10:00:00Z");
        assertThrows(IllegalArgumentException.class, () -> Quota.decide(-1, 0, 1, now));
        assertThrows(IllegalArgumentException.class, () -> Quota.decide(1, -1, 1, now));
        assertTrue(Quota.decide(1, 0, 1, now) instanceof Quota.Decision.Allowed);
    }
}
