package io.spiderling.core.politeness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.url.SiteKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class OptOutTest {

    @Test
    void parse_whenExampleFile_readsEverySiteKey() throws IOException {
        try (InputStream in = OptOutTest.class.getResourceAsStream("/politeness/opt-out-example.txt")) {
            assertEquals(Set.of(new SiteKey("example.com"), new SiteKey("alice.github.io"), new SiteKey("127.0.0.9")),
                    OptOut.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        }
    }

    @Test
    void parse_whenEmpty_isNoSite() {
        assertEquals(Set.of(), OptOut.parse("# nobody yet\n"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/politeness/opt-out-invalid.csv", numLinesToSkip = 1)
    void parse_whenLineBreaksARule_throwsNamingTheLine(String rule, String text, String message) {
        var e = assertThrows(IllegalArgumentException.class, () -> OptOut.parse(text.replace("\\n", "\n")), rule);
        assertEquals(message, e.getMessage(), rule);
    }
}
