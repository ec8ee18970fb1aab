package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.catalog.Metrics;
import io.spiderling.lambda.internal.EmbeddedMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddedMetricsTest {

    @Test
    void line_whenMetricsGiven_isOneJsonObjectInCloudWatchsEmbeddedFormat() throws Exception {
        String line = EmbeddedMetrics.line("Spiderling", Map.of("FunctionName", "stack-sweep-1"),
                List.of(new EmbeddedMetrics.Metric("FrontierLagSeconds", "Seconds", 12.5),
                        new EmbeddedMetrics.Metric("StrandedPlans", "Count", 1)),
                Instant.parse("2026-11-23T10:00:00Z"));

        assertEquals(1, line.lines().count(), "one log line, or CloudWatch sees two events");
        assertEquals(new ObjectMapper().readTree("""
                {"_aws":{"Timestamp":1795428000000,"CloudWatchMetrics":[{"Namespace":"Spiderling",
                  "Dimensions":[["FunctionName"]],
                  "Metrics":[{"Name":"FrontierLagSeconds","Unit":"Seconds"},{"Name":"StrandedPlans","Unit":"Count"}]}]},
                 "FunctionName":"stack-sweep-1","FrontierLagSeconds":12.5,"StrandedPlans":1.0}"""),
                new ObjectMapper().readTree(line));
    }

    @Test
    void tally_whenAnInvocationAddsAndObserves_isOneLinePerSetOfDimensionValuesWithSumsAndValues() throws Exception {
        EmbeddedMetrics.Tally tally = new EmbeddedMetrics.Tally();
        tally.observe(Metrics.FETCH_LATENCY, 120);
        tally.observe(Metrics.FETCH_LATENCY, 80);
        tally.add(Metrics.RETRIES, 1);
        tally.add(Metrics.RETRIES, 1);
        tally.add(Metrics.FETCH_OUTCOMES, "ok", 1);
        tally.add(Metrics.FETCH_OUTCOMES, "server-error", 1);
        tally.add(Metrics.ROBOTS_OUTCOMES, "ok", 1);

        List<String> lines = tally.lines("stack-fetch-1", Instant.parse("2026-11-23T10:00:00Z"));

        ObjectMapper json = new ObjectMapper();
        assertEquals(3, lines.size(), lines::toString);
        assertEquals(json.readTree("""
                {"_aws":{"Timestamp":1795428000000,"CloudWatchMetrics":[{"Namespace":"Spiderling",
                  "Dimensions":[["FunctionName"]],
                  "Metrics":[{"Name":"Retries","Unit":"Count"},{"Name":"FetchLatency","Unit":"Milliseconds"}]}]},
                 "FunctionName":"stack-fetch-1","Retries":2.0,"FetchLatency":[120.0,80.0]}"""),
                json.readTree(lines.get(0)));
        JsonNode ok = json.readTree(lines.get(1));
        assertEquals("ok", ok.get("Outcome").asText());
        assertEquals(1.0, ok.get(Metrics.FETCH_OUTCOMES).asDouble());
        assertEquals(1.0, ok.get(Metrics.ROBOTS_OUTCOMES).asDouble());
        assertEquals("[[\"FunctionName\",\"Outcome\"]]",
                ok.get("_aws").get("CloudWatchMetrics").get(0).get("Dimensions").toString());
        assertEquals("server-error", json.readTree(lines.get(2)).get("Outcome").asText());
    }

    @Test
    void tally_whenMoreThanAHundredValues_continuesOnAnotherLine() throws Exception {
        EmbeddedMetrics.Tally tally = new EmbeddedMetrics.Tally();
        for (int i = 0; i < 130; i++) {
            tally.observe(Metrics.FETCH_LATENCY, i);
        }

        List<String> lines = tally.lines("stack-fetch-1", Instant.parse("2026-11-23T10:00:00Z"));

        assertEquals(2, lines.size());
        assertEquals(100, new ObjectMapper().readTree(lines.get(0)).get(Metrics.FETCH_LATENCY).size());
        assertEquals(30, new ObjectMapper().readTree(lines.get(1)).get(Metrics.FETCH_LATENCY).size());
    }

    @Test
    void tally_whenNothingAdded_printsNothing() {
        assertEquals(List.of(), new EmbeddedMetrics.Tally().lines("stack-fetch-1", Instant.EPOCH));
    }

    @Test
    void tally_whenMetricNotInTheCatalog_refusesIt() {
        assertThrows(IllegalArgumentException.class, () -> new EmbeddedMetrics.Tally().add("Invented", 1));
    }
}
