package io.spiderling.core.extract;

import io.spiderling.core.extract.EncodingLabels.Encoding;
import io.spiderling.core.extract.SniffedEncoding.Rule;
import java.util.HashSet;
import java.util.Set;

/**
 * Decides how to decode an HTML body, in the order of the HTML standard
 * (https://html.spec.whatwg.org/#determining-the-character-encoding): a byte order mark, then the Content-Type
 * charset, then a {@code <meta>} in the first {@value #PRESCAN_LENGTH} bytes, then the bytes themselves.
 *
 * <p>Browsers do the same, so a page decoded here reads as its author saw it. jsoup detects too, but looks for
 * {@code <meta>} in its own way (it parses the start of the document as HTML and reads the meta elements it finds,
 * rather than the standard's prescan), so the extractor decodes with this answer and hands jsoup a string.
 *
 * <p>The last step is where browsers differ most; they guess from the top-level domain, the user's locale or
 * frequency statistics. This one only asks whether the body is valid UTF-8 with at least one non-ASCII character,
 * and otherwise reads windows-1252. That is right for the undeclared pages that are UTF-8 (most of them today) and for
 * the older western ones; an undeclared page in another legacy encoding will read as mojibake, as it would in a
 * browser set to a western locale.
 */
public final class EncodingSniffer {

    /** How far the {@code <meta>} prescan looks; the HTML standard encourages 1024 bytes. */
    public static final int PRESCAN_LENGTH = 1024;

    private EncodingSniffer() {}

    /**
     * @param body the body as received; {@code null} is read as empty
     * @param contentType the Content-Type header, or {@code null}
     * @return the encoding and the rule that chose it; never {@code null}
     */
    public static SniffedEncoding sniff(byte[] body, String contentType) {
        byte[] bytes = body == null ? new byte[0] : body;
        Encoding bom = byteOrderMark(bytes);
        if (bom != null) {
            return sniffed(bom, Rule.BOM);
        }
        Encoding header = EncodingLabels.forLabel(charsetParameter(contentType));
        if (header != null) {
            return sniffed(header, Rule.HEADER);
        }
        Encoding meta = new Prescan(bytes, Math.min(bytes.length, PRESCAN_LENGTH)).run();
        if (meta != null) {
            return sniffed(meta, Rule.META);
        }
        return sniffed(isUtf8WithNonAscii(bytes) ? EncodingLabels.UTF_8 : EncodingLabels.WINDOWS_1252,
                Rule.DETECTED);
    }

    private static SniffedEncoding sniffed(Encoding encoding, Rule rule) {
        return new SniffedEncoding(encoding.name(), encoding.charset(), rule);
    }

