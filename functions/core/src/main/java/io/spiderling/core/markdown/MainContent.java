package io.spiderling.core.markdown;

import com.vladsch.flexmark.html2md.converter.FlexmarkHtmlConverter;
import com.vladsch.flexmark.util.data.MutableDataSet;
import io.spiderling.core.extract.EncodingSniffer;
import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.extract.SniffedEncoding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.dankito.readability4j.Article;
import net.dankito.readability4j.Readability4J;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Tag;

/**
 * Pure: the Markdown of a page's main content. Thread-safe, reusable.
 *
 * <p>The body is decoded as {@link HtmlExtractor} decodes it ({@link EncodingSniffer}, the order browsers use) and
 * parsed by jsoup. Links and images are made absolute against the page's URL, or its http(s) {@code <base href>}.
 * Readability4J, a port of Mozilla's Readability, then finds the main content: navigation, footers, comments and
 * other boilerplate are left out. flexmark's converter writes that content as Markdown. See ADR 20 for why these two.
 *
 * <p>Bounds, since a stored body can be 10 MB and the page decides what it holds:
 * <ul>
 *   <li>only the first {@link Builder#maxInputBytes} bytes of the body are read (2 MiB by default): past that, HTML is
 *       nearly always inline scripts, styles and data, and the article almost always comes before. A page cut there
 *       is rendered as far as it goes;
 *   <li>a page of more than {@link Builder#maxElements} elements (50,000 by default) is not rendered at all, because
 *       Readability scores the whole tree several times over and its time grows with it;
 *   <li>the Markdown is cut at the last line break before {@link Builder#maxMarkdownChars} characters (512 Ki by
 *       default), so what is stored next to the body stays small; a code block cut there is left open.
 * </ul>
 *
 * <p>It never throws: a failure anywhere, on hostile input, gives an empty result, so that one page cannot fail a
 * batch. A page nested so deep that Readability's recursion overflows the stack is one such.
 */
public final class MainContent {

    public static final int DEFAULT_MAX_INPUT_BYTES = 2 * 1024 * 1024;
    public static final int DEFAULT_MAX_ELEMENTS = 50_000;
    public static final int DEFAULT_MAX_MARKDOWN_CHARS = 512 * 1024;
    static final int MAX_TITLE_LENGTH = 1000;
    /** A BCP 47 tag is far shorter; anything longer is not a language. */
    private static final int MAX_LANGUAGE_LENGTH = 100;

