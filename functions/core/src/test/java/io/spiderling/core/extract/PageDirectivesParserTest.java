package io.spiderling.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.spiderling.core.extract.PageDirectives.Directive;
import io.spiderling.core.extract.PageDirectives.Source;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class PageDirectivesParserTest {

    private static final String AGENT = "spiderling";

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/extract/robots-directives-cases.csv", numLinesToSkip = 1)
    void parse_whenHeadersAndMetaTagsOfTheCase_findsItsDirectives(String name, String headers, String meta,
            String directives, String unavailableAfter, String unavailableAfterText, String sources, String others) {
        PageDirectives found = PageDirectivesParser.parse(lines(headers), page(meta), AGENT);

        assertEquals(words(directives).stream().map(w -> Directive.fromWireName(w).orElseThrow())
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Directive.class))), found.directives(), name);
        assertEquals(Optional.ofNullable(unavailableAfterText),
                found.unavailableAfter().map(PageDirectives.UnavailableAfter::text), name);
        assertEquals(Optional.ofNullable(unavailableAfter).map(Instant::parse),
                found.unavailableAfter().flatMap(PageDirectives.UnavailableAfter::at), name);
        assertEquals(words(sources).stream().map(w -> Source.fromWireName(w).orElseThrow())
                .collect(Collectors.toSet()), found.sources(), name);
        assertEquals(words(others), found.others(), name);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/extract/robots-directives-cases.csv", numLinesToSkip = 1)
    void fromHeader_whenLinesJoinedAsTheFetchRecordKeepsThem_readsAsTheLines(String name, String headers) {
        List<String> lines = lines(headers);

        assertEquals(PageDirectivesParser.fromHeaders(lines, AGENT),
                PageDirectivesParser.fromHeader(PageDirectivesParser.joinHeaderValues(lines), AGENT), name);
    }

    @Test
    void joinHeaderValues_whenAGenericLineFollowsAnAgentsLine_putsTheGenericLineFirst() {
        assertEquals("noarchive, googlebot: noindex",
                PageDirectivesParser.joinHeaderValues(List.of("googlebot: noindex", " noarchive ")));
    }

    @Test
    void fromHeader_whenNoHeader_isNone() {
        assertSame(PageDirectives.none(), PageDirectivesParser.fromHeader(null, AGENT));
    }

    @Test
    void parse_whenNoDocument_readsTheHeadersAlone() {
        assertEquals(Set.of(Directive.NOARCHIVE),
                PageDirectivesParser.parse(List.of("noarchive"), null, AGENT).directives());
    }

    @Test
    void parse_whenAgentIsAnotherCrawler_appliesItsDirectivesAndNotOurs() {
        PageDirectives found = PageDirectivesParser.parse(List.of("spiderling: noarchive, googlebot: noindex"),
                page("<meta name='googlebot' content='nofollow'>"), "GoogleBot");

        assertEquals(Set.of(Directive.NOINDEX, Directive.NOFOLLOW), found.directives());
    }

    @Test
    void fromHeaders_whenManyUnknownDirectives_keepsTheFirstSixteen() {
        String many = String.join(", ", IntStream.range(0, 40).mapToObj(i -> "unknown" + i).toList());

        PageDirectives found = PageDirectivesParser.fromHeader(many, AGENT);

        assertEquals(IntStream.range(0, PageDirectives.MAX_OTHERS).mapToObj(i -> "unknown" + i).toList(),
                found.others());
    }

    @Test
    void fromHeader_whenValueIsHuge_readsOnlyItsStart() {
        String huge = "noindex, " + "x".repeat(PageDirectivesParser.MAX_VALUE_LENGTH) + ", noarchive";

        assertEquals(Set.of(Directive.NOINDEX), PageDirectivesParser.fromHeader(huge, AGENT).directives());
    }

    @Test
    void unavailableAfter_whenTextIsLong_keepsItsStart() {
        PageDirectives.UnavailableAfter date = PageDirectives.UnavailableAfter.of("y".repeat(500));

        assertEquals(PageDirectives.MAX_OTHER_LENGTH, date.text().length());
        assertEquals(Optional.empty(), date.at());
    }

    @Test
    void union_whenBothSaySomething_keepsEverythingAndTheEarlierDate() {
        PageDirectives header = PageDirectivesParser.fromHeader("noarchive, unavailable_after: 2031-01-01, x1",
                AGENT);
        PageDirectives meta = PageDirectivesParser.fromMeta(
                page("<meta name='robots' content='noindex, unavailable_after: 2030-01-01, x2'>"), AGENT);

        PageDirectives both = header.union(meta);

        assertEquals(Set.of(Directive.NOARCHIVE, Directive.NOINDEX), both.directives());
        assertEquals(Optional.of(Instant.parse("2030-01-01T00:00:00Z")),
                both.unavailableAfter().flatMap(PageDirectives.UnavailableAfter::at));
        assertEquals(Set.of(Source.HEADER, Source.META), both.sources());
        assertEquals(List.of("x1", "x2"), both.others());
        assertSame(header, header.union(PageDirectives.none()));
    }

    private static List<String> lines(String headers) {
        return headers == null ? List.of() : Arrays.stream(headers.split("\\|")).toList();
    }

    private static Document page(String meta) {
        return Jsoup.parse("<html><head>" + (meta == null ? "" : meta) + "</head><body><p>text</p></body></html>");
    }

    private static List<String> words(String text) {
        return text == null ? List.of() : Arrays.stream(text.strip().split("\\s+")).toList();
    }
}
