package io.spiderling.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class HtmlExtractorTest {

    private static final String URL = "https://example.com/page";

    private final HtmlExtractor extractor = HtmlExtractor.create();

    @Test
    void extract_whenTitleAndDescription_returnsBothWithWhitespaceCollapsed() {
        PageMetadata page = extractor.extract(fixture("title-and-description.html"), "text/html; charset=utf-8", URL);

        assertEquals(new PageMetadata("Spiderling fetches politely", "A polite, serverless URL fetcher."), page);
    }

    @Test
    void extract_whenOnlyOpenGraphDescription_fallsBackToIt() {
        PageMetadata page = extractor.extract(fixture("og-description-fallback.html"), "text/html", URL);

        assertEquals(new PageMetadata("Only OpenGraph", "Described by OpenGraph."), page);
    }

    @Test
    void extract_whenNoTitleOrDescription_returnsNulls() {
        assertEquals(PageMetadata.empty(), extractor.extract(fixture("no-metadata.html"), "text/html", URL));
    }

    @Test
    void extract_whenMalformedHtml_extractsWhatIsThere() {
        PageMetadata page = extractor.extract(fixture("malformed.html"), "text/html", URL);

        assertEquals(new PageMetadata("Still found", "Unquoted"), page);
    }

    @Test
    void extract_whenBodyIsBinaryGarbage_returnsNulls() {
        byte[] garbage = new byte[4096];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 31 + 7);
        }

        assertEquals(PageMetadata.empty(), extractor.extract(garbage, "text/html", URL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "text/plain; charset=utf-8", "image/png", "text/css"})
    void extract_whenContentTypeIsNotHtml_returnsEmpty(String contentType) {
        assertEquals(PageMetadata.empty(), extractor.extract(fixture("title-and-description.html"), contentType, URL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/html", "TEXT/HTML; Charset=UTF-8", "application/xhtml+xml",
            " text/html ;charset=\"utf-8\""})
    void extract_whenContentTypeIsHtml_extracts(String contentType) {
        PageMetadata page = extractor.extract(fixture("title-and-description.html"), contentType, URL);

        assertEquals("Spiderling fetches politely", page.title());
    }

    @Test
    void extract_whenContentTypeIsMissingAndBodyLooksLikeHtml_sniffsAndExtracts() {
        PageMetadata page = extractor.extract(fixture("title-and-description.html"), null, URL);

        assertEquals("Spiderling fetches politely", page.title());
    }

    @Test
    void extract_whenContentTypeIsMissingAndBodyIsNotHtml_returnsEmpty() {
        byte[] json = "{\"title\": \"<title>not a page</title>\"}".getBytes(StandardCharsets.UTF_8);

        assertEquals(PageMetadata.empty(), extractor.extract(json, null, URL));
    }

    @Test
    void extract_whenHeaderSaysWindows1252_decodesWithItOverTheMetaTag() {
        PageMetadata page = extractor.extract(fixture("windows-1252-header-charset.html"),
                "text/html; charset=windows-1252", URL);

        assertEquals(new PageMetadata("Café — € 5", "Crème brûlée"), page);
    }

    @ParameterizedTest
    @ValueSource(strings = {"iso-8859-1", "ISO-8859-1", "latin1", "us-ascii"})
    void extract_whenHeaderLabelMeansWindows1252_decodesAsWindows1252(String label) {
        PageMetadata page = extractor.extract(fixture("windows-1252-header-charset.html"),
                "text/html; charset=" + label, URL);

        assertEquals("Café — € 5", page.title());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"text/html", "text/html; charset=windows-1252", "text/html; charset=no-such-charset"})
    void extract_whenUtf8Bom_decodesAsUtf8WhateverHeaderAndMetaSay(String contentType) {
        PageMetadata page = extractor.extract(fixture("utf8-bom.html"), contentType, URL);

        assertEquals(new PageMetadata("Café — € 5", "Crème brûlée"), page);
    }

    @Test
    void extract_whenTitleIsVeryLong_capsIt() {
        String title = "word ".repeat(1000);
        byte[] body = ("<title>" + title + "</title><meta name=description content='" + "d".repeat(5000) + "'>")
                .getBytes(StandardCharsets.UTF_8);

        PageMetadata page = extractor.extract(body, "text/html", URL);

        assertEquals(title.substring(0, HtmlExtractor.MAX_TITLE_LENGTH), page.title());
        assertEquals("d".repeat(HtmlExtractor.MAX_DESCRIPTION_LENGTH), page.description());
    }

    @Test
    void extract_whenCapWouldSplitASurrogatePair_cutsBeforeIt() {
        String title = "a".repeat(HtmlExtractor.MAX_TITLE_LENGTH - 1) + "😀";
        byte[] body = ("<title>" + title + "</title>").getBytes(StandardCharsets.UTF_8);

        assertEquals("a".repeat(HtmlExtractor.MAX_TITLE_LENGTH - 1), extractor.extract(body, "text/html", URL).title());
    }

    @Test
    void extract_whenBodyIsNull_returnsEmpty() {
        assertEquals(PageMetadata.empty(), extractor.extract(null, "text/html", URL));
    }

    private static byte[] fixture(String name) {
        try (InputStream in = HtmlExtractorTest.class.getResourceAsStream("/extract/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