    /** Readability drops every class, so the language of a code block is kept in an attribute it leaves alone. */
    private static final String CODE_LANGUAGE_ATTRIBUTE = "data-spiderling-code-language";
    private static final Pattern CODE_LANGUAGE_CLASS =
            Pattern.compile("(?:^|\\s)(?:language|lang)-([A-Za-z0-9_+#.-]{1,40})(?:\\s|$)");
    private static final Pattern LANGUAGE_TAG = Pattern.compile("[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern BLANK_LINES = Pattern.compile("\\n{3,}");

    private final int maxInputBytes;
    private final int maxElements;
    private final int maxMarkdownChars;
    private final FlexmarkHtmlConverter converter;

    private MainContent(Builder builder) {
        this.maxInputBytes = builder.maxInputBytes;
        this.maxElements = builder.maxElements;
        this.maxMarkdownChars = builder.maxMarkdownChars;
        MutableDataSet options = new MutableDataSet();
        options.set(FlexmarkHtmlConverter.SETEXT_HEADINGS, false);
        options.set(FlexmarkHtmlConverter.OUTPUT_ATTRIBUTES_ID, false);
        options.set(FlexmarkHtmlConverter.SKIP_ATTRIBUTES, true);
        options.set(FlexmarkHtmlConverter.TYPOGRAPHIC_QUOTES, false);
        options.set(FlexmarkHtmlConverter.TYPOGRAPHIC_SMARTS, false);
        options.set(FlexmarkHtmlConverter.NBSP_TEXT, " ");
        options.set(FlexmarkHtmlConverter.MAX_TRAILING_BLANK_LINES, 0);
        this.converter = FlexmarkHtmlConverter.builder(options).build();
    }

    /** A renderer with the default bounds. */
    public static MainContent create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param body the response body as stored
     * @param contentType the Content-Type header, or {@code null} to sniff the body
     * @param url the page's URL, against which links and images are made absolute
     * @return empty when the body is not HTML, or has no main content to render; never throws
     */
    public Optional<MarkdownPage> render(byte[] body, String contentType, String url) {
        try {
            return body == null || !HtmlExtractor.isHtml(body, contentType)
                    ? Optional.empty()
                    : read(body, contentType, url == null ? "" : url);
        } catch (Exception | StackOverflowError e) {
            // Readability4J and flexmark are not expected to fail, but pages are hostile; Kotlin code may throw
            // checked exceptions undeclared (Readability4J does, past its own element limit)
            return Optional.empty();
        }
    }

    private Optional<MarkdownPage> read(byte[] body, String contentType, String url) {
        SniffedEncoding encoding = EncodingSniffer.sniff(body, contentType);
        byte[] head = body.length > maxInputBytes ? Arrays.copyOf(body, maxInputBytes) : body;
        Document document = Jsoup.parse(encoding.decode(head), url);
        if (document.getAllElements().size() > maxElements) {
            return Optional.empty();
        }
        if (!isHttp(document.baseUri())) {
            document.setBaseUri(url); // a javascript: or data: base would spoil every link, as in HtmlExtractor
        }
        Optional<String> language = language(document);
        absolutize(document);
        keepCodeLanguages(document);
        Article article = new Readability4J(url, document).parse();
        Element content = article.getArticleContent();
        Optional<String> title = clean(article.getTitle()).or(() -> clean(document.title()));
        if (content == null || !hasTextBesides(content, title)) {
            return Optional.empty(); // Readability falls back to whatever it found, the title alone at worst
        }
        prepareCodeBlocks(content);
        // Readability hands back a detached element; flexmark looks at the parent of what it converts
        Document shell = Document.createShell(url);
        shell.body().appendChild(content);
        String markdown = cut(tidy(converter.convert(shell.body())));
        if (markdown.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new MarkdownPage(markdown, title, language));
    }

    /**
     * Every link and image as an absolute URL, before Readability moves elements out of the document. A link that
     * cannot be resolved, or leads nowhere a reader can follow ({@code javascript:}), keeps its text and loses its
     * address.
     */
    private static void absolutize(Document document) {
        Element probe = new Element(Tag.valueOf("a"), document.baseUri());
        for (Element link : document.select("a[href]")) {
            String absolute = resolve(probe, link.attr("href"));
            if (absolute.isEmpty() || startsWithIgnoringCase(absolute, "javascript:")) {
                link.removeAttr("href");
            } else {
                link.attr("href", absolute);
            }
        }
        for (Element image : document.select("img")) {
            // lazy-loading scripts leave src empty, or a placeholder, and put the picture in data-src
            String src = image.attr("data-src").isBlank() ? image.attr("src") : image.attr("data-src");
            String absolute = resolve(probe, src);
            if (absolute.isEmpty()) {
                image.removeAttr("src");
            } else {
                image.attr("src", absolute);
            }
        }
    }

    /**
     * jsoup's {@code absUrl} looks for the base URI up the element's ancestors, which costs time quadratic in the depth
     * of a page; a detached element that holds the base URI itself resolves at once.
     */
    private static String resolve(Element probe, String href) {
        if (href.isBlank()) {
            return "";
        }
        probe.attr("href", href.strip());
        return probe.absUrl("href");
    }

    private static void keepCodeLanguages(Document document) {
        for (Element code : document.select("pre[class], code[class]")) {
            Matcher matcher = CODE_LANGUAGE_CLASS.matcher(code.className());
            if (matcher.find()) {
                code.attr(CODE_LANGUAGE_ATTRIBUTE, matcher.group(1).toLowerCase(Locale.ROOT));
            }
        }
    }

    /**
     * Shapes each {@code <pre>} so that flexmark writes a fenced block: with the language, it wants one
     * {@code <code>} of class {@code language-…} inside; without, it fences a {@code <pre>} of bare text but indents
     * one that holds a {@code <code>}, so that element is unwrapped.
     */
    private static void prepareCodeBlocks(Element content) {
        for (Element pre : content.select("pre")) {
            Element withLanguage = pre.hasAttr(CODE_LANGUAGE_ATTRIBUTE) ? pre
                    : pre.selectFirst("code[" + CODE_LANGUAGE_ATTRIBUTE + "]");
            if (withLanguage == null) {
                pre.select("code").unwrap();
                continue;
            }
            String language = withLanguage.attr(CODE_LANGUAGE_ATTRIBUTE);
            pre.select("code").unwrap();
            Element code = new Element("code").attr("class", "language-" + language);
            code.appendChildren(new ArrayList<>(pre.childNodes()));
            pre.appendChild(code);
        }
        content.select("[" + CODE_LANGUAGE_ATTRIBUTE + "]").removeAttr(CODE_LANGUAGE_ATTRIBUTE);
    }

    /**
     * The declared language: {@code <html lang>} (or {@code xml:lang}), else the first of a
     * {@code <meta http-equiv="content-language">}, else {@code <meta name="language">}; as a canonical BCP 47 tag.
     */
    static Optional<String> language(Document document) {
        Element root = document.firstElementChild();
        if (root != null && root.nameIs("html")) {
            for (String attribute : new String[] {"lang", "xml:lang"}) {
                Optional<String> tag = languageTag(root.attr(attribute));
                if (tag.isPresent()) {
                    return tag;
                }
            }
        }
        for (Element meta : document.select("meta[http-equiv], meta[name]")) {
            String key = meta.hasAttr("http-equiv") ? meta.attr("http-equiv") : meta.attr("name");
            if (key.strip().equalsIgnoreCase("content-language") || key.strip().equalsIgnoreCase("language")) {
                Optional<String> tag = languageTag(meta.attr("content").split(",", 2)[0]);
                if (tag.isPresent()) {
                    return tag;
                }
            }
        }
        return Optional.empty();
    }

    /** {@code en_us} and {@code EN-us} are {@code en-US}; anything that is not a well-formed tag is none. */
    static Optional<String> languageTag(String value) {
        String candidate = value.strip().replace('_', '-');
        if (candidate.isEmpty() || candidate.length() > MAX_LANGUAGE_LENGTH
                || !LANGUAGE_TAG.matcher(candidate).matches()) {
            return Optional.empty();
        }
        String tag = Locale.forLanguageTag(candidate).toLanguageTag();
        return tag.equals("und") ? Optional.empty() : Optional.of(tag);
    }

    private static boolean hasTextBesides(Element content, Optional<String> title) {
        String text = clean(content.text()).orElse("");
        return !text.isEmpty() && !title.filter(text::equals).isPresent();
    }

    private static Optional<String> clean(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String collapsed = WHITESPACE.matcher(text).replaceAll(" ").strip();
        if (collapsed.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(collapsed.length() <= MAX_TITLE_LENGTH ? collapsed : cutAt(collapsed, MAX_TITLE_LENGTH));
    }

    /** Trailing spaces off each line, at most one blank line in a row, one line break at the end. */
    private static String tidy(String markdown) {
        String lines = markdown.lines().map(String::stripTrailing).reduce((a, b) -> a + "\n" + b).orElse("");
        String text = BLANK_LINES.matcher(lines).replaceAll("\n\n").strip();
        return text.isEmpty() ? "" : text + "\n";
    }

    private String cut(String markdown) {
        if (markdown.length() <= maxMarkdownChars) {
            return markdown;
        }
        int lineEnd = markdown.lastIndexOf('\n', maxMarkdownChars - 1);
        return lineEnd > 0 ? markdown.substring(0, lineEnd + 1) : cutAt(markdown, maxMarkdownChars);
    }

    /** The first {@code max} characters, or one fewer rather than half a surrogate pair. */
    private static String cutAt(String text, int max) {
        return text.substring(0, Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max);
    }

    private static boolean startsWithIgnoringCase(String text, String prefix) {
        return text.regionMatches(true, 0, prefix, 0, prefix.length());
    }

    private static boolean isHttp(String url) {
        return startsWithIgnoringCase(url, "http://") || startsWithIgnoringCase(url, "https://");
    }

    /** The bounds on work and size; see the class comment for what happens past each. */
    public static final class Builder {

        private int maxInputBytes = DEFAULT_MAX_INPUT_BYTES;
        private int maxElements = DEFAULT_MAX_ELEMENTS;
        private int maxMarkdownChars = DEFAULT_MAX_MARKDOWN_CHARS;

        private Builder() {}

        /** How many bytes of the body are read, at most; the rest is not rendered. */
        public Builder maxInputBytes(int maxInputBytes) {
            this.maxInputBytes = positive(maxInputBytes, "maxInputBytes");
            return this;
        }

        /** A page with more elements than this gets no Markdown. */
        public Builder maxElements(int maxElements) {
            this.maxElements = positive(maxElements, "maxElements");
            return this;
        }

        /** The longest Markdown kept, in characters; longer is cut at a line break. */
        public Builder maxMarkdownChars(int maxMarkdownChars) {
            this.maxMarkdownChars = positive(maxMarkdownChars, "maxMarkdownChars");
            return this;
        }

        public MainContent build() {
            return new MainContent(this);
        }

        private static int positive(int value, String name) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive: " + value);
            }
            return value;
        }
    }
}
