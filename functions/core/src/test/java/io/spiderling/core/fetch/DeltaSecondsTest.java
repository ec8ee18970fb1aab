package io.spiderling.core.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeltaSecondsTest {

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvSource(textBlock = """
            seconds,              60,                       PT1M
            zero,                 0,                        PT0S
            leading-zeros,        '0090',                   PT1M30S
            surrounding-space,    ' 5 ',                    PT5S
            just-below-overflow,  2147483647,               PT596523H14M7S
            overflow-limit,       2147483648,               PT596523H14M8S
            above-limit-reads-as-limit, 9999999999,         PT596523H14M8S
            too-many-digits,      123456789012345678901234, PT596523H14M8S
            negative,             -1,
            fraction,             1.5,
            plus-sign,            +1,
            unit,                 10s,
            empty,                '',
            """)
    void parse_whenTableCase_givesExpectedDuration(String rule, String value, Duration expected) {
        assertEquals(Optional.ofNullable(expected), DeltaSeconds.parse(value), rule);
    }

    @Test
    void parse_whenNull_isEmpty() {
        assertEquals(Optional.empty(), DeltaSeconds.parse(null));
    }
}
