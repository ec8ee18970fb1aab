package io.spiderling.lambda.internal;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.catalog.Metrics;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * CloudWatch metrics in the embedded metric format: one JSON object on one line of the function's log, which
 * CloudWatch turns into metrics with no API call from the function. Lambda sends each line of standard output to the
 * log group as it is, so the handler prints it there (not through the logger, whose prefix would break the JSON).
 *
 * <p>Log bytes are billed, so a handler does not print a line per event: it adds to a {@link Tally} while it works
 * and {@linkplain Tally#publish publishes} once at the end, one line per set of dimension values.
 */
public final class EmbeddedMetrics {

    /** CloudWatch takes at most this many values of one metric in one line. */
    public static final int MAX_VALUES = 100;

    /**
     * One metric's values: one (a sum) or several (each observation, for CloudWatch's percentiles); {@code unit} is
     * CloudWatch's name for it ({@code Seconds}, {@code Count}, …).
     */
    public record Metric(String name, String unit, List<Double> values) {
        public Metric {
            values = List.copyOf(values);
            if (values.isEmpty() || values.size() > MAX_VALUES) {
                throw new IllegalArgumentException(name + " needs 1 to " + MAX_VALUES + " values, has "
                        + values.size());
            }
        }

        public Metric(String name, String unit, double value) {
            this(name, unit, List.of(value));
        }
    }

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
        for (Metric metric : metrics) {
            if (metric.values().size() == 1) {
                root.put(metric.name(), metric.values().getFirst());
            } else {
                ArrayNode values = root.putArray(metric.name());
                metric.values().forEach(values::add);
            }
        }
        return root.toString();
    }

    /** The function's name as Lambda reports it, or its catalog name when there is no context (a local run). */
    public static String functionName(Context context, String catalogName) {
        return context == null || context.getFunctionName() == null ? catalogName : context.getFunctionName();
    }

    /**
     * One invocation's metrics, added to as it goes (from any thread) and published once: a line for the metrics
     * dimensioned by function alone, and one per outcome for those counted by {@link Metrics#OUTCOME_DIMENSION}.
     * Names and units are the catalog's ({@link Metrics}).
     */
    public static final class Tally {

        private final Map<String, Double> sums = new LinkedHashMap<>();
        private final Map<String, List<Double>> observed = new LinkedHashMap<>();
        private final Map<String, Map<String, Double>> byOutcome = new TreeMap<>();

        /** Adds {@code amount} to the metric's sum. */
        public synchronized void add(String metric, double amount) {
            sums.merge(declared(metric), amount, Double::sum);
        }

        /** Adds {@code amount} to the metric's sum for {@code outcome}, one of a fixed set of words. */
        public synchronized void add(String metric, String outcome, double amount) {
            declared(metric);
            byOutcome.computeIfAbsent(Objects.requireNonNull(outcome, "outcome"), o -> new LinkedHashMap<>())
                    .merge(metric, amount, Double::sum);
        }

        /** Keeps {@code value} as one observation of the metric. */
        public synchronized void observe(String metric, double value) {
            observed.computeIfAbsent(declared(metric), m -> new ArrayList<>()).add(value);
        }

        /**
         * The lines, none when nothing was added: one for the metrics by function, then one per outcome; a metric
         * with more than {@link #MAX_VALUES} observations continues on further lines of its own.
         */
        public synchronized List<String> lines(String function, Instant at) {
            List<String> lines = new ArrayList<>();
            Map<String, String> byFunction = Map.of(Metrics.FUNCTION_DIMENSION, function);
            List<Metric> first = new ArrayList<>();
            sums.forEach((name, sum) -> first.add(new Metric(name, Metrics.UNITS.get(name), sum)));
            List<List<Metric>> overflow = new ArrayList<>();
            observed.forEach((name, values) -> {
                for (int from = 0; from < values.size(); from += MAX_VALUES) {
                    Metric part = new Metric(name, Metrics.UNITS.get(name),
                            values.subList(from, Math.min(values.size(), from + MAX_VALUES)));
                    if (from == 0) {
                        first.add(part);
                    } else {
                        overflow.add(List.of(part));
                    }
                }
            });
            if (!first.isEmpty()) {
                lines.add(line(Metrics.NAMESPACE, byFunction, first, at));
            }
            overflow.forEach(part -> lines.add(line(Metrics.NAMESPACE, byFunction, part, at)));
            byOutcome.forEach((outcome, metrics) -> {
                Map<String, String> dimensions = new LinkedHashMap<>(byFunction);
                dimensions.put(Metrics.OUTCOME_DIMENSION, outcome);
                List<Metric> counts = new ArrayList<>();
                metrics.forEach((name, sum) -> counts.add(new Metric(name, Metrics.UNITS.get(name), sum)));
                lines.add(line(Metrics.NAMESPACE, dimensions, counts, at));
            });
            return lines;
        }

        /** Prints {@link #lines} to {@code out}, each whole, as Lambda needs one JSON object per log line. */
        public void publish(PrintStream out, String function, Instant at) {
            List<String> lines = lines(function, at);
            synchronized (out) {
                lines.forEach(out::println);
            }
            out.flush();
        }

        private static String declared(String metric) {
            if (!Metrics.UNITS.containsKey(metric)) {
                throw new IllegalArgumentException(metric + " is not declared in the catalog's Metrics");
            }
            return metric;
        }
    }
}
