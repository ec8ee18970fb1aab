package io.spiderling.local.nativecheck;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The check's table: one line per event, then the details of every row that is not the same, then the legend. */
final class Report {

    private static final String LINE = "%-13s %-31s %-30s %-30s %-9s %9s %9s %8s %8s%n";

    private Report() {}

    static String render(List<Row> rows, List<Scenario> scenarios, NativeCheck.Options options, Duration took) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(LINE, "handler", "event", "native answer", "jvm answer", "verdict", "start ms",
                "", "RSS MB", ""));
        out.append(String.format(LINE, "", "", "", "", "", "native", "jvm", "native", "jvm"));
        for (Row row : rows) {
            out.append(String.format(LINE, row.scenario().function(), row.scenario().event(),
                    cut(Row.summary(row.nativeRun()), 30), cut(Row.summary(row.jvmRun()), 30), word(row.verdict()),
                    Row.millis(row.nativeRun()), Row.millis(row.jvmRun()), Row.megabytes(row.nativeRun()),
                    Row.megabytes(row.jvmRun())));
        }
        long same = rows.stream().filter(Row::passed).count();
        out.append(String.format("%n%d of %d the same; keys: %s; took %d s%n", same, rows.size(),
                options.keys().name().toLowerCase(Locale.ROOT), took.toSeconds()));
        for (Row row : rows) {
            switch (row.verdict()) {
                case Row.Verdict.Same s -> { }
                case Row.Verdict.Different d -> out.append(String.format(
                        "%n%s %s differs:%n  native: %s%n  jvm:    %s%n", row.scenario().function(),
                        row.scenario().event(), d.nativeAnswer(), d.jvmAnswer()));
                case Row.Verdict.Failed f -> out.append(String.format("%n%s %s failed:%n  %s%n",
                        row.scenario().function(), row.scenario().event(), String.join("\n  ", f.problems())));
            }
        }
        abnormalStops(out, "native", rows.stream().flatMap(row -> row.nativeRun().stream()).toList());
        abnormalStops(out, "jvm", rows.stream().flatMap(row -> row.jvmRun().stream()).toList());
        out.append(String.format("%nWhat each event exercised:%n%s%n", Scenarios.legend(scenarios)));
        out.append(String.format("Logs: %s%n", options.work().resolve("logs")));
        return out.toString();
    }

    /**
     * Processes that ended other than by the SIGTERM they were sent, after answering: not a difference between the
     * builds, but a function should stop cleanly when Lambda stops it. Grouped by exit status, since one cause usually
     * hits every process of a build.
     */
    private static void abnormalStops(StringBuilder out, String build, List<Invoker.Result> runs) {
        Map<Integer, List<Invoker.Measured>> byStatus = runs.stream().map(Invoker.Result::measured)
                .filter(Invoker.Measured::stoppedAbnormally)
                .collect(Collectors.groupingBy(m -> m.exitStatus().getAsInt(), TreeMap::new, Collectors.toList()));
        byStatus.forEach((status, stopped) -> out.append(String.format(
                "%n%s: %d of %d processes exited with status %d when stopped, after answering (e.g. %s)%n", build,
                stopped.size(), runs.size(), status, stopped.getFirst().log())));
    }

    private static String word(Row.Verdict verdict) {
        return switch (verdict) {
            case Row.Verdict.Same s -> "same";
            case Row.Verdict.Different d -> "DIFFERENT";
            case Row.Verdict.Failed f -> "FAILED";
        };
    }

    private static String cut(String text, int width) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() <= width ? oneLine : oneLine.substring(0, width - 1) + "…";
    }
}