    private static Encoding byteOrderMark(byte[] b) {
        if (b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
            return EncodingLabels.UTF_8;
        }
        if (b.length >= 2 && (b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF) {
            return EncodingLabels.UTF_16BE;
        }
        if (b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE) {
            return EncodingLabels.UTF_16LE;
        }
        return null;
    }

    /**
     * The first {@code charset} parameter of a Content-Type value, unquoted, as the parameter part of the WHATWG
     * "parse a MIME type" reads it ({@code text/html; charset="utf-8"}, backslash escapes in quotes). It is more
     * lenient than that in one way: it ignores spaces around the name and the {@code =}, which some servers send.
     *
     * @return the label as written, or {@code null} when there is none
     */
    static String charsetParameter(String contentType) {
        if (contentType == null) {
            return null;
        }
        int length = contentType.length();
        int pos = contentType.indexOf(';');
        while (pos >= 0 && pos < length) {
            pos++; // past the ';'
            int nameStart = pos;
            while (pos < length && contentType.charAt(pos) != ';' && contentType.charAt(pos) != '=') {
                pos++;
            }
            String name = EncodingLabels.asciiLowercase(contentType.substring(nameStart, pos).strip());
            if (pos >= length || contentType.charAt(pos) == ';') {
                continue;
            }
            pos++; // past the '='
            while (pos < length && isHttpWhitespace(contentType.charAt(pos))) {
                pos++;
            }
            String value;
            if (pos < length && contentType.charAt(pos) == '"') {
                StringBuilder quoted = new StringBuilder();
                pos++;
                while (pos < length) {
                    char c = contentType.charAt(pos);
                    if (c == '\\' && pos + 1 < length) {
                        quoted.append(contentType.charAt(pos + 1));
                        pos += 2;
                    } else if (c == '"') {
                        pos++;
                        break;
                    } else {
                        quoted.append(c);
                        pos++;
                    }
                }
                value = quoted.toString();
                while (pos < length && contentType.charAt(pos) != ';') {
                    pos++;
                }
            } else {
                int valueStart = pos;
                while (pos < length && contentType.charAt(pos) != ';') {
                    pos++;
                }
                value = contentType.substring(valueStart, pos).strip();
                if (value.isEmpty()) {
                    continue;
                }
            }
            if (name.equals("charset")) {
                return value;
            }
        }
        return null;
    }

    private static boolean isHttpWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    /**
     * The HTML standard's "algorithm for extracting a character encoding from a meta element", on the value of a
     * {@code content} attribute such as {@code text/html; charset=koi8-r}.
     *
     * @return the encoding, or {@code null} when there is no usable charset in it
     */
    static Encoding fromMetaContent(String content) {
        String s = EncodingLabels.asciiLowercase(content);
        int length = s.length();
        int from = 0;
        while (true) {
            int found = s.indexOf("charset", from);
            if (found < 0) {
                return null;
            }
            int pos = found + "charset".length();
            while (pos < length && EncodingLabels.isAsciiWhitespace(s.charAt(pos))) {
                pos++;
            }
            if (pos >= length || s.charAt(pos) != '=') {
                from = pos; // e.g. "charsetcharset=utf-8": look again from here
                continue;
            }
            pos++;
            while (pos < length && EncodingLabels.isAsciiWhitespace(s.charAt(pos))) {
                pos++;
            }
            if (pos >= length) {
                return null;
            }
            char first = s.charAt(pos);
            if (first == '"' || first == '\'') {
                int close = s.indexOf(first, pos + 1);
                return close < 0 ? null : EncodingLabels.forLabel(s.substring(pos + 1, close));
            }
            int end = pos;
            while (end < length && !EncodingLabels.isAsciiWhitespace(s.charAt(end)) && s.charAt(end) != ';') {
                end++;
            }
            return EncodingLabels.forLabel(s.substring(pos, end));
        }
    }

    /**
     * Whether the body is UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) with at least one
     * multi-byte sequence. Pure ASCII says nothing either way. A sequence cut off by the end of the body is allowed,
     * because bodies are cut at a size cap and the cut falls anywhere; but it is no evidence by itself, since a
     * windows-1252 page can end in "é" (one byte that starts a UTF-8 sequence).
     */
    static boolean isUtf8WithNonAscii(byte[] b) {
        boolean multiByte = false;
        int i = 0;
        int n = b.length;
        while (i < n) {
            int lead = b[i] & 0xFF;
            if (lead < 0x80) {
                i++;
                continue;
            }
            int continuation;
            int low = 0x80;
            int high = 0xBF;
            if (lead >= 0xC2 && lead <= 0xDF) {
                continuation = 1;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                continuation = 2;
                low = lead == 0xE0 ? 0xA0 : low; // shorter forms exist: overlong
                high = lead == 0xED ? 0x9F : high; // U+D800..U+DFFF: surrogates
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                continuation = 3;
                low = lead == 0xF0 ? 0x90 : low; // overlong
                high = lead == 0xF4 ? 0x8F : high; // above U+10FFFF
            } else {
                return false; // a continuation byte without a lead, C0/C1 (overlong) or F5..FF
            }
            for (int k = 1; k <= continuation; k++) {
                if (i + k >= n) {
                    return multiByte;
                }
                int next = b[i + k] & 0xFF;
                if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) {
                    return false;
                }
            }
            i += continuation + 1;
            multiByte = true;
        }
        return multiByte;
    }

    /**
     * The HTML standard's "prescan a byte stream to determine its encoding", over {@code bytes[0, end)}. A tag that
     * the end cuts off is not read: the prescan stops there with no answer, as at its end condition.
     */
    private static final class Prescan {

        private record Attribute(String name, String value) {}

        private final byte[] bytes;
        private final int end;
        private int pos;
        /** Set when a step needed a byte at or past {@code end}. */
        private boolean exhausted;

        Prescan(byte[] bytes, int end) {
            this.bytes = bytes;
            this.end = end;
        }

        Encoding run() {
            while (pos < end && !exhausted) {
                if (startsWith("<!--")) {
                    // the '>' of the first "-->" after "<!", so that "<!-->" is a whole comment
                    int close = indexOf("-->", pos + 2);
                    if (close < 0) {
                        return null;
                    }
                    pos = close + 3;
                } else if (startsWithIgnoringCase("<meta") && pos + 5 < end && isSpaceOrSlash(at(pos + 5))) {
                    pos += 5;
                    Encoding found = meta();
                    if (found != null) {
                        return found;
                    }
                    pos++;
                } else if (at(pos) == '<' && (isAsciiLetter(at(pos + 1))
                        || (at(pos + 1) == '/' && isAsciiLetter(at(pos + 2))))) {
                    // another tag: step over its name and attributes, so that a "<meta" inside a value is not read
                    while (pos < end && !isWhitespace(at(pos)) && at(pos) != '>') {
                        pos++;
                    }
                    while (attribute() != null) {
                        // skipped
                    }
                    pos++;
                } else if (startsWith("<!") || startsWith("</") || startsWith("<?")) {
                    int close = indexOf(">", pos + 1);
                    if (close < 0) {
                        return null;
                    }
                    pos = close + 1;
                } else {
                    pos++;
                }
            }
            return null;
        }

