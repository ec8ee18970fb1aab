package io.spiderling.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProgressScheduleTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

    @ParameterizedTest(name = "every {0}, report {1} due at {2}")
    @CsvSource({
            "PT1M, 1, 2026-01-01T00:01:00Z",
            "PT1M, 3, 2026-01-01T00:03:00Z",
            "PT15M, 4, 2026-01-01T01:00:00Z",
            "PT1S, 86400, 2026-01-02T00:00:00Z",
    })
    void due_whenSequenceGiven_isCreatedAtPlusSequenceIntervals(Duration interval, long n, Instant expected) {
        assertEquals(expected, new ProgressSchedule(interval, CREATED).due(n));
    }

    @ParameterizedTest(name = "every {0}, report {1} at {2}: wait {3}")
    @CsvSource({
            "PT1M, 1, 2026-01-01T00:00:00Z, PT1M",
            "PT1M, 1, 2026-01-01T00:00:59Z, PT1S",
            "PT1M, 1, 2026-01-01T00:00:59.001Z, PT1S",   // rounded up: never early
            "PT1M, 1, 2026-01-01T00:01:00Z, PT0S",       // due now
            "PT1M, 1, 2026-01-01T00:05:00Z, PT0S",       // overdue
            "PT15M, 1, 2026-01-01T00:00:00Z, PT15M",
            "PT15M, 2, 2026-01-01T00:00:00Z, PT15M",     // 30 min away: one message's worth, then another
            "PT10M, 3, 2026-01-01T00:14:59.5Z, PT15M",   // 15 min 0.5 s away, clamped
    })
    void delayUntil_whenNowGiven_isTheWaitClampedToAQueueDelay(Duration interval, long n, Instant now,
            Duration expected) {
        assertEquals(expected, new ProgressSchedule(interval, CREATED).delayUntil(n, now));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT0S", "PT0.999S", "PT15M0.001S", "PT1H", "-PT1M"})
    void constructor_whenIntervalOutOfBounds_throws(Duration interval) {
        assertThrows(IllegalArgumentException.class, () -> new ProgressSchedule(interval, CREATED));
    }

    @Test
    void due_whenSequenceBelowOne_throws() {
        assertThrows(IllegalArgumentException.class,
                () -> new ProgressSchedule(Duration.ofMinutes(1), CREATED).due(0));
    }
}
