package io.spiderling.local.cli;

import io.spiderling.core.batch.ItemState;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The end-of-run summary, computed from the result lines alone: counts by state, by site, fetch time percentiles,
 * bytes, and failures by reason.
 */
record Summary(Map<String, Long> byState, Map<String, Map<String, Long>> bySite, Optional<Long> p50Ms,
        Optional<Long> p99Ms, int timed, long bytes, Map<String, Long> failures) {

    /** Sites and failure reasons listed one per line; the rest are counted. */
    static final int LISTED = 10;

    static Summary of(List<ResultLine> lines) {
        Map<String, Long> byState = new TreeMap<>(Comparator.comparingInt(Summary::lifecycleOrder)
                .thenComparing(Comparator.naturalOrder()));
        lines.stream().filter(l -> !l.duplicate()).forEach(l -> byState.merge(l.state(), 1L, Long::sum));
        Map<String, Map<String, Long>> bySite = new TreeMap<>();
        for (ResultLine line : lines) {
            if (!line.duplicate() && line.site().isPresent()) {
                bySite.computeIfAbsent(line.site().get(), s -> new TreeMap<>()).merge(line.state(), 1L, Long::sum);
            }
        }
        List<Long> times = lines.stream().filter(l -> !l.duplicate()).map(ResultLine::totalMs)
                .flatMap(Optional::stream).sorted().toList();
        long bytes = lines.stream().filter(l -> !l.duplicate()).mapToLong(ResultLine::bytes).sum();
        Map<String, Long> failures = lines.stream().filter(l -> !l.duplicate() && l.state().equals("failed"))
                .collect(Collectors.groupingBy(l -> l.error().orElse("(no reason given)"), Collectors.counting()));
        return new Summary(byState, bySite, percentile(times, 50), percentile(times, 99), times.size(), bytes,
                sortedByCount(failures));
    }

    /** Where a state comes in a URL's life ({@link ItemState}'s order), rejections and unknown ones last. */
    static int lifecycleOrder(String state) {
        for (ItemState s : ItemState.values()) {
            if (s.wireName().equals(state)) {
                return s.ordinal();
            }
        }
        return ItemState.values().length;
    }

    /** The nearest-rank percentile of sorted values; empty for none. */
    static Optional<Long> percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return Optional.empty();
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return Optional.of(sorted.get(Math.max(0, rank - 1)));
    }

    void print(PrintStream out) {
        out.println("By state:");
        byState.forEach((state, n) -> out.printf("  %-13s %6d%n", state, n));
        out.println("By site:");
        List<Map.Entry<String, Map<String, Long>>> sites = new ArrayList<>(bySite.entrySet());
        sites.sort(Comparator.comparingLong((Map.Entry<String, Map<String, Long>> e) ->
                -e.getValue().values().stream().mapToLong(Long::longValue).sum()).thenComparing(Map.Entry::getKey));
        sites.stream().limit(LISTED).forEach(e -> out.printf("  %-30s %s%n", UrlText.shorten(e.getKey(), 30),
                e.getValue().entrySet().stream()
                        .sorted(Comparator.comparingInt((Map.Entry<String, Long> s) -> lifecycleOrder(s.getKey())))
                        .map(s -> s.getKey() + " " + s.getValue())
                        .collect(Collectors.joining(", "))));
        if (sites.size() > LISTED) {
            out.printf("  … and %d more sites (see results.jsonl)%n", sites.size() - LISTED);
        }
        if (timed > 0) {
            out.printf("Fetch time: p50 %d ms, p99 %d ms (%d fetches)%n", p50Ms.orElseThrow(), p99Ms.orElseThrow(),
                    timed);
        }
        out.printf("Bytes: %s fetched%n", bytes(bytes));
        if (!failures.isEmpty()) {
            out.println("Failures by reason:");
            failures.entrySet().stream().limit(LISTED).forEach(e ->
                    out.printf("  %6d  %s%n", e.getValue(), UrlText.shorten(e.getKey())));
            if (failures.size() > LISTED) {
                out.printf("  … and %d more reasons (see results.jsonl)%n", failures.size() - LISTED);
            }
        }
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        if (n < 1024 * 1024) {
            return String.format("%.1f KiB", n / 1024.0);
        }
        return String.format("%.1f MiB", n / (1024.0 * 1024));
    }

    private static Map<String, Long> sortedByCount(Map<String, Long> counts) {
        Map<String, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }
}
