package io.spiderling.core.extract;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The encoding a body is decoded with, and the rule that chose it.
 *
 * @param name the WHATWG Encoding standard's name, e.g. {@code UTF-8}, {@code windows-1252}, {@code Shift_JIS}
 * @param charset the Java charset that decodes it; not always of the same name (Shift_JIS is decoded as
 *     windows-31j, as browsers do)
 * @param rule which step of the HTML standard's encoding sniffing decided
 */
public record SniffedEncoding(String name, Charset charset, Rule rule) {

    /** The steps of https://html.spec.whatwg.org/#determining-the-character-encoding that this sniffer takes. */
    public enum Rule {
        /** A byte order mark; it wins over everything, a contradicting header included. */
        BOM,
        /** The {@code charset} parameter of the Content-Type header. */
        HEADER,
        /** A {@code <meta>} element found by the prescan of the first bytes. */
        META,
        /** Nothing declared: the bytes themselves decided. */
        DETECTED
    }

    public SniffedEncoding {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(charset, "charset");
        Objects.requireNonNull(rule, "rule");
    }

    /**
     * The body as text. A byte order mark is not part of the text; bytes that are invalid in the encoding become
     * U+FFFD, as in a browser.
     */
    public String decode(byte[] body) {
        int skip = bomLength();
        return body.length <= skip ? "" : new String(body, skip, body.length - skip, charset);
    }

    private int bomLength() {
        if (rule != Rule.BOM) {
            return 0;
        }
        return charset.equals(StandardCharsets.UTF_8) ? 3 : 2;
    }
}
