package io.spiderling.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
