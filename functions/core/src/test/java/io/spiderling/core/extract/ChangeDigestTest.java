package io.spiderling.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/** What the change digest sees of a page (ADR 18), pair by pair: a change a reader would not see is no change. */
class ChangeDigestTest {

    private final HtmlExtractor extractor = HtmlExtractor.create();

    @ParameterizedTest(name = "{0}: changed {3}")
    @CsvFileSource(resources = "/extract/change-digest-cases.csv", numLinesToSkip = 1)
    void analyze_whenAPageChangesSo_changesItsDigestOnlyWhenAReaderWouldSee(String name, String before,
            String after, boolean changed) {
        String a = digest(before);
        String b = digest(after);

        if (changed) {
            assertNotEquals(a, b, name);
        } else {
            assertEquals(a, b, name);
        }
    }

    @Test
    void analyze_whenTheBodyIsNotHtml_hasNoDigestOfItsOwn() {
        assertEquals(Optional.empty(), extractor.analyze("%PDF-1.7".getBytes(StandardCharsets.US_ASCII),
                "application/pdf", "https://example.com/a.pdf").changeDigest());
    }

    @Test
    void analyze_whenHtml_answersTheSameMetadataAsExtract() {
        byte[] page = "<title>T</title><meta name=description content=D><a href=/x>x</a>".getBytes(
                StandardCharsets.UTF_8);

        assertEquals(extractor.extract(page, "text/html", "https://example.com/"),
                extractor.analyze(page, "text/html", "https://example.com/").page());
    }

    private String digest(String html) {
        return extractor.analyze(html.getBytes(StandardCharsets.UTF_8), "text/html; charset=utf-8",
                "https://example.com/page").changeDigest().orElseThrow();
    }
}
