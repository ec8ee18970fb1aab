package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.core.batch.Waiting;
import io.spiderling.core.pipeline.batch.BatchWaiting;
import io.spiderling.core.politeness.FetchOutcome;
import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.url.SiteKey;
import io.spiderling.lambda.api.Views;
import io.spiderling.lambda.internal.HttpJson;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/** How {@code GET /batches/{id}} words a paused site, from the cause its rate item recorded. */
class PausedViewTest {

    private static final Instant UNTIL = Instant.parse("2026-11-24T22:45:00Z");

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/api/paused-details.csv", numLinesToSkip = 1)
    void waiting_whenSitePausedForTableCause_namesTheCause(String rule, String cause, int pausesInRow, String detail,
            String causeField, Integer status) {
        Waiting paused = new Waiting.Paused(new SiteKey("example.com"), UNTIL, pausesInRow, cause(cause), 4);

        JsonNode entry = Views.waiting(HttpJson.JSON.createObjectNode(),
                new BatchWaiting.Report(List.of(paused), 0, false)).at("/waiting/0");

        assertEquals("paused", entry.get("reason").asText(), rule);
        assertEquals(detail, entry.get("detail").asText(), rule);
        assertEquals(UNTIL.toString(), entry.get("until").asText(), rule);
        assertEquals(Optional.ofNullable(causeField), Optional.ofNullable(entry.get("cause")).map(JsonNode::asText),
                rule);
        assertEquals(Optional.ofNullable(status), Optional.ofNullable(entry.get("status")).map(JsonNode::asInt),
                rule);
    }

    private static Optional<PauseCause> cause(String cell) {
        String[] words = cell.split(" ");
        return switch (words[0]) {
            case "unknown" -> Optional.empty();
            case "throttled" -> Optional.of(new PauseCause.Throttled(Integer.parseInt(words[1]),
                    words[2].equals("none") ? Optional.empty() : Optional.of(Duration.parse(words[2]))));
            case "failures" -> Optional.of(new PauseCause.Failures(Integer.parseInt(words[1]),
                    FetchOutcome.fromWireName(words[2]).orElseThrow()));
            default -> throw new IllegalArgumentException("unknown cause in table: " + cell);
        };
    }
}
