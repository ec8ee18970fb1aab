package io.spiderling.core.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class EscapingTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvFileSource(resources = "/robots/escaping-cases.csv", numLinesToSkip = 1)
    void patternAndTarget_whenText_expectOneFormThatIsStable(String rule, String text, String pattern,
            String target) {
        assertEquals(pattern, Escaping.pattern(text), rule + " as a pattern");
        assertEquals(target, Escaping.target(text), rule + " as a target");
        assertEquals(pattern, Escaping.pattern(pattern), rule + ": a pattern's form is its own form");
        assertEquals(target, Escaping.target(target), rule + ": a target's form is its own form");
    }
}
