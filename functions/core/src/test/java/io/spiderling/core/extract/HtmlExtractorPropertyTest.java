package io.spiderling.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.extract.SniffedEncoding.Rule;
import io.spiderling.core.testing.PropertySeeds;
import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Properties of the extractor and the encoding sniffer on hostile pages: they never throw, never fall back to the
 * empty answer of the last-resort guard, and keep every stored value within its cap, whatever the page. Work is
 * bounded by counting (links examined, bytes kept), never by timing. Failures found here are kept as cases of
 * {@code HtmlExtractorTest} and {@code extract/encoding-sniffer-cases.csv}.
 */
class HtmlExtractorPropertyTest {

    private static final String URL = "https://example.com/dir/page.html";
    private static final String MARKER_TITLE = "Marker";
    private static final String PAST_PRESCAN = "<" + "x".repeat(EncodingSniffer.PRESCAN_LENGTH + 10) + ">";
    private static final List<String> LABELS = readLabels();

    private final HtmlExtractor extractor = HtmlExtractor.create();
    private final UrlNormalizer normalizer = UrlNormalizer.create();

    enum Hostility {
        DEEP_NESTING, HUGE_ATTRIBUTES, TAG_SOUP, MANY_LINKS, ENCODING_LABELS, GARBAGE_BYTES
    }

    /** One try: a page of each kind, made from these alone, so that shrinking and reruns see the same bytes. */
    record Recipe(int scale, String tag, String label, byte[] bom, long salt) {
        @Override
        public String toString() {
            return "scale " + scale + " tag " + tag + " label [" + label + "] BOM " + bom.length + " salt " + salt;
        }
    }

    /** Few tries, each one page of every kind; without edge cases, which would spend them on the smallest pages. */
    @Property(tries = 5, seed = PropertySeeds.FIXED, edgeCases = EdgeCasesMode.NONE)
    void extract_whenHostilePage_neverThrowsAndKeepsEveryCap(@ForAll("recipes") Recipe recipe) {
        for (Hostility kind : Hostility.values()) {
            check(kind, recipe);
        }
    }

    private void check(Hostility kind, Recipe recipe) {
        byte[] body = build(kind, recipe);
        String contentType = kind == Hostility.ENCODING_LABELS ? "text/html; charset=" + recipe.label() : "text/html";

        PageMetadata page = extractor.extract(body, contentType, URL);

        String what = kind + " " + recipe;
        assertNotNull(page.encoding(), what + ": the last-resort guard answered");
        assertTrue(page.title() == null || page.title().length() <= HtmlExtractor.MAX_TITLE_LENGTH, what);
        assertTrue(page.description() == null
                || page.description().length() <= HtmlExtractor.MAX_DESCRIPTION_LENGTH, what);
        assertTrue(page.openGraph().size() <= HtmlExtractor.MAX_META_ENTRIES, what);
        assertTrue(page.twitter().size() <= HtmlExtractor.MAX_META_ENTRIES, what);
        assertTrue(page.structuredData().size() <= HtmlExtractor.MAX_STRUCTURED_ITEMS, what);
        assertTrue(page.outlinks().size() <= HtmlExtractor.DEFAULT_MAX_OUTLINKS, what);
        assertTrue(page.outlinksFound() <= HtmlExtractor.MAX_LINKS_EXAMINED, what + ": " + page.outlinksFound());
        for (String link : page.outlinks()) {
            NormalizedUrl url = assertInstanceOfAccepted(link, what);
            assertEquals(link, url.value(), what + ": outlinks are in normal form");
        }
        for (String value : new String[] {page.canonicalHref(), page.image()}) {
            assertTrue(value == null || value.length() <= UrlNormalizer.MAX_LENGTH, what);
        }
        assertTrue(PageBudget.storedBytes(PageBudget.fit(page)) <= PageBudget.MAX_PAGE_BYTES, what);
        boolean readsAsUtf8 = recipe.bom().length != 2; // a UTF-16 byte order mark before UTF-8 bytes reads as noise
        if (readsAsUtf8 && (kind == Hostility.DEEP_NESTING || kind == Hostility.HUGE_ATTRIBUTES)) {
            assertEquals(MARKER_TITLE, page.title(), what + ": the page is still read");
        }
        if (readsAsUtf8 && kind == Hostility.MANY_LINKS && recipe.scale() * 300 > HtmlExtractor.MAX_LINKS_EXAMINED) {
            assertEquals(HtmlExtractor.DEFAULT_MAX_OUTLINKS, page.outlinks().size(), what);
        }
    }

