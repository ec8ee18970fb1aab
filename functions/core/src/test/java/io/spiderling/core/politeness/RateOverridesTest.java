package io.spiderling.core.politeness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RateOverridesTest {

    private static final Duration DEFAULT = Duration.ofSeconds(1);

    @Test
    void parse_whenExampleFile_readsEverySite() throws IOException {
        RateOverrides overrides = RateOverrides.parse(resource("/politeness/rate-overrides-example.txt"));

        assertEquals(Map.of(
                "example.com", new BigDecimal("10"),
                "partner.example", new BigDecimal("2.5"),
                "slow.example", new BigDecimal("0.2"),
                "tabbed.example", new BigDecimal("0.3"),
                "alice.github.io", new BigDecimal("50"),
                "127.0.0.2", new BigDecimal("3"),
                "[2001:db8::1]", new BigDecimal("1")), overrides.qps());
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/politeness/rate-overrides-invalid.csv", numLinesToSkip = 1)
    void parse_whenLineBreaksARule_throwsNamingTheLine(String rule, String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RateOverrides.parse(text.replace("\\n", "\n")), rule);

        assertEquals(message, e.getMessage(), rule);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "# only a comment", "\n\n# a\n  # b\n"})
    void parse_whenNothingButCommentsAndBlanks_isNone(String text) {
        assertSame(RateOverrides.none(), RateOverrides.parse(text));
    }

    @Test
    void parse_whenWindowsLineEndings_readsLines() {
        assertEquals(Optional.of(new BigDecimal("2")),
                RateOverrides.parse("a.example 1\r\nb.example 2\r\n").qpsFor("b.example"));
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource({
            "ten-qps,               example.com,      PT0.1S",
            "fraction-of-qps,       slow.example,     PT5S",
            "rounded-up-to-ms,      three.example,    PT0.334S",
            "max-qps,               max.example,      PT0.02S",
            "case-insensitive-key,  EXAMPLE.COM,      PT0.1S",
            "no-override-default,   other.example,    PT1S",
            "tiny-rate,             tiny.example,     PT2H46M40S",
    })
    void intervalFor_whenSite_givesSpacing(String rule, String site, Duration expected) {
        RateOverrides overrides = RateOverrides.parse("""
                example.com 10
                slow.example 0.2
                three.example 3
                max.example 50
                tiny.example 0.0001
                """);

        assertEquals(expected, overrides.intervalFor(site, DEFAULT), rule);
    }

    @Test
    void intervalFor_whenNone_isDefault() {
        assertEquals(DEFAULT, RateOverrides.none().intervalFor("example.com", DEFAULT));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RateOverridesTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
