package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/** The scale model's buckets: state, units and time in, a decision and the next state out. */
class TokenBucketTest {

    private static final Instant T0 = Instant.parse("2026-11-27T00:00:00Z");

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/token-buckets.csv", numLinesToSkip = 1)
    void bucket_whenCase_admitsAndChargesAsTheLimitSays(String name, double perSecond, double burstSeconds,
            double unitsBefore, double secondsLater, double charge, boolean expectedAdmits,
            double expectedUnitsAfter) {
        TokenBucket.Limit limit = new TokenBucket.Limit(perSecond, burstSeconds, 1);
        TokenBucket bucket = new TokenBucket(unitsBefore, T0);
        Instant now = T0.plusNanos((long) (secondsLater * 1e9));

        assertEquals(expectedAdmits, bucket.admits(limit, now), name + ": admits");
        assertEquals(expectedUnitsAfter, bucket.charge(limit, charge, now).units(), 1e-9, name + ": units after");
    }

    @Test
    void start_whenNewKey_holdsItsStartSecondsOfUnits() {
        TokenBucket.Limit limit = new TokenBucket.Limit(1_000, 300, 1).scaledDown(100);

        assertEquals(10, TokenBucket.start(limit, T0).units(), 1e-9);
        assertEquals(3_000, limit.burst(), 1e-9);
        assertEquals(T0.plus(Duration.ofSeconds(1)), TokenBucket.start(limit, T0).refill(limit,
                T0.plus(Duration.ofSeconds(1))).at());
    }
}
