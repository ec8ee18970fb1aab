package io.spiderling.core.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class HttpDateTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvFileSource(resources = "/fetch/http-date-cases.csv", numLinesToSkip = 1)
    void parse_whenTableCase_givesExpectedInstant(String rule, String value, Instant expected) {
        assertEquals(Optional.ofNullable(expected), HttpDate.parse(value, NOW), rule);
    }

    @Test
    void parse_whenNull_isEmpty() {
        assertEquals(Optional.empty(), HttpDate.parse(null, NOW));
    }

    @Test
    void parse_whenRfc850AndNowInLateCentury_readsSmallYearAsNextCentury() {
        Instant late = Instant.parse("2090-06-01T00:00:00Z");

        assertEquals(Optional.of(Instant.parse("2110-01-01T00:00:00Z")),
                HttpDate.parse("Wednesday, 01-Jan-10 00:00:00 GMT", late));
    }
}
