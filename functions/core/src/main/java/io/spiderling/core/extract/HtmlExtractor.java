package io.spiderling.core.extract;

import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.UrlNormalizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Tag;

/**
 * Extracts page metadata from an HTML body.
 *
 * <p>The body is decoded by {@link EncodingSniffer}, in the order browsers use, and only then parsed by jsoup, so
 * jsoup never guesses the encoding itself. Relative URLs are resolved against the page's URL or its first valid
 * http(s) {@code <base href>}.
 *
 * <p>It never throws. Each field is read on its own, so a failure while reading one (jsoup and Jackson are not
 * expected to fail, but pages are hostile) leaves that field empty and the others as found.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class HtmlExtractor {

    public static final int DEFAULT_MAX_OUTLINKS = 500;
    /**
     * How many link elements are read, at most (or {@code maxOutlinks} if that is more). Each costs a resolve and a
     * normalization, tens of microseconds: a 2 MB page of 100,000 links took 3 to 5 seconds, and a 10 MB one would take
     * half a minute of the function's time, for links far past any cap. Real pages have hundreds; the 20 times the
     * default cap leaves room for the count of links found to mean something.
     */
    static final int MAX_LINKS_EXAMINED = 10_000;
    static final int MAX_TITLE_LENGTH = 1000;
    static final int MAX_DESCRIPTION_LENGTH = 2000;
    static final int MAX_META_VALUE_LENGTH = 2000;
    static final int MAX_META_ENTRIES = 50;
    static final int MAX_STRUCTURED_ITEMS = 20;
    /** Longer keys are not OpenGraph or Twitter properties but junk; they would only crowd out real ones. */
    private static final int MAX_META_KEY_LENGTH = 100;
    /** A BCP 47 tag is far shorter; anything longer is not a language. */
    private static final int MAX_LANGUAGE_LENGTH = 100;
    /** Longer URLs cannot be normalized or fetched ({@link UrlNormalizer#MAX_LENGTH}), so they are not kept either. */
    private static final int MAX_URL_LENGTH = UrlNormalizer.MAX_LENGTH;
    /** Images this small in either dimension are tracking pixels or spacers, not pictures of the page. */
    private static final int MAX_PIXEL_SIZE = 2;

    private static final Set<String> HTML_TYPES = Set.of("text/html", "application/xhtml+xml");
    /** The tags WHATWG MIME sniffing accepts as the start of an HTML document, each followed by space or '>'. */
    private static final Pattern HTML_START = Pattern.compile(
            "<!--|<(?:!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p)[ >]",
            Pattern.CASE_INSENSITIVE);
    /** An absolute or scheme-relative href with credentials before the host: {@code http://user:pass@host/}. */
    private static final Pattern USERINFO = Pattern.compile("(?:[A-Za-z][A-Za-z0-9+.-]*:)?//[^/?#\\\\]*@");
    private static final int SNIFF_LENGTH = 512;
    private static final int UTF8_BOM_LENGTH = 3;

    /** The agent whose meta directives are read unless told otherwise: the product token of our User-Agent. */
    public static final String DEFAULT_ROBOTS_AGENT = "spiderling";

    private final int maxOutlinks;
    private final String robotsAgent;
    private final UrlNormalizer normalizer;

    private HtmlExtractor(Builder builder) {
        this.maxOutlinks = builder.maxOutlinks;
        this.robotsAgent = builder.robotsAgent;
        this.normalizer = UrlNormalizer.create();
    }

    /**
     * An extractor that keeps up to {@value #DEFAULT_MAX_OUTLINKS} outlinks and reads the meta directives for
     * {@value #DEFAULT_ROBOTS_AGENT}.
     */
    public static HtmlExtractor create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param body the response body as stored
     * @param contentType the Content-Type header, or {@code null} to sniff the body
     * @param url the page's URL, used as the base URI
     * @return the metadata, or {@link PageMetadata#empty()} for non-HTML content; never throws
     */
    public PageMetadata extract(byte[] body, String contentType, String url) {
        return analyze(body, contentType, url).page();
    }

    /**
     * What {@link #analyze} finds: the page's metadata, and the change digest of an HTML page ({@link ChangeDigest}),
     * empty for other content, whose change is its bytes' own.
     */
    public record Analysis(PageMetadata page, Optional<String> changeDigest) {
        public Analysis {
            Objects.requireNonNull(page, "page");
            Objects.requireNonNull(changeDigest, "changeDigest");
        }

        static final Analysis NOT_HTML = new Analysis(PageMetadata.empty(), Optional.empty());
    }

    /** As {@link #extract}, with the page's change digest from the same parse. Never throws. */
    public Analysis analyze(byte[] body, String contentType, String url) {
        try {
            return body == null || !isHtml(body, contentType) ? Analysis.NOT_HTML : read(body, contentType, url);
        } catch (RuntimeException | StackOverflowError e) {
            return Analysis.NOT_HTML; // not expected: every step below has its own guard
        }
    }

    private Analysis read(byte[] body, String contentType, String url) {
        SniffedEncoding encoding = EncodingSniffer.sniff(body, contentType);
        String pageUrl = url == null ? "" : url;
        Document document;
        try {
            document = Jsoup.parse(encoding.decode(body), pageUrl);
        } catch (RuntimeException | StackOverflowError e) {
            // jsoup builds and walks its tree without recursion; this is the last guard, so that one page cannot fail
            // a batch
            return new Analysis(PageMetadata.builder().title(null).description(null).language(null)
                    .canonicalHref(null).image(null).openGraph(Map.of()).twitter(Map.of()).structuredData(List.of())
                    .outlinks(List.of()).outlinksFound(0).encoding(encoding.name()).build(), Optional.empty());
        }
        guarded(() -> keepHttpBase(document, pageUrl), false);

        MetaTags meta = guarded(() -> MetaTags.of(document), MetaTags.NONE);
        String title = guarded(() -> Text.clean(document.title(), MAX_TITLE_LENGTH), null);
        String description = meta.description() != null ? meta.description() : meta.openGraphDescription();
        Resolver resolver = new Resolver(document.baseUri());
        String image = guarded(() -> image(document, meta, resolver), null);
        Outlinks outlinks = guarded(() -> outlinks(document, resolver), Outlinks.NONE);
        PageMetadata page = PageMetadata.builder().title(title).description(description)
                .language(guarded(() -> language(document), null))
                .canonicalHref(guarded(() -> canonicalHref(document), null)).image(image).openGraph(meta.openGraph())
                .twitter(meta.twitter()).structuredData(guarded(() -> structuredData(document), List.of()))
                .outlinks(outlinks.kept()).outlinksFound(outlinks.found()).encoding(encoding.name())
                .directives(guarded(() -> PageDirectivesParser.fromMeta(document, robotsAgent), PageDirectives.none()))
                .build();
        return new Analysis(page, Optional.ofNullable(guarded(() -> ChangeDigest.of(document, page), null)));
    }

    /** One failing field must not cost the others. */
    private static <T> T guarded(Supplier<T> read, T fallback) {
        try {
            return read.get();
        } catch (RuntimeException | StackOverflowError e) {
            return fallback;
        }
    }

    /**
     * jsoup adopts the first {@code <base href>} it can resolve, whatever its scheme. A {@code javascript:} or
     * {@code data:} base would make every relative link unusable, so, as the HTML standard does for those two, the
     * page's URL is used instead.
     */
    private static boolean keepHttpBase(Document document, String pageUrl) {
        if (isHttp(document.baseUri())) {
            return false;
        }
        document.setBaseUri(pageUrl);
        return true;
    }

    /** The meta tags read in one pass. Values are cleaned; the image tags are kept as elements to resolve later. */
    private record MetaTags(String description, String openGraphDescription, Map<String, String> openGraph,
            Map<String, String> twitter, Element openGraphImage, Element twitterImage) {

        static final MetaTags NONE = new MetaTags(null, null, Map.of(), Map.of(), null, null);

        static MetaTags of(Document document) {
            String description = null;
            String openGraphDescription = null;
            Map<String, String> openGraph = new LinkedHashMap<>();
            Map<String, String> twitter = new LinkedHashMap<>();
            Element openGraphImage = null;
            Element twitterImage = null;
            Element twitterImageSrc = null;
            for (Element meta : document.getElementsByTag("meta")) {
                String content = meta.attr("content");
                if (content.isBlank()) {
                    continue;
                }
                String name = meta.attr("name").strip();
                String property = meta.attr("property").strip();
                if (description == null && name.equalsIgnoreCase("description")) {
                    description = Text.clean(content, MAX_DESCRIPTION_LENGTH);
                }
                // OpenGraph says property=, Twitter says name=; pages mix them up, and both readers accept either.
                String openGraphKey = key(property, name, "og:");
                if (openGraphKey != null) {
                    put(openGraph, openGraphKey, content);
                    if (openGraphDescription == null && openGraphKey.equals("description")) {
                        openGraphDescription = Text.clean(content, MAX_DESCRIPTION_LENGTH);
                    }
                    if (openGraphImage == null && openGraphKey.equals("image")) {
                        openGraphImage = meta;
                    }
                }
                String twitterKey = key(name, property, "twitter:");
                if (twitterKey != null) {
                    put(twitter, twitterKey, content);
                    if (twitterImage == null && twitterKey.equals("image")) {
                        twitterImage = meta;
                    }
                    if (twitterImageSrc == null && twitterKey.equals("image:src")) {
                        twitterImageSrc = meta; // the older name of twitter:image
                    }
                }
            }
            return new MetaTags(description, openGraphDescription, PageMetadata.orderedCopy(openGraph),
                    PageMetadata.orderedCopy(twitter), openGraphImage,
                    twitterImage != null ? twitterImage : twitterImageSrc);
        }

        /** The key after {@code prefix} in the preferred attribute, else in the other; lower case. */
        private static String key(String preferred, String other, String prefix) {
            String key = unprefixed(preferred, prefix);
            return key != null ? key : unprefixed(other, prefix);
        }

        private static String unprefixed(String value, String prefix) {
            if (value.length() <= prefix.length() || value.length() > prefix.length() + MAX_META_KEY_LENGTH
                    || !Text.startsWithIgnoringCase(value, prefix)) {
                return null;
            }
            return value.substring(prefix.length()).toLowerCase(Locale.ROOT);
        }

        private static void put(Map<String, String> entries, String key, String content) {
            if (entries.size() >= MAX_META_ENTRIES || entries.containsKey(key)) {
                return;
            }
            String value = Text.clean(content, MAX_META_VALUE_LENGTH);
            if (value != null) {
                entries.put(key, value);
            }
        }
    }

    private static String language(Document document) {
        Element root = document.firstElementChild();
        if (root == null || !root.nameIs("html")) {
            return null;
        }
        String lang = root.attr("lang").strip();
        return lang.isEmpty() || lang.length() > MAX_LANGUAGE_LENGTH ? null : lang;
    }

    /** As written: a caller may want to know that a page declared a relative or cross-site canonical. */
    private static String canonicalHref(Document document) {
        for (Element link : document.getElementsByTag("link")) {
            if (!hasToken(link.attr("rel"), "canonical")) {
                continue;
            }
            String href = link.attr("href").strip();
            if (!href.isEmpty() && href.length() <= MAX_URL_LENGTH) {
                return href;
            }
        }
        return null;
    }

    /** Whether a space-separated list such as {@code rel} holds the keyword, ignoring ASCII case. */
    private static boolean hasToken(String list, String keyword) {
        for (String token : list.split("[\\t\\n\\f\\r ]+")) {
            if (token.equalsIgnoreCase(keyword)) {
                return true;
            }
        }
        return false;
    }

    private static String image(Document document, MetaTags meta, Resolver resolver) {
        for (Element tag : new Element[] {meta.openGraphImage(), meta.twitterImage()}) {
            String url = tag == null ? null : absoluteHttp(resolver, tag.attr("content"));
            if (url != null) {
                return url;
            }
        }
        for (Element img : document.getElementsByTag("img")) {
            // lazy-loading scripts leave src empty and put the real address in data-src
            String attribute = img.attr("src").isBlank() ? "data-src" : "src";
            String src = img.attr(attribute).strip();
            if (src.isEmpty() || Text.startsWithIgnoringCase(src, "data:")
                    || isPixelSized(img.attr("width")) || isPixelSized(img.attr("height"))) {
                continue;
            }
            String url = absoluteHttp(resolver, src);
            if (url != null) {
                return url;
            }
        }
        return null;
    }

    /**
     * Whether a width or height attribute, read with the HTML "rules for parsing non-negative integers" (leading
     * digits; {@code 1px} is 1), is at most {@value #MAX_PIXEL_SIZE}. Absent or not a number: false.
     */
    private static boolean isPixelSized(String dimension) {
        String value = dimension.strip();
        int digits = 0;
        while (digits < value.length() && digits < 9 && value.charAt(digits) >= '0' && value.charAt(digits) <= '9') {
            digits++;
        }
        return digits > 0 && Integer.parseInt(value.substring(0, digits)) <= MAX_PIXEL_SIZE;
    }

    private static String absoluteHttp(Resolver resolver, String href) {
        String url = resolver.resolve(href);
        return isHttp(url) && url.length() <= MAX_URL_LENGTH ? url : null;
    }

    private static boolean isHttp(String url) {
        return Text.startsWithIgnoringCase(url, "http://") || Text.startsWithIgnoringCase(url, "https://");
    }

    private static List<StructuredData> structuredData(Document document) {
        List<StructuredData> items = new ArrayList<>();
        for (Element script : document.getElementsByTag("script")) {
            if (items.size() >= MAX_STRUCTURED_ITEMS) {
                break;
            }
            if (script.attr("type").strip().equalsIgnoreCase("application/ld+json")) {
                guarded(() -> JsonLd.read(script.data(), items, MAX_STRUCTURED_ITEMS), false);
            }
        }
        return items;
    }

    private record Outlinks(List<String> kept, int found) {
        static final Outlinks NONE = new Outlinks(List.of(), 0);
    }

    private Outlinks outlinks(Document document, Resolver resolver) {
        Set<String> normalized = new LinkedHashSet<>();
        Set<String> resolved = new HashSet<>(); // menus repeat links; normalize each address once
        Iterable<Element> links = document.selectStream("a[href], area[href]")
                .limit(Math.max(MAX_LINKS_EXAMINED, maxOutlinks))::iterator;
        for (Element link : links) {
            String href = link.attr("href").strip();
            if (href.isEmpty() || href.startsWith("#")) {
                continue; // the page itself, not a link out of it
            }
            if (USERINFO.matcher(href).lookingAt()) {
                continue; // jsoup would drop the credentials and keep the link; UrlNormalizer refuses such URLs
            }
            String absolute = resolver.resolve(href);
            if (absolute.isEmpty() || !resolved.add(absolute)) {
                continue;
            }
            if (normalizer.normalize(absolute) instanceof Accepted accepted) {
                normalized.add(accepted.url().value());
            }
        }
        List<String> kept = normalized.stream().limit(maxOutlinks).toList();
        return new Outlinks(kept, normalized.size());
    }

    /**
     * Resolves hrefs against the document's base URI, as jsoup's {@code absUrl} does, without its cost: {@code absUrl}
     * looks for the base URI up the element's ancestors, so a page of deeply nested links took time quadratic in its
     * size (20,000 nested links: seconds). A detached element that holds the base URI itself finds it at once.
     */
    private static final class Resolver {

        private final Element probe;

        Resolver(String baseUri) {
            this.probe = new Element(Tag.valueOf("a"), baseUri);
        }

        /** @return the absolute URL, or an empty string when the href cannot be resolved */
        String resolve(String href) {
            probe.attr("href", href);
            return probe.absUrl("href");
        }
    }

    /**
     * Whether a body is HTML: by its Content-Type's media type when there is one, else by sniffing its first bytes as
     * WHATWG MIME sniffing does. The other readers of pages (the Markdown of the main content) use this same rule.
     */
    public static boolean isHtml(byte[] body, String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return looksLikeHtml(body);
        }
        return HTML_TYPES.contains(mediaType(contentType));
    }

    private static boolean looksLikeHtml(byte[] body) {
        int start = hasUtf8Bom(body) ? UTF8_BOM_LENGTH : 0;
        String head = new String(body, start, Math.min(body.length - start, SNIFF_LENGTH), StandardCharsets.ISO_8859_1);
        return HTML_START.matcher(head.stripLeading()).lookingAt();
    }

    private static boolean hasUtf8Bom(byte[] body) {
        return body.length >= UTF8_BOM_LENGTH
                && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB && (body[2] & 0xFF) == 0xBF;
    }

    private static String mediaType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    public static final class Builder {

        private int maxOutlinks = DEFAULT_MAX_OUTLINKS;
        private String robotsAgent = DEFAULT_ROBOTS_AGENT;

        private Builder() {}

        /**
         * The agent token whose {@code <meta name="…">} directives apply besides {@code robots}'s: the fetcher's
         * robots.txt agent, so that a page speaks to Spiderling by the one name in both places.
         */
        public Builder robotsAgent(String agent) {
            if (agent == null || agent.isBlank()) {
                throw new IllegalArgumentException("robotsAgent must not be blank");
            }
            this.robotsAgent = agent.strip().toLowerCase(Locale.ROOT);
            return this;
        }

        /** How many outlinks a page's metadata keeps; the count of all of them is kept regardless. */
        public Builder maxOutlinks(int maxOutlinks) {
            if (maxOutlinks < 0) {
                throw new IllegalArgumentException("maxOutlinks must not be negative: " + maxOutlinks);
            }
            this.maxOutlinks = maxOutlinks;
            return this;
        }

        public HtmlExtractor build() {
            return new HtmlExtractor(this);
        }
    }
}
