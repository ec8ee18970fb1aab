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
 * bytes, and the URLs not fetched by reason code.
 *
 * @param failures the lines that ended without a copy (every state but fetched, not-modified and queued), counted by
 *     reason code, most first
 * @param examples a detail of each reason code in {@code failures}, the first line's, when it has one
 */
record Summary(Map<String, Long> byState, Map<String, Map<String, Long>> bySite, Optional<Long> p50Ms,
        Optional<Long> p99Ms, int timed, long bytes, Map<String, Long> failures, Map<String, String> examples) {

    /** The states of a line that got (or kept) a copy, or has no outcome yet: not counted among failures. */
    private static final List<String> NOT_FAILED = List.of(ItemState.FETCHED.wireName(),
            ItemState.NOT_MODIFIED.wireName(), ItemState.QUEUED.wireName());

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
        List<ResultLine> failed = lines.stream().filter(l -> !l.duplicate() && !NOT_FAILED.contains(l.state()))
                .toList();
        Map<String, Long> failures = failed.stream()
                .collect(Collectors.groupingBy(Summary::reasonOf, Collectors.counting()));
        Map<String, String> examples = new LinkedHashMap<>();
        failed.forEach(l -> l.error().or(l::detail).ifPresent(text -> examples.putIfAbsent(reasonOf(l), text)));
        return new Summary(byState, bySite, percentile(times, 50), percentile(times, 99), times.size(), bytes,
                sortedByCount(failures), examples);
    }

    /** A line's reason code; a line without one (an unknown item) goes under its state. */
    private static String reasonOf(ResultLine line) {
        return line.reason().orElse(line.state());
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
            out.println("Not fetched, by reason:");
            failures.entrySet().stream().limit(LISTED).forEach(e -> out.println(String.format("  %6d  %-18s %s",
                    e.getValue(), e.getKey(), Optional.ofNullable(examples.get(e.getKey()))
                            .map(text -> "e.g. " + UrlText.shorten(text, 60)).orElse("")).stripTrailing()));
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
