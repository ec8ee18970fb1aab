package io.spiderling.core.frontier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/** Every due time gets a wake-up at or after it, at most {@link WakeUps#GROUPING} later, and close ones share one. */
class WakeUpsTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/frontier/wake-ups.csv", numLinesToSkip = 1)
    void times_wakesEveryWaitAfterTheRelease(String name, long released, String due, String expected) {
        List<Instant> wakeUps = WakeUps.times(instants(due), Instant.ofEpochMilli(released));

        assertEquals(instants(expected), wakeUps, name);
        for (Instant at : instants(due)) {
            if (at.toEpochMilli() > released) {
                assertEquals(true, wakeUps.stream().anyMatch(w -> !w.isBefore(at)
                        && !w.isAfter(at.plus(WakeUps.GROUPING))), name + ": " + at + " woken within the grouping");
            }
        }
    }

    private static List<Instant> instants(String millis) {
        return millis == null ? List.of() : Arrays.stream(millis.trim().split(" "))
                .map(m -> Instant.ofEpochMilli(Long.parseLong(m))).toList();
    }
}
