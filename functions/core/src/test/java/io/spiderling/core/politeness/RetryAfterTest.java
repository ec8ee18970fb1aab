package io.spiderling.core.politeness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00.250Z");

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvFileSource(resources = "/politeness/retry-after-cases.csv", numLinesToSkip = 1)
    void parse_whenTableCase_givesExpectedWait(String rule, String value, Duration expected) {
        assertEquals(Optional.ofNullable(expected), RetryAfter.parse(value, NOW), rule);
    }

    @Test
    void parse_whenAbsent_isEmpty() {
        assertEquals(Optional.empty(), RetryAfter.parse(null, NOW));
    }
}
