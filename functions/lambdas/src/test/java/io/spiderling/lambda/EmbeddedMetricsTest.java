package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
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
}
