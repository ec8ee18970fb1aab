package io.spiderling.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class HtmlExtractorTest {

    private static final String URL = "https://example.com/blog/post.html";

    private final HtmlExtractor extractor = HtmlExtractor.create();

    // --- title and description

    @Test
    void extract_whenTitleAndDescription_returnsBothWithWhitespaceCollapsed() {
        PageMetadata page = extractor.extract(fixture("title-and-description.html"), "text/html; charset=utf-8", URL);

        assertEquals("Spiderling fetches politely", page.title());
        assertEquals("A polite, serverless URL fetcher.", page.description());
        assertEquals("en", page.language());
        assertEquals("UTF-8", page.encoding());
    }

    @Test
    void extract_whenOnlyOpenGraphDescription_fallsBackToIt() {
        PageMetadata page = extractor.extract(fixture("og-description-fallback.html"), "text/html", URL);

        assertEquals("Only OpenGraph", page.title());
        assertEquals("Described by OpenGraph.", page.description());
    }

    @Test
    void extract_whenPageHasNoMetadata_returnsOnlyTheEncoding() {
        PageMetadata page = extractor.extract(fixture("no-metadata.html"), "text/html", URL);

        assertEquals(PageMetadata.builder().title(null).description(null).language(null).canonicalHref(null)
                .image(null).openGraph(Map.of()).twitter(Map.of()).structuredData(List.of()).outlinks(List.of())
                .outlinksFound(0).encoding("windows-1252").build(), page);
    }

    // --- the page's own directives

    @Test
    void extract_whenRobotsMetaForUsAndOthers_keepsTheGenericAndOursOnly() {
        PageMetadata page = extractor.extract(fixture("robots-meta-for-us-and-others.html"), "text/html", URL);

        assertEquals(PageDirectives.builder().directive(PageDirectives.Directive.NOINDEX)
                .directive(PageDirectives.Directive.NOARCHIVE).source(PageDirectives.Source.META).build(),
                page.directives());
    }

    @Test
    void extract_whenAgentIsAnother_readsTheMetaNamedAfterIt() {
        HtmlExtractor googlebot = HtmlExtractor.builder().robotsAgent("Googlebot").build();

        PageDirectives directives = googlebot.extract(fixture("robots-meta-for-us-and-others.html"), "text/html", URL)
                .directives();

        assertEquals(java.util.Set.of(PageDirectives.Directive.NOINDEX, PageDirectives.Directive.NOSNIPPET),
                directives.directives());
        assertEquals("2030-01-01", directives.unavailableAfter().orElseThrow().text());
    }

    @Test
    void extract_whenNotHtml_hasNoDirectives() {
        PageMetadata page = extractor.extract("<meta name=robots content=noindex>".getBytes(StandardCharsets.UTF_8),
                "text/plain", URL);

        assertEquals(PageDirectives.none(), page.directives());
    }

    @Test
    void extract_whenMalformedHtml_extractsWhatIsThere() {
        PageMetadata page = extractor.extract(fixture("malformed.html"), "text/html", URL);

        assertEquals("Still found", page.title());
        assertEquals("Unquoted", page.description());
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

    // --- what is HTML

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
    void extract_whenBodyIsNull_returnsEmpty() {
        assertEquals(PageMetadata.empty(), extractor.extract(null, "text/html", URL));
    }

    // --- encoding

    @Test
    void extract_whenLatin1DeclaredOnlyInMeta_decodesAsWindows1252WithCurlyQuotes() {
        PageMetadata page = extractor.extract(fixture("latin1-meta-charset-only.html"), "text/html", URL);

        assertEquals("Café \u201CLe Procope\u201D", page.title());
        assertEquals("Le plus ancien café de Paris, rue de l\u2019Ancienne-Comédie", page.description());
        assertEquals("windows-1252", page.encoding());
    }

    @Test
    void extract_whenUtf8BomAndHeaderSaysLatin1_decodesAsUtf8() {
        PageMetadata page = extractor.extract(fixture("bom-utf8-header-latin1.html"),
                "text/html; charset=iso-8859-1", URL);

        assertEquals("Café — \u201CUTF-8\u201D € 5", page.title());
        assertEquals("Crème brûlée, こんにちは", page.description());
        assertEquals("UTF-8", page.encoding());
    }

    @Test
    void extract_whenHeaderSaysWindows1252_decodesWithItOverTheMetaTag() {
        PageMetadata page = extractor.extract(fixture("windows-1252-header-charset.html"),
                "text/html; charset=windows-1252", URL);

        assertEquals("Café — € 5", page.title());
        assertEquals("Crème brûlée", page.description());
        assertEquals("windows-1252", page.encoding());
    }

    @ParameterizedTest
    @ValueSource(strings = {"iso-8859-1", "ISO-8859-1", "\"ISO-8859-1\"", "latin1", "us-ascii"})
    void extract_whenHeaderLabelMeansWindows1252_decodesAsWindows1252(String label) {
        PageMetadata page = extractor.extract(fixture("windows-1252-header-charset.html"),
                "text/html; charset=" + label, URL);

        assertEquals("Café — € 5", page.title());
        assertEquals("windows-1252", page.encoding());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"text/html", "text/html; charset=windows-1252", "text/html; charset=no-such-charset"})
    void extract_whenUtf8Bom_decodesAsUtf8WhateverHeaderAndMetaSay(String contentType) {
        PageMetadata page = extractor.extract(fixture("utf8-bom.html"), contentType, URL);

        assertEquals("Café — € 5", page.title());
        assertEquals("Crème brûlée", page.description());
        assertEquals("UTF-8", page.encoding());
    }

    // --- language, canonical, OpenGraph, Twitter, image

    @Test
    void extract_whenLangIsBlank_returnsNoLanguage() {
        assertNull(extractor.extract(html("<html lang='  '><title>t</title>"), "text/html", URL).language());
    }

    @Test
    void extract_whenCanonicalPointsElsewhere_returnsTheFirstAsWritten() {
        PageMetadata page = extractor.extract(fixture("canonical-elsewhere.html"), "text/html", URL);

        assertEquals("https://shop.example.com/products/shoe", page.canonicalHref());
    }

    @Test
    void extract_whenCanonicalIsRelative_returnsItUnresolved() {
        PageMetadata page = extractor.extract(fixture("relative-canonical.html"), "text/html", URL);

        assertEquals("../shoe", page.canonicalHref());
    }

    @Test
    void extract_whenOpenGraphAndTwitter_keepsFirstValuesInDocumentOrder() {
        PageMetadata page = extractor.extract(fixture("open-graph-and-twitter.html"), "text/html", URL);

        assertEquals("en-GB", page.language());
        assertEquals(Map.of("title", "Field notes", "type", "article", "image", "/images/cover.jpg",
                "site_name", "Spiderling Journal", "locale", "en_GB"), page.openGraph());
        assertEquals(List.of("title", "type", "image", "site_name", "locale"), List.copyOf(page.openGraph().keySet()));
        assertEquals(Map.of("card", "summary_large_image", "site", "@spiderling",
                "image", "https://cdn.example.com/twitter.jpg"), page.twitter());
        assertEquals(List.of("card", "site", "image"), List.copyOf(page.twitter().keySet()));
    }

    @Test
    void extract_whenOpenGraphImageIsRelative_makesItAbsoluteAndPrefersIt() {
        PageMetadata page = extractor.extract(fixture("open-graph-and-twitter.html"), "text/html", URL);

        assertEquals("https://example.com/images/cover.jpg", page.image());
    }

    @Test
    void extract_whenOpenGraphImageIsNotHttp_fallsBackToTwitterImageSrc() {
        PageMetadata page = extractor.extract(fixture("twitter-image-src-fallback.html"), "text/html", URL);

        assertEquals("https://example.com/blog/media/card.png", page.image());
    }

    @Test
    void extract_whenFirstImagesArePixelsOrDataUris_picksTheFirstSensibleOne() {
        PageMetadata page = extractor.extract(fixture("image-tracking-pixel-skipped.html"), "text/html", URL);

        assertEquals("https://example.com/photos/lazy.jpg", page.image());
    }

    @Test
    void extract_whenManyMetaProperties_keepsAtMostFifty() {
        String metas = IntStream.range(0, 80)
                .mapToObj(i -> "<meta property='og:key" + i + "' content='v'><meta name='twitter:key" + i
                        + "' content='v'>")
                .reduce("", String::concat);

        PageMetadata page = extractor.extract(html(metas), "text/html", URL);

        assertEquals(HtmlExtractor.MAX_META_ENTRIES, page.openGraph().size());
        assertEquals(HtmlExtractor.MAX_META_ENTRIES, page.twitter().size());
        assertEquals("key0", page.openGraph().keySet().iterator().next());
    }

    // --- JSON-LD

    @Test
    void extract_whenJsonLdProductWithOffers_keepsProductFieldsAndTheFirstOffer() {
        PageMetadata page = extractor.extract(fixture("json-ld-product-offers.html"), "text/html", URL);

        assertEquals(List.of(new StructuredData("Product", Map.of(
                "name", "Trail running shoe",
                "description", "Light, grippy and red.",
                "sku", "12345",
                "brand", "Spiderling Outdoor",
                "image", "https://shop.example.com/shoe-1.jpg",
                "price", "19.90",
                "priceCurrency", "EUR",
                "availability", "https://schema.org/InStock"))), page.structuredData());
    }

    @Test
    void extract_whenJsonLdAggregateOffer_takesLowPriceAsPrice() {
        PageMetadata page = extractor.extract(fixture("json-ld-product-aggregate-offer.html"), "text/html", URL);

        assertEquals(List.of(new StructuredData("Product", Map.of(
                "name", "Shoe",
                "brand", "Spiderling",
                "image", "https://shop.example.com/shoe.jpg",
                "price", "15",
                "priceCurrency", "GBP"))), page.structuredData());
    }

    @Test
    void extract_whenJsonLdArticleWithTypeArrayAndAuthors_keepsTheFirstOfEach() {
        PageMetadata page = extractor.extract(fixture("json-ld-article.html"), "text/html", URL);

        assertEquals(List.of(new StructuredData("NewsArticle", Map.of(
                "headline", "Spiders fetch politely",
                "author", "Ada Lovelace",
                "datePublished", "2025-03-01T08:00:00+01:00",
                "dateModified", "2025-03-02T09:30:00+01:00",
                "image", "https://news.example.com/spider.jpg"))), page.structuredData());
    }

    @Test
    void extract_whenJsonLdRecipeWithLooseJson_readsItAnyway() {
        PageMetadata page = extractor.extract(fixture("json-ld-recipe.html"), "text/html", URL);

        assertEquals(List.of(new StructuredData("Recipe", Map.of(
                "name", "Tarte Tatin",
                "recipeYield", "8",
                "totalTime", "PT1H15M",
                "cookTime", "PT45M",
                "prepTime", "PT30M",
                "author", "Ada Lovelace"))), page.structuredData());
    }

    @Test
    void extract_whenJsonLdGraph_keepsEachTypedItemInOrder() {
        PageMetadata page = extractor.extract(fixture("json-ld-graph.html"), "text/html", URL);

        assertEquals(List.of(
                new StructuredData("WebSite", Map.of("name", "Example", "url", "https://example.com/")),
                new StructuredData("Organization", Map.of("name", "Example Ltd", "url", "https://example.com/",
                        "description", "We make examples.")),
                new StructuredData("BreadcrumbList", Map.of()),
                new StructuredData("BlogPosting", Map.of("headline", "Hello graph", "author", "Grace Hopper"))),
                page.structuredData());
    }

    @Test
    void extract_whenOneJsonLdBlockIsMalformed_keepsTheValidOnes() {
        PageMetadata page = extractor.extract(fixture("json-ld-malformed-next-to-valid.html"), "text/html", URL);

        assertEquals(List.of(new StructuredData("Organization",
                Map.of("name", "Valid Ltd", "url", "https://valid.example/"))), page.structuredData());
        assertEquals("Mixed", page.title());
    }

    @Test
    void extract_whenJsonLdHasManyItems_keepsTwenty() {
        String items = IntStream.range(0, 30)
                .mapToObj(i -> "{\"@type\": \"Thing\", \"name\": \"item " + i + "\"}")
                .reduce((a, b) -> a + "," + b).orElseThrow();

        PageMetadata page = extractor.extract(html(jsonLd("[" + items + "]") + jsonLd("{\"@type\": \"Late\"}")),
                "text/html", URL);

        assertEquals(HtmlExtractor.MAX_STRUCTURED_ITEMS, page.structuredData().size());
        assertEquals(new StructuredData("Thing", Map.of("name", "item 19")), page.structuredData().get(19));
    }

    @Test
    void extract_whenJsonLdIsNestedVeryDeeply_skipsThatBlockOnly() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);

        PageMetadata page = extractor.extract(html(jsonLd(deep) + jsonLd("{\"@type\": \"Thing\", \"name\": \"ok\"}")),
                "text/html", URL);

        assertEquals(List.of(new StructuredData("Thing", Map.of("name", "ok"))), page.structuredData());
    }

    @Test
    void extract_whenJsonLdFieldIsLong_capsIt() {
        PageMetadata page = extractor.extract(
                html(jsonLd("{\"@type\": \"Thing\", \"name\": \"" + "n".repeat(2000) + "\"}")), "text/html", URL);

        assertEquals("n".repeat(JsonLd.MAX_FIELD_LENGTH), page.structuredData().getFirst().fields().get("name"));
    }

    // --- outlinks

    @Test
    void extract_whenLinksAreRelativeToBaseHref_resolvesNormalizesAndDeduplicatesThem() {
        PageMetadata page = extractor.extract(fixture("outlinks-relative-and-base-href.html"), "text/html", URL);

        List<String> expected = List.of(
                "https://example.com/docs/intro.html",
                "https://example.com/about",
                "https://cdn.example.org/file.pdf",
                "https://other.example.net/a/c?a=1&b=2",
                "https://example.com/docs/map.html");
        assertEquals(expected, page.outlinks());
        assertEquals(expected.size(), page.outlinksFound());
    }

    @Test
    void extract_whenBaseHrefIsNotHttp_resolvesAgainstThePageUrl() {
        PageMetadata page = extractor.extract(html("<base href='javascript:alert(1)'><a href='next'>n</a>"),
                "text/html", URL);

        assertEquals(List.of("https://example.com/blog/next"), page.outlinks());
    }

    @Test
    void extract_whenMoreLinksThanTheCap_keepsTheFirstAndCountsAll() {
        HtmlExtractor capped = HtmlExtractor.builder().maxOutlinks(10).build();

        PageMetadata page = capped.extract(html(links(30)), "text/html", URL);

        assertEquals(IntStream.range(0, 10).mapToObj(i -> "https://example.com/p/" + i).toList(), page.outlinks());
        assertEquals(30, page.outlinksFound());
    }

    @Test
    void extract_whenMoreThan500Links_keeps500ByDefault() {
        PageMetadata page = extractor.extract(html(links(600)), "text/html", URL);

        assertEquals(HtmlExtractor.DEFAULT_MAX_OUTLINKS, page.outlinks().size());
        assertEquals(600, page.outlinksFound());
    }

    @Test
    void extract_whenMoreLinkElementsThanExamined_countsThoseOfTheFirstOnly() {
        // found by HtmlExtractorPropertyTest: each link costs a resolve and a normalization, and 100,000 took seconds
        String links = IntStream.range(0, HtmlExtractor.MAX_LINKS_EXAMINED + 500)
                .mapToObj(i -> "<a href='/p/" + i + "'>" + i + "</a>").collect(Collectors.joining());

        PageMetadata page = extractor.extract(html(links), "text/html", URL);

        assertEquals(HtmlExtractor.MAX_LINKS_EXAMINED, page.outlinksFound());
        assertEquals(HtmlExtractor.DEFAULT_MAX_OUTLINKS, page.outlinks().size());
    }

    @Test
    void builder_whenMaxOutlinksIsNegative_throws() {
        assertThrows(IllegalArgumentException.class, () -> HtmlExtractor.builder().maxOutlinks(-1));
    }

    // --- hostile input

    @Test
    void extract_whenBodyIsBinaryGarbage_returnsMetadataWithoutThrowing() {
        byte[] garbage = new byte[4096];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 31 + 7);
        }

        PageMetadata page = extractor.extract(garbage, "text/html", URL);

        assertNull(page.title());
        assertNull(page.description());
        assertNotNull(page.encoding());
    }

    @Test
    void extract_whenTagsAreNestedVeryDeeply_stillReadsThePage() {
        String nested = "<div><a href='/deep'>".repeat(2_000);

        PageMetadata page = extractor.extract(html("<title>Deep</title>" + nested), "text/html", URL);

        assertEquals("Deep", page.title());
        assertEquals(List.of("https://example.com/deep"), page.outlinks());
    }

    @Test
    void extract_whenResultIsReturned_collectionsAreUnmodifiable() {
        PageMetadata page = extractor.extract(fixture("open-graph-and-twitter.html"), "text/html", URL);

        assertThrows(UnsupportedOperationException.class, () -> page.openGraph().put("x", "y"));
        assertThrows(UnsupportedOperationException.class, () -> page.outlinks().add("x"));
        assertTrue(page.structuredData().isEmpty());
    }

    private static String jsonLd(String json) {
        return "<script type='application/ld+json'>" + json + "</script>";
    }

    private static String links(int count) {
        return IntStream.range(0, count).mapToObj(i -> "<a href='/p/" + i + "'>" + i + "</a>").reduce("",
                String::concat);
    }

    private static byte[] html(String html) {
        return html.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] fixture(String name) {
        try (InputStream in = HtmlExtractorTest.class.getResourceAsStream("/extract/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