        /** The attributes of one {@code <meta>}, {@code pos} just after its name; null to go on scanning. */
        private Encoding meta() {
            Set<String> seen = new HashSet<>();
            boolean gotPragma = false;
            Boolean needPragma = null;
            Encoding charset = null;
            boolean charsetFailed = false;
            Attribute attribute;
            while ((attribute = attribute()) != null) {
                if (!seen.add(attribute.name())) {
                    continue; // only the first of a name counts, as in the parser
                }
                switch (attribute.name()) {
                    case "http-equiv" -> gotPragma |= attribute.value().equals("content-type");
                    case "content" -> {
                        Encoding fromContent = fromMetaContent(attribute.value());
                        if (fromContent != null && charset == null && !charsetFailed) {
                            charset = fromContent;
                            needPragma = true;
                        }
                    }
                    case "charset" -> {
                        charset = EncodingLabels.forLabel(attribute.value());
                        charsetFailed = charset == null;
                        needPragma = false;
                    }
                    default -> {
                        // not about the encoding
                    }
                }
            }
            if (exhausted || needPragma == null || (needPragma && !gotPragma) || charset == null) {
                return null;
            }
            // A page that could be read this far as ASCII is not UTF-16, whatever it says.
            if (charset.equals(EncodingLabels.UTF_16BE) || charset.equals(EncodingLabels.UTF_16LE)) {
                return EncodingLabels.UTF_8;
            }
            return charset;
        }

        /**
         * The standard's "get an attribute": names and values lower-cased in ASCII, other bytes kept as the
         * characters U+0000..U+00FF. Null when there are no more attributes, with {@code pos} on the {@code '>'}, or
         * when the bytes ran out.
         */
        private Attribute attribute() {
            while (pos < end && (isWhitespace(at(pos)) || at(pos) == '/')) {
                pos++;
            }
            if (pos >= end) {
                exhausted = true;
                return null;
            }
            if (at(pos) == '>') {
                return null;
            }
            StringBuilder name = new StringBuilder();
            while (true) {
                if (pos >= end) {
                    exhausted = true;
                    return null;
                }
                int c = at(pos);
                if (c == '=' && !name.isEmpty()) {
                    pos++;
                    return value(name.toString());
                }
                if (isWhitespace(c)) {
                    break;
                }
                if (c == '/' || c == '>') {
                    return new Attribute(name.toString(), "");
                }
                name.append(lower(c));
                pos++;
            }
            while (pos < end && isWhitespace(at(pos))) {
                pos++;
            }
            if (pos >= end) {
                exhausted = true;
                return null;
            }
            if (at(pos) != '=') {
                return new Attribute(name.toString(), ""); // pos stays: this byte starts the next attribute
            }
            pos++;
            return value(name.toString());
        }

        private Attribute value(String name) {
            while (pos < end && isWhitespace(at(pos))) {
                pos++;
            }
            if (pos >= end) {
                exhausted = true;
                return null;
            }
            StringBuilder value = new StringBuilder();
            int first = at(pos);
            if (first == '"' || first == '\'') {
                while (true) {
                    pos++;
                    if (pos >= end) {
                        exhausted = true;
                        return null;
                    }
                    int c = at(pos);
                    if (c == first) {
                        pos++;
                        return new Attribute(name, value.toString());
                    }
                    value.append(lower(c));
                }
            }
            if (first == '>') {
                return new Attribute(name, "");
            }
            while (true) {
                if (pos >= end) {
                    exhausted = true;
                    return null;
                }
                int c = at(pos);
                if (isWhitespace(c) || c == '>') {
                    return new Attribute(name, value.toString());
                }
                value.append(lower(c));
                pos++;
            }
        }

        /** The byte at {@code i} as 0..255, or -1 past the end. */
        private int at(int i) {
            return i < end ? bytes[i] & 0xFF : -1;
        }

        private boolean startsWith(String ascii) {
            if (pos + ascii.length() > end) {
                return false;
            }
            for (int k = 0; k < ascii.length(); k++) {
                if (at(pos + k) != ascii.charAt(k)) {
                    return false;
                }
            }
            return true;
        }

        private boolean startsWithIgnoringCase(String asciiLower) {
            if (pos + asciiLower.length() > end) {
                return false;
            }
            for (int k = 0; k < asciiLower.length(); k++) {
                if (lower(at(pos + k)) != asciiLower.charAt(k)) {
                    return false;
                }
            }
            return true;
        }

        private int indexOf(String ascii, int from) {
            for (int i = from; i + ascii.length() <= end; i++) {
                boolean match = true;
                for (int k = 0; k < ascii.length() && match; k++) {
                    match = at(i + k) == ascii.charAt(k);
                }
                if (match) {
                    return i;
                }
            }
            return -1;
        }

        private static char lower(int c) {
            return (char) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
        }

        private static boolean isWhitespace(int c) {
            return c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20;
        }

        private static boolean isSpaceOrSlash(int c) {
            return isWhitespace(c) || c == '/';
        }

        private static boolean isAsciiLetter(int c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        }
    }
}
