package io.spiderling.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A failed message's backoff: 30 s, doubling with each receive, at most 15 minutes. */
class RetrySoonTest {

    @ParameterizedTest
    @CsvSource({"0, PT30S", "1, PT30S", "2, PT1M", "3, PT2M", "5, PT8M", "6, PT15M", "40, PT15M"})
    void delay_whenTheMessageWasReceivedThisOften_isTheBackoff(int receives, Duration expected) {
        assertEquals(expected, RetrySoon.delay(receives));
    }
}
