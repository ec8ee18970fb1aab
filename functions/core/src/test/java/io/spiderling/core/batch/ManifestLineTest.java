package io.spiderling.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class ManifestLineTest {

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvFileSource(resources = "/manifest/manifest-lines.csv", nullValues = "\u0000")
    void parse_whenLine_findsTheUrlOrSaysWhy(String format, String line, String url, String reason) {
        var parsed = ManifestLine.parse(UploadFormat.fromWireName(format).orElseThrow(),
                new ManifestChunks.Line(0, line == null ? "" : line, false));
        if (url != null && !url.isEmpty()) {
            assertEquals(new ManifestLine.Parsed.Url(url), parsed);
        } else if (reason != null && !reason.isEmpty()) {
            var invalid = assertInstanceOf(ManifestLine.Parsed.Invalid.class, parsed);
            assertTrue(invalid.reason().startsWith(reason), invalid.reason());
        } else {
            assertInstanceOf(ManifestLine.Parsed.Blank.class, parsed);
        }
    }

    @Test
    void parse_whenLineTooLong_isInvalidWhateverItHolds() {
        var parsed = ManifestLine.parse(UploadFormat.TEXT,
                new ManifestChunks.Line(0, "https://example.com/" + "a".repeat(300), true));
        var invalid = assertInstanceOf(ManifestLine.Parsed.Invalid.class, parsed);
        assertEquals("line longer than 16384 bytes", invalid.reason());
        assertTrue(invalid.shown().length() <= 201, "only the start of the line is kept");
    }
}
