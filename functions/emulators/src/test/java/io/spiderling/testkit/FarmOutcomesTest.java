package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.testkit.FarmOutcomes.Expected;
import io.spiderling.testkit.FarmOutcomes.Mismatch;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class FarmOutcomesTest {

    @ParameterizedTest(name = "{0} as {1}: {2}")
    @CsvSource({
            "FETCHED,            fetched,     match",
            "FETCHED,            skipped,     mismatch",
            "FETCHED,            failed,      mismatch",
            "FETCHED,            queued,      not-terminal",
            "FETCHED,            ,            not-terminal",
            "FETCHED_OR_SKIPPED, fetched,     match",
            "FETCHED_OR_SKIPPED, skipped,     match",
            "DISALLOWED,         disallowed,  match",
            "DISALLOWED,         fetched,     mismatch",
            "FAILED,             failed,      match",
            "FAILED,             queued,      not-terminal",
            "WAITING,            queued,      match",
            "WAITING,            failed,      mismatch",
            "WAITING,            ,            mismatch",
    })
    void compare_whenOneUrl_sortsItByItsState(Expected expected, String state, String verdict) {
        Map<String, String> states = new HashMap<>();
        if (state != null) {
            states.put("u", state);
        }

        FarmOutcomes outcomes = FarmOutcomes.compare(Map.of("u", expected), states);

        assertEquals(verdict.equals("not-terminal") ? List.of("u") : List.of(), outcomes.notTerminal());
        assertEquals(verdict.equals("mismatch") ? List.of(new Mismatch("u", expected, state)) : List.of(),
                outcomes.mismatches());
    }

    @Test
    void settled_whenOnlyWaitingUrlsQueued_isTrueAndKeepsTheMismatches() {
        Map<String, Expected> expected = new LinkedHashMap<>();
        expected.put("a", Expected.FETCHED);
        expected.put("b", Expected.WAITING);
        expected.put("c", Expected.DISALLOWED);

        FarmOutcomes outcomes = FarmOutcomes.compare(expected, Map.of("a", "failed", "b", "queued", "c",
                "disallowed"));

        assertTrue(outcomes.settled());
        assertEquals(List.of(new Mismatch("a", Expected.FETCHED, "failed")), outcomes.mismatches());
    }

    @Test
    void settled_whenAnExpectedEndIsStillQueued_isFalse() {
        assertFalse(FarmOutcomes.compare(Map.of("a", Expected.FAILED), Map.of("a", "queued")).settled());
    }
}
