package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void ceilingMillis_whenAttemptsGrow_doublesFromFirstUpToMax() {
        Backoff backoff = new Backoff(10, 640, millis -> { });

        List<Long> ceilings = new ArrayList<>();
        for (int attempt = 1; attempt <= 9; attempt++) {
            ceilings.add(backoff.ceilingMillis(attempt));
        }

        assertEquals(List.of(10L, 20L, 40L, 80L, 160L, 320L, 640L, 640L, 640L), ceilings);
        assertEquals(1_000, new Backoff(20, 1_000, millis -> { }).ceilingMillis(Integer.MAX_VALUE));
    }

    @Test
    void pause_whenCalled_sleepsBetweenHalfTheCeilingAndTheCeiling() {
        List<Long> slept = new ArrayList<>();
        Backoff backoff = new Backoff(20, 1_000, slept::add);

        for (int i = 0; i < 200; i++) {
            backoff.pause(3, "a test");
        }

        assertTrue(slept.stream().allMatch(millis -> millis >= 40 && millis <= 80), slept.toString());
    }

    @Test
    void pause_whenInterrupted_throwsIllegalStateExceptionAndKeepsTheInterrupt() {
        Backoff backoff = new Backoff(10, 640, millis -> {
            throw new InterruptedException();
        });

        assertThrows(IllegalStateException.class, () -> backoff.pause(1, "a test"));
        assertTrue(Thread.interrupted());
    }
}
