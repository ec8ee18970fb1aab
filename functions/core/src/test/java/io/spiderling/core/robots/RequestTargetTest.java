package io.spiderling.core.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class RequestTargetTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvFileSource(resources = "/robots/request-target-cases.csv", numLinesToSkip = 1)
    void of_whenRequestUrl_expectPathAndQueryAsWritten(String rule, String url, String target) {
        assertEquals(target, RequestTarget.of(url), rule);
    }
}
