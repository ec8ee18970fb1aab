package io.spiderling.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the progress display and the summary say, as case tables. */
class ProgressTextTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case                       | total | queued | fetched | failed | done  | elapsed s | expected
            nothing ended yet            | 10    | 10     | 0       | 0      | false | 3         | 0/10 ended
            under a second, no rate      | 10    | 8      | 2       | 0      | false | 0         | 2/10 ended (fetched 2)
            half ended in 10 s           | 10    | 5      | 4       | 1      | false | 10        | 5/10 ended (fetched 4, failed 1) · 0.5 URLs/s · ETA 10s
            long wait shows minutes      | 1000  | 900    | 100     | 0      | false | 60        | 100/1000 ended (fetched 100) · 1.7 URLs/s · ETA 9m00s
            done has no ETA              | 4     | 0      | 4       | 0      | true  | 8         | 4/4 ended (fetched 4) · 0.5 URLs/s
            """)
    void counts(String name, int total, int queued, int fetched, int failed, boolean done, long elapsed,
            String expected) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("queued", queued);
        counts.put("fetched", fetched);
        counts.put("failed", failed);
        BatchSnapshot s = new BatchSnapshot("b", total, done, counts, List.of(), 0, 0, 0, Optional.empty());

        assertEquals(expected, ProgressLine.counts(s, Duration.ofSeconds(elapsed)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case                      | sites | more | expected
            none                        | 0     | 0    | ''
            one with a time             | 1     | 0    | waiting on 127.0.0.4: robots.txt unreachable (503), next try 22:41:07 (3 URLs)
            three, two shown            | 3     | 0    | waiting on 127.0.0.4: robots.txt unreachable (503), next try 22:41:07 (3 URLs); 127.0.0.5: robots.txt unreachable (503), next try 22:41:07 (3 URLs) (and 1 more)
            more than the API looked at | 1     | 4    | waiting on 127.0.0.4: robots.txt unreachable (503), next try 22:41:07 (3 URLs) (and 4 more)
            """)
    void waiting(String name, int sites, int more, String expected) {
        List<BatchSnapshot.Waiting> waiting = java.util.stream.IntStream.range(0, sites)
                .mapToObj(i -> new BatchSnapshot.Waiting("127.0.0." + (4 + i), "robots-unreachable",
                        "robots.txt unreachable (503)", Optional.of(Instant.parse("2026-11-24T22:41:07Z")), 3))
                .toList();
        BatchSnapshot s = new BatchSnapshot("b", 9, false, Map.of("queued", 9), waiting, more, 0, 0, Optional.empty());

        assertEquals(expected, ProgressLine.waiting(s, ZoneOffset.UTC).orElse(""));
    }

    /** 60 URLs, 27 ended, 10 s in; waiting on {@code sites} sites whose detail is {@code detail}. */
    private static BatchSnapshot midway(int sites, String detail) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("queued", 33);
        counts.put("fetched", 26);
        counts.put("failed", 1);
        List<BatchSnapshot.Waiting> waiting = java.util.stream.IntStream.range(0, sites)
                .mapToObj(i -> new BatchSnapshot.Waiting("127.0.0." + (2 + i), "rate-limited", detail,
                        Optional.of(Instant.parse("2026-11-24T05:33:46Z")), 5))
                .toList();
        return new BatchSnapshot("b", 60, false, counts, waiting, 0, 0, 0, Optional.empty());
    }

    /**
     * The last line the bar drew. The library prints its first frame with a newline and redraws it between
     * cursor-up and cursor-down escapes ({@code ESC[1A\r … ESC[1B\r}), so how many frames there are depends on
     * its timer thread.
     */
    static String lastDrawn(String written) {
        String[] frames = written.replaceAll("\u001b\\[\\d+[AB]", "").split("[\r\n]");
        for (int i = frames.length - 1; i >= 0; i--) {
            if (!frames[i].isBlank()) {
                return frames[i].strip();
            }
        }
        return "";
    }

    @org.junit.jupiter.api.Test
    void lastDrawn_whenTheBarWasRedrawn_readsTheLastFrame() {
        String written = "\rfetch a\n\u001b[1A\rfetch b\u001b[1B\r\u001b[1A\rfetch c\u001b[1B\r\n";

        assertEquals("fetch c", lastDrawn(written));
    }

    private static int barCells(String line) {
        int open = line.indexOf('\u2502');
        return line.indexOf('\u2502', open + 1) - open - 1;
    }

    @ParameterizedTest(name = "{0} at {1} columns")
    @CsvSource(delimiter = '|', textBlock = """
            # case                      | columns | sites | detail                                        | bar | expected tail
            no wait                     | 80      | 0     | ''                                            | 13  | ETA 12s
            no wait                     | 140     | 0     | ''                                            | 30  | ETA 12s
            long wait, left out         | 80      | 3     | rate-limited: one request every 1 s           | 13  | ETA 12s
            long wait, cut              | 140     | 3     | rate-limited: one request every 1 s           | 10  | …
            short wait, whole           | 140     | 1     | slow                                          | 15  | (5 URLs)
            """)
    void live_atAWidth_keepsTheCountsWholeAndTheBarReadableAndCutsTheWaitingFirst(String name, int columns,
            int sites, String detail, int bar, String tail) {
        BatchSnapshot s = midway(sites, detail);
        Optional<String> waiting = ProgressLine.waiting(s, ZoneOffset.UTC);

        String line = ProgressLine.live(s, Duration.ofSeconds(10), waiting, columns);

        String counts = "27/60 ended (fetched 26, failed 1) · 2.7 URLs/s · ETA 12s";
        assertTrue(line.contains("\u2502 " + counts), line);
        assertTrue(line.length() <= columns - 1, line.length() + " columns: " + line);
        assertEquals(bar, barCells(line), line);
        assertTrue(line.endsWith(tail), line);
        if (!tail.equals("ETA 12s")) {
            assertTrue(line.contains(counts + " · waiting on 127.0.0.2: "), "a separator after the counts: " + line);
        }
    }

    @org.junit.jupiter.api.Test
    void live_whenTheTerminalIsNarrowerThanTheCounts_showsTheCountsWholeAndTheNarrowestBar() {
        BatchSnapshot s = midway(1, "slow");

        String line = ProgressLine.live(s, Duration.ofSeconds(10), ProgressLine.waiting(s, ZoneOffset.UTC), 40);

        assertTrue(line.endsWith("27/60 ended (fetched 26, failed 1) · 2.7 URLs/s · ETA 12s"), line);
        assertEquals(ProgressLine.MIN_BAR, barCells(line), line);
    }

    @ParameterizedTest(name = "{0} columns")
    @CsvSource({"80, ''", "140, ' · waiting on 127.0.0.2: rate-limited'"})
    void bar_whenRedrawnOnATerminal_writesTheLiveLineWithItsSeparators(int columns, String waiting) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream err = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
        BatchSnapshot s = midway(3, "rate-limited: one request every 1 s");

        try (Progress bar = new Progress.Bar(err, ZoneOffset.UTC, java.util.OptionalInt.of(columns))) {
            bar.update(s, Duration.ofSeconds(10));
        }

        String written = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        String last = lastDrawn(written);
        assertTrue(last.startsWith("fetch \u2502"), written);
        assertTrue(last.contains(" (fetched 26, failed 1) · 2.7 URLs/s · ETA 12s" + waiting), "the parts: " + last);
        assertTrue(last.length() <= columns - 1, last.length() + ": " + last);
        assertTrue(barCells(last) >= ProgressLine.MIN_BAR, last);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case            | text                          | width | expected
            fits              | http://a.example/x            | 20    | http://a.example/x
            exactly the width | http://a.example/xy           | 19    | http://a.example/xy
            too long          | http://a.example/abcdefghijkl | 20    | http://a.ex…efghijkl
            control chars     | http://a/b\tc                 | 20    | http://a/b?c
            """)
    void shorten(String name, String text, int width, String expected) {
        String input = text.replace("\\t", "\t");
        assertEquals(expected, UrlText.shorten(input, width));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case            | sorted values         | p  | expected
            none              | ''                    | 50 | ''
            one               | 7                     | 99 | 7
            median of four    | 1 2 3 4               | 50 | 2
            p99 of ten        | 1 2 3 4 5 6 7 8 9 100 | 99 | 100
            p50 of ten        | 1 2 3 4 5 6 7 8 9 100 | 50 | 5
            """)
    void percentile(String name, String values, int p, String expected) {
        List<Long> sorted = values.isBlank() ? List.of()
                : Arrays.stream(values.split(" ")).map(Long::valueOf).toList();
        assertEquals(expected, Summary.percentile(sorted, p).map(String::valueOf).orElse(""));
    }
}
