package io.spiderling.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class Ipv4SpellingTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvFileSource(resources = "/net/ipv4-spelling-cases.csv", numLinesToSkip = 1)
    void ambiguity_whenTableCase_namesTheHostOrNothing(String host, String expected) {
        assertEquals(Optional.ofNullable(expected), Ipv4Spelling.ambiguity(host));
    }
}
