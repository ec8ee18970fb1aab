package io.spiderling.core.pipeline.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class LateMarginTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/pipeline/late-margin-cases.csv", numLinesToSkip = 1)
    void margin_afterASequenceOfSends_isAsTheCaseSays(String name, long fromMillis, String sends, long expected) {
        LateMargin margin = new LateMargin(fromMillis);
        for (char send : sends.toCharArray()) {
            margin = switch (send) {
                case 'L' -> margin.afterLate();
                case 'O' -> margin.afterOnTime();
                default -> throw new IllegalArgumentException("L (late) or O (on time), not " + send);
            };
        }
        assertEquals(expected, margin.millis(), name);
    }

    @Test
    void margin_outsideZeroToTheMaximum_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LateMargin(-1));
        assertThrows(IllegalArgumentException.class, () -> new LateMargin(LateMargin.MAX + 1));
    }
}
