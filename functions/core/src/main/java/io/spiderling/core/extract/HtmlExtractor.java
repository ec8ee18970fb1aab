package io.spiderling.core.extract;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Extracts page metadata from an HTML body with jsoup.
 *
 * <p>Decoding follows the WHATWG order as far as jsoup allows: a byte order mark wins (jsoup checks it even when given
 * a charset), then the Content-Type charset, then jsoup's {@code <meta>} prescan, then UTF-8. Header labels that the
 * WHATWG Encoding standard maps to windows-1252 ({@code iso-8859-1}, {@code latin1}, {@code us-ascii}, …) are decoded
 * as windows-1252, as browsers do, so that bytes 0x80–0x9F become the characters the author saw.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class HtmlExtractor {

    static final int MAX_TITLE_LENGTH = 1000;
    static final int MAX_DESCRIPTION_LENGTH = 2000;

    private static final Set<String> HTML_TYPES = Set.of("text/html", "application/xhtml+xml");
    private static final Set<String> WINDOWS_1252_LABELS = Set.of("ansi_x3.4-1968", "ascii", "cp1252", "cp819",
            "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1",
            "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);
    /** The tags WHATWG MIME sniffing accepts as the start of an HTML document, each followed by space or '>'. */
    private static final Pattern HTML_START = Pattern.compile(
            "<!--|<(?:!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p)[ >]",
            Pattern.CASE_INSENSITIVE);
    private static final int SNIFF_LENGTH = 512;
    private static final int UTF8_BOM_LENGTH = 3;

    private HtmlExtractor() {}

    public static HtmlExtractor create() {
        return new HtmlExtractor();
    }

    /**
     * @param body the response body as stored
     * @param contentType the Content-Type header, or {@code null} to sniff the body
     * @param url the page's URL, used as the base URI
     * @return the metadata, or empty metadata for non-HTML content; never throws
     */
    public PageMetadata extract(byte[] body, String contentType, String url) {
        if (body == null || !isHtml(body, contentType)) {
            return PageMetadata.empty();
        }
        Document document;
        try {
            document = Jsoup.parse(new ByteArrayInputStream(body), charsetOf(contentType), url == null ? "" : url);
        } catch (IOException e) {
            return PageMetadata.empty(); // not expected from an in-memory stream; metadata is best-effort anyway
        }
        return new PageMetadata(clean(document.title(), MAX_TITLE_LENGTH), clean(description(document),
                MAX_DESCRIPTION_LENGTH), null, null, null, java.util.Map.of(), java.util.Map.of(), java.util.List.of(),
                java.util.List.of(), 0, null);
    }

    private static String description(Document document) {
        String openGraph = null;
        for (Element meta : document.select("meta[content]")) {
            String content = meta.attr("content");
            if (content.isBlank()) {
                continue;
            }
            if ("description".equalsIgnoreCase(meta.attr("name").strip())) {
                return content;
            }
            if (openGraph == null && "og:description".equalsIgnoreCase(meta.attr("property").strip())) {
                openGraph = content;
            }
        }
        return openGraph;
    }

    private static String clean(String text, int maxLength) {
        if (text == null) {
            return null;
        }
        String collapsed = WHITESPACE.matcher(text).replaceAll(" ").strip();
        if (collapsed.isEmpty()) {
            return null;
        }
        if (collapsed.length() <= maxLength) {
            return collapsed;
        }
        int end = Character.isHighSurrogate(collapsed.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
        return collapsed.substring(0, end);
    }

    private static boolean isHtml(byte[] body, String contentType) {
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

    /** The Content-Type charset as a Java charset name, or {@code null} to let jsoup detect it. */
    private static String charsetOf(String contentType) {
        if (contentType == null) {
            return null;
        }
        for (String parameter : contentType.split(";")) {
            int equals = parameter.indexOf('=');
            if (equals < 0 || !parameter.substring(0, equals).strip().equalsIgnoreCase("charset")) {
                continue;
            }
            String label = parameter.substring(equals + 1).strip().replace("\"", "")
                    .toLowerCase(Locale.ROOT);
            if (WINDOWS_1252_LABELS.contains(label)) {
                return "windows-1252";
            }
            try {
                return Charset.isSupported(label) ? label : null;
            } catch (IllegalCharsetNameException e) {
                return null;
            }
        }
        return null;
    }
}