    @Property(tries = 400, seed = PropertySeeds.FIXED)
    void sniff_whenAnyLabelAndBytes_decidesAndDecodesWithoutThrowing(@ForAll("labels") String label,
            @ForAll("boms") byte[] bom, @ForAll("prefixes") String where, @ForAll byte[] tail) {
        byte[] body = concat(bom, (where.replace("LABEL", label)).getBytes(StandardCharsets.ISO_8859_1), tail);
        String contentType = where.isEmpty() ? "text/html; charset=" + label : "text/html";

        SniffedEncoding sniffed = EncodingSniffer.sniff(body, contentType);
        String text = sniffed.decode(body);

        assertNotNull(text);
        if (bom.length == 3 || bom.length == 2 && bom[0] != (byte) 0xEF) { // EF BB alone is no byte order mark
            assertEquals(Rule.BOM, sniffed.rule(), label);
        } else if (where.isEmpty() && EncodingLabels.forLabel(label) != null) {
            assertEquals(Rule.HEADER, sniffed.rule(), label);
        } else if (where.startsWith(PAST_PRESCAN)) {
            assertNotEquals(Rule.META, sniffed.rule(), "the prescan reads the first 1024 bytes only");
        }
    }

    private NormalizedUrl assertInstanceOfAccepted(String link, String what) {
        if (normalizer.normalize(link) instanceof Accepted accepted) {
            return accepted.url();
        }
        throw new AssertionError(what + ": outlink not accepted by the normalizer: " + link);
    }

