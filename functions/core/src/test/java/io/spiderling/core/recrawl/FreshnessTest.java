package io.spiderling.core.recrawl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class FreshnessTest {

    private static final Instant FETCHED_AT = Instant.parse("2026-11-22T12:00:00Z");
    private static final Duration MIN = Duration.ofMinutes(5);
    private static final Duration MAX = Duration.ofDays(7);

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/recrawl/freshness-cases.csv", numLinesToSkip = 1)
    void freshUntil_whenTableCase_givesExpectedInstant(String rule, String cacheControl, String expires, String date,
            String age, Duration freshFor) {
        Map<String, String> headers = new HashMap<>();
        put(headers, "cache-control", cacheControl);
        put(headers, "expires", expires);
        put(headers, "date", date);
        put(headers, "age", age);

        assertEquals(FETCHED_AT.plus(freshFor),
                Freshness.freshUntil(headers, FETCHED_AT, RecrawlPolicy.DEFAULT_WINDOW, MIN, MAX), rule);
    }

    @Test
    void freshUntil_whenNoHeadersAndDefaultOutsideBounds_keepsCallersWindow() {
        Duration window = Duration.ofDays(30);

        assertEquals(FETCHED_AT.plus(window), Freshness.freshUntil(Map.of(), FETCHED_AT, window, MIN, MAX));
    }

    @Test
    void freshUntil_whenMinIsZeroAndNoStore_isFetchTime() {
        assertEquals(FETCHED_AT, Freshness.freshUntil(Map.of("cache-control", "no-store"), FETCHED_AT,
                RecrawlPolicy.DEFAULT_WINDOW, Duration.ZERO, MAX));
    }

    @Test
    void freshUntil_whenMinAboveMax_throws() {
        assertThrows(IllegalArgumentException.class, () -> Freshness.freshUntil(Map.of(), FETCHED_AT,
                RecrawlPolicy.DEFAULT_WINDOW, Duration.ofHours(2), Duration.ofHours(1)));
    }

    private static void put(Map<String, String> headers, String name, String value) {
        if (value != null) {
            headers.put(name, value);
        }
    }
}
