package io.spiderling.core.recrawl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.fetch.FetchRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecrawlPolicyTest {

    private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    @ParameterizedTest(name = "{0}: {1} fetched {2} ago, window {3} -> {4}")
    @CsvSource(textBlock = """
            inside-window,      FETCHED, PT59M,  PT1H,  true
            at-window-edge,     FETCHED, PT1H,   PT1H,  false
            outside-window,     FETCHED, PT2H,   PT1H,  false
            failed-never-fresh, FAILED,  PT1M,   PT1H,  false
            zero-window,        FETCHED, PT0S,   PT0S,  false
            long-window,        FETCHED, P2D,    P7D,   true
            future-fetch-time,  FETCHED, -PT1M,  PT1H,  true
            """)
    void fresh_whenStoredFetchOfStateAndAge_expectDecision(String rule, ItemState state, Duration age,
            Duration window, boolean fresh) {
        FetchRecord last = FetchRecord.builder("h", "https://example.com/", state, NOW.minus(age)).httpStatus(200)
                .build();

        assertEquals(fresh, RecrawlPolicy.fresh(Optional.of(last), window, NOW), rule);
    }

    @org.junit.jupiter.api.Test
    void fresh_whenNeverFetched_expectFalse() {
        assertEquals(false, RecrawlPolicy.fresh(Optional.empty(), Duration.ofDays(365), NOW));
    }
}