    @Provide
    Arbitrary<Recipe> recipes() {
        Arbitrary<String> tags = Arbitraries.of("div", "span", "b", "i", "a href=/n", "table", "tr", "td", "ul", "li",
                "p", "font", "svg", "math", "template", "select", "object", "button", "nobr", "marquee");
        Arbitrary<byte[]> boms = Arbitraries.of(new byte[0], new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                new byte[] {(byte) 0xFE, (byte) 0xFF}, new byte[] {(byte) 0xFF, (byte) 0xFE});
        Arbitrary<Integer> scale = Arbitraries.frequencyOf(List.of(net.jqwik.api.Tuple.of(2, Arbitraries.just(100)),
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(1, 99))));
        return Combinators.combine(scale, tags, labels(), boms, Arbitraries.longs())
                .as(Recipe::new);
    }

    @Provide
    Arbitrary<String> labels() {
        Arbitrary<String> known = Arbitraries.of(LABELS);
        Arbitrary<String> spelled = known.flatMap(l -> Arbitraries.of(l, l.toUpperCase(java.util.Locale.ROOT),
                " " + l + "\t", "\"" + l + "\"", "'" + l + "'", l + ";", l + "\u0000", l.replace('-', '_')));
        Arbitrary<String> garbage = Arbitraries.strings().ofMaxLength(30);
        return Arbitraries.frequencyOf(List.of(
                net.jqwik.api.Tuple.of(6, known), net.jqwik.api.Tuple.of(3, spelled),
                net.jqwik.api.Tuple.of(1, garbage)));
    }

    @Provide
    Arbitrary<byte[]> boms() {
        return Arbitraries.of(new byte[0], new byte[0], new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                new byte[] {(byte) 0xFE, (byte) 0xFF}, new byte[] {(byte) 0xFF, (byte) 0xFE},
                new byte[] {(byte) 0xEF, (byte) 0xBB});
    }

    /** Where the label is declared: the header (empty), or a meta tag in one of its spellings. */
    @Provide
    Arbitrary<String> prefixes() {
        return Arbitraries.of("", "<meta charset=LABEL>", "<meta charset='LABEL'>",
                "<meta http-equiv=Content-Type content='text/html; charset=LABEL'>",
                "<!-- <meta charset=utf-8> --><meta charset=\"LABEL\">", "<meta content=\"charset=LABEL\"",
                "<meta charset=LABEL", PAST_PRESCAN + "<meta charset=LABEL>");
    }

    private static byte[] build(Hostility kind, Recipe recipe) {
        Random random = new Random(recipe.salt());
        StringBuilder html = new StringBuilder("<!doctype html><html lang=en><head><title>" + MARKER_TITLE
                + "</title>");
        String tag = recipe.tag();
        String name = tag.split(" ")[0];
        switch (kind) {
            case DEEP_NESTING -> {
                int depth = recipe.scale() * 1000; // up to 100,000 levels
                html.append("</head><body>").append(("<" + tag + ">").repeat(depth)).append("<a href=/deep>deep</a>")
                        .append(("</" + name + ">").repeat(random.nextInt(depth + 1)));
            }
            case HUGE_ATTRIBUTES -> {
                String huge = "x ".repeat(recipe.scale() * 10_000); // one of up to 2 MB
                String large = huge.substring(0, huge.length() / 10); // and several of up to 200 KB
                html.append("<meta name=description content='").append(huge).append("'>")
                        .append("<meta property=og:").append(large, 0, 200).append(" content=y>")
                        .append("<meta property=og:image content='/").append(large).append("'>")
                        .append("<link rel='").append(large).append(" canonical' href='/").append(large).append("'>")
                        .append("</head><body lang='").append(large).append("'>")
                        .append("<a href='/").append(large.replace(' ', 'y')).append("'>x</a>")
                        .append("<img src='").append(large).append("'><a href='/ok'>ok</a>");
            }
            case TAG_SOUP -> {
                String[] parts = {"<", ">", "</", "<a href=", "<!--", "-->", "<![CDATA[", "]]>", "<script>",
                        "</script>",
                        "<style>", "<title>", "</title>", "<meta content=x property=og:title>", "&", "&#x110000;",
                        "&#0;", "&amp", "\u0000", "<base href=javascript:x>", "<base href=//evil.example/>",
                        "<a href='http://user:pw@example.com/'>", "<a href=\"  /x?y#z \">", "<table><a href=/t>",
                        "<form><form>", "<frameset>", "<plaintext>", "<noscript>", "<svg><a href=/svg>", "\"", "'",
                        "<script type=application/ld+json>{\"@type\":\"Thing\",\"name\":", "<a href=#frag>",
                        "<area href=/area>", "<a href=data:text/html,x>", "<a href=mailto:a@b>"};
                for (int i = 0; i < recipe.scale() * 200; i++) {
                    html.append(parts[random.nextInt(parts.length)]);
                }
            }
            case MANY_LINKS -> {
                int links = recipe.scale() * 300; // up to 30,000
                html.append("</head><body>");
                for (int i = 0; i < links; i++) {
                    int target = random.nextInt(4) == 0 ? random.nextInt(50) : i; // menus repeat links
                    html.append("<a href='/p/").append(target).append(random.nextBoolean() ? "?utm_source=x" : "")
                            .append("'>").append(i).append("</a>");
                }
            }
            case ENCODING_LABELS -> html.append("<meta charset=\"").append(recipe.label()).append("\">")
                    .append("</head><body><p>caf\u00e9 \u20ac \u65e5\u672c <a href=/caf\u00e9>x</a>");
            case GARBAGE_BYTES -> {
                byte[] garbage = new byte[recipe.scale() * 1000];
                random.nextBytes(garbage);
                return concat(recipe.bom(), html.toString().getBytes(StandardCharsets.UTF_8), garbage);
            }
        }
        return concat(recipe.bom(), html.toString().getBytes(StandardCharsets.UTF_8), new byte[0]);
    }

    private static byte[] concat(byte[] a, byte[] b, byte[] c) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(a.length + b.length + c.length);
        out.writeBytes(a);
        out.writeBytes(b);
        out.writeBytes(c);
        return out.toByteArray();
    }

    private static List<String> readLabels() {
        try (InputStream in = HtmlExtractorPropertyTest.class.getResourceAsStream("/extract/whatwg-encoding-labels.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
