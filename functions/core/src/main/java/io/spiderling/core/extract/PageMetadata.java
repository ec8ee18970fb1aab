package io.spiderling.core.extract;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the extractor found in a page. Text fields are {@code null} when the page has none; maps and lists are never
 * {@code null}, are unmodifiable and keep the page's order.
 *
 * @param title the document title, whitespace collapsed, at most {@value HtmlExtractor#MAX_TITLE_LENGTH} characters
 * @param description the meta description, else {@code og:description}; whitespace collapsed, at most
 *     {@value HtmlExtractor#MAX_DESCRIPTION_LENGTH} characters
 * @param language the root element's {@code lang} as written, trimmed, e.g. {@code en-GB}
 * @param canonicalHref the first {@code <link rel=canonical>} href as written, trimmed and not resolved, so that a
 *     caller can tell a relative canonical from an absolute one
 * @param image an absolute http(s) URL of a representative image: {@code og:image}, else {@code twitter:image}, else
 *     the first image in the page that is not a data URI or a tracking pixel
 * @param openGraph the {@code og:*} meta properties, keyed without the {@code og:} prefix ({@code title},
 *     {@code image}, {@code site_name}, …); the first value of a key wins
 * @param twitter the {@code twitter:*} meta entries, keyed without the {@code twitter:} prefix
 * @param structuredData the schema.org items of the page's JSON-LD blocks
 * @param outlinks the page's links as absolute normalized http(s) URLs, distinct, in document order, capped
 * @param outlinksFound how many distinct valid links the page has, before the cap, among its first 10,000 link
 *     elements (a page with more has at least this many)
 * @param encoding the WHATWG name of the encoding the body was decoded with, e.g. {@code windows-1252}; {@code null}
 *     when the body was not HTML and so was not decoded
 * @param directives the directives of the page's {@code <meta name="robots">} tags (and those named after the
 *     extractor's agent) that apply to that agent; the header's are on the fetch record, and the API serves the union
 */
public record PageMetadata(
        String title,
        String description,
        String language,
        String canonicalHref,
        String image,
        Map<String, String> openGraph,
        Map<String, String> twitter,
        List<StructuredData> structuredData,
        List<String> outlinks,
        int outlinksFound,
        String encoding,
        PageDirectives directives) {

    private static final PageMetadata EMPTY = new PageMetadata(null, null, null, null, null, Map.of(), Map.of(),
            List.of(), List.of(), 0, null, PageDirectives.none());

    public PageMetadata {
        openGraph = orderedCopy(openGraph);
        twitter = orderedCopy(twitter);
        structuredData = structuredData == null ? List.of() : List.copyOf(structuredData);
        outlinks = outlinks == null ? List.of() : List.copyOf(outlinks);
        directives = directives == null ? PageDirectives.none() : directives;
        if (outlinksFound < 0) {
            throw new IllegalArgumentException("outlinksFound must not be negative: " + outlinksFound);
        }
    }

    /** Nothing found, nothing decoded: what a non-HTML body gives. */
    public static PageMetadata empty() {
        return EMPTY;
    }

    /** An unmodifiable copy in the given map's order; {@code Map.copyOf} would lose it. Rejects null entries. */
    static Map<String, String> orderedCopy(Map<String, String> map) {
        if (map == null || map.isEmpty()) {
            return Map.of();
        }
        Map<String, String> copy = new LinkedHashMap<>(map.size() * 2);
        map.forEach((key, value) -> copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, key)));
        return Collections.unmodifiableMap(copy);
    }

    /** Names each of the 12 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private String title;
        private String description;
        private String language;
        private String canonicalHref;
        private String image;
        private Map<String, String> openGraph = Map.of();
        private Map<String, String> twitter = Map.of();
        private List<StructuredData> structuredData = List.of();
        private List<String> outlinks = List.of();
        private int outlinksFound;
        private String encoding;
        private PageDirectives directives = PageDirectives.none();

        private Builder() {}

        public Builder title(String value) {
            title = value;
            return this;
        }

        public Builder description(String value) {
            description = value;
            return this;
        }

        public Builder language(String value) {
            language = value;
            return this;
        }

        public Builder canonicalHref(String value) {
            canonicalHref = value;
            return this;
        }

        public Builder image(String value) {
            image = value;
            return this;
        }

        public Builder openGraph(Map<String, String> value) {
            openGraph = value;
            return this;
        }

        public Builder twitter(Map<String, String> value) {
            twitter = value;
            return this;
        }

        public Builder structuredData(List<StructuredData> value) {
            structuredData = value;
            return this;
        }

        public Builder outlinks(List<String> value) {
            outlinks = value;
            return this;
        }

        public Builder outlinksFound(int value) {
            outlinksFound = value;
            return this;
        }

        public Builder encoding(String value) {
            encoding = value;
            return this;
        }

        public Builder directives(PageDirectives value) {
            directives = value;
            return this;
        }

        public PageMetadata build() {
            return new PageMetadata(title, description, language, canonicalHref, image, openGraph, twitter,
                    structuredData, outlinks, outlinksFound, encoding, directives);
        }
    }
}
