package io.spiderling.core.notify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallbackEventTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:10:00Z");

    @Test
    void toJson_whenCompleted_writesFieldsInFixedOrderWithSortedCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("skipped", 1);
        counts.put("fetched", 7);
        counts.put("failed", 2);

        CallbackEvent event = CallbackEvent.completed("batch-42", counts, 10, AT);

        assertEquals("{\"eventId\":\"batch-42:completed\",\"type\":\"batch.completed\",\"batchId\":\"batch-42\","
                + "\"occurredAt\":\"2026-01-01T00:10:00Z\",\"total\":10,\"done\":true,"
                + "\"counts\":{\"failed\":2,\"fetched\":7,\"skipped\":1}}",
                new String(event.toJson(), StandardCharsets.UTF_8));
    }

    @Test
    void toJson_whenProgressWithFractionalInstant_writesIsoInstantAndNotDone() {
        CallbackEvent event = CallbackEvent.progress("b.1", 3, Map.of("queued", 4, "fetched", 1), 5,
                AT.plusMillis(250));

        assertEquals("{\"eventId\":\"b.1:progress:3\",\"type\":\"batch.progress\",\"batchId\":\"b.1\","
                + "\"occurredAt\":\"2026-01-01T00:10:00.250Z\",\"total\":5,\"done\":false,"
                + "\"counts\":{\"fetched\":1,\"queued\":4}}", new String(event.toJson(), StandardCharsets.UTF_8));
    }

    @Test
    void toJson_whenCountsGivenInAnotherOrder_isTheSameBytes() {
        Map<String, Integer> one = new LinkedHashMap<>();
        one.put("a", 1);
        one.put("b", 2);
        Map<String, Integer> other = new LinkedHashMap<>();
        other.put("b", 2);
        other.put("a", 1);

        assertArrayEquals(CallbackEvent.completed("x", one, 3, AT).toJson(),
                CallbackEvent.completed("x", other, 3, AT).toJson());
    }

    @Test
    void completed_whenCalledTwice_givesTheSameEventId() {
        assertEquals(CallbackEvent.completed("b-1", Map.of(), 0, AT).eventId(),
                CallbackEvent.completed("b-1", Map.of("fetched", 1), 1, AT.plusSeconds(60)).eventId());
    }

    @Test
    void counts_whenCallerChangesItsMap_isUnaffected() {
        Map<String, Integer> counts = new HashMap<>(Map.of("fetched", 1));
        CallbackEvent event = CallbackEvent.completed("b-1", counts, 1, AT);

        counts.put("failed", 5);

        assertEquals(List.of("fetched"), List.copyOf(event.counts().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> event.counts().put("x", 1));
    }

    @Test
    void progress_whenSequenceBelowOne_throws() {
        assertThrows(IllegalArgumentException.class, () -> CallbackEvent.progress("b-1", 0, Map.of(), 0, AT));
    }

    @Test
    void completed_whenCountNegative_throws() {
        assertThrows(IllegalArgumentException.class,
                () -> CallbackEvent.completed("b-1", Map.of("fetched", -1), 0, AT));
    }

    @Test
    void constructor_whenDoneDisagreesWithType_throws() {
        assertThrows(IllegalArgumentException.class, () -> CallbackEvent.builder().eventId("b-1:completed")
                .type(CallbackEvent.Type.COMPLETED).batchId("b-1").occurredAt(AT).counts(Map.of()).total(0)
                .done(false).build());
    }
}
