package io.spiderling.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReasonTest {

    @Test
    void ofCode_whenEveryCodeIsReadBack_givesItsReasonAndCodesAreDistinct() {
        for (Reason reason : Reason.values()) {
            assertEquals(Optional.of(reason), Reason.ofCode(reason.code()), reason.name());
        }
        assertEquals(Reason.values().length, Arrays.stream(Reason.values()).map(Reason::code).distinct().count());
        assertEquals(Optional.empty(), Reason.ofCode("dlq"), "an unknown code is no reason");
    }

    @Test
    void state_whenEveryTerminalStateIsLookedAt_hasAtLeastOneReason() {
        Set<ItemState> covered = Arrays.stream(Reason.values()).map(Reason::state).collect(Collectors.toSet());

        assertEquals(Arrays.stream(ItemState.values()).filter(ItemState::terminal).collect(Collectors.toSet()), covered);
    }

    @ParameterizedTest(name = "{0} with status {1}: {2}")
    @CsvSource({
            "fetched,      200, fetched",
            "not-modified, 304, not-modified",
            "skipped,         , fresh-copy",
            "disallowed,      , robots-disallowed",
            "failed,       404, http-error",
            "failed,          , read-failed",
            "cancelled,       , batch-cancelled",
            "invalid,         , invalid-url"})
    void presumed_whenARowHasNoReasonStored_readsOneFromItsStateAndStatus(String state, Integer status,
            String reason) {
        assertEquals(reason, Reason.presumed(ItemState.fromWireName(state), Optional.ofNullable(status)).code());
    }

    @Test
    void presumed_whenQueued_refuses() {
        assertThrows(IllegalArgumentException.class, () -> Reason.presumed(ItemState.QUEUED, Optional.empty()));
    }
}
