package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The soak's memory verdict: each live-heap sample after the warm-up within the tolerance of the first of them. */
class HeapSamplerTest {

    private static final long MIB = 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            flat after a warm-up that grew         | 50 90 100 110 105 115       | flat
            just under the limit above             | 50 50 50 100 119            | flat
            just over the limit above              | 50 50 50 100 121            | NOT FLAT
            a steady climb                         | 50 90 100 110 120 135       | NOT FLAT
            a load that drains at the end          | 50 90 100 100 105 109 83    | flat
            a fall past the limit                  | 50 90 100 105 79            | NOT FLAT
            one sample after the warm-up           | 50 60 70 100                | not judged
            none after the warm-up                 | 50 60 70                    | not judged
            """)
    void judge_whenSampledEveryMinuteWithThreeMinutesOfWarmup_givesTheVerdict(String name, String mib,
            String verdict) {
        List<HeapSampler.Sample> samples = new ArrayList<>();
        String[] values = mib.trim().split("\\s+");
        for (int minute = 0; minute < values.length; minute++) {
            samples.add(new HeapSampler.Sample(Duration.ofMinutes(minute), Long.parseLong(values[minute]) * MIB,
                    0, 0, 0, 0, new HeapSampler.Progress(0, 0, 0)));
        }

        assertEquals(verdict, HeapSampler.judge(samples, Duration.ofMinutes(3), 0.20).verdict(), name);
    }
}
