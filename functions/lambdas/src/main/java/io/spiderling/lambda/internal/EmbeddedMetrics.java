package io.spiderling.lambda.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * CloudWatch metrics in the embedded metric format: one JSON object on one line of the function's log, which
 * CloudWatch turns into metrics with no API call from the function. Lambda sends each line of standard output to the
 * log group as it is, so the handler prints it there (not through the logger, whose prefix would break the JSON).
 */
public final class EmbeddedMetrics {

    /** One value; {@code unit} is CloudWatch's name for it ({@code Seconds}, {@code Count}, …). */
    public record Metric(String name, String unit, double value) {}

    private EmbeddedMetrics() {}

    /** The log line carrying {@code metrics} under {@code namespace}, with one dimension set: all of {@code dimensions}. */
    public static String line(String namespace, Map<String, String> dimensions, List<Metric> metrics, Instant at) {
        ObjectNode root = HttpJson.JSON.createObjectNode();
        ObjectNode aws = root.putObject("_aws");
        aws.put("Timestamp", at.toEpochMilli());
        ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
        directive.put("Namespace", namespace);
        ArrayNode dimensionSet = directive.putArray("Dimensions").addArray();
        dimensions.keySet().forEach(dimensionSet::add);
        ArrayNode declared = directive.putArray("Metrics");
        for (Metric metric : metrics) {
            declared.addObject().put("Name", metric.name()).put("Unit", metric.unit());
        }
        dimensions.forEach(root::put);
        metrics.forEach(metric -> root.put(metric.name(), metric.value()));
        return root.toString();
    }
}
