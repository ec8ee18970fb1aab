package io.spiderling.core.url;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The WHATWG URL Standard's percent-encode sets and its percent-decoding, for {@link WhatwgParser} and
 * {@link Hosts}. Each part of a URL has its own set because browsers escape each part differently, and the request
 * URL must be the bytes a browser would send: a path escapes {@code ^} and {@code {}} but a query does not, and
 * only a special URL's query escapes {@code '}.
 */
final class PercentEncoding {

    /** The C0 control percent-encode set: C0 controls and DEL; every code point above U+007E is encoded too. */
    static final boolean[] C0_CONTROL = set("");
    static final boolean[] FRAGMENT = set(" \"<>`");
    static final boolean[] QUERY = set(" \"#<>");
    static final boolean[] SPECIAL_QUERY = set(" \"#<>'");
    static final boolean[] PATH = set(" \"#<>?^`{}");
    static final boolean[] USERINFO = set(" \"#<>?^`{}/:;=@[\\]|");

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PercentEncoding() {}

    private static boolean[] set(String extra) {
        boolean[] set = new boolean[0x80];
        for (int c = 0; c < 0x20; c++) {
            set[c] = true;
        }
        set[0x7F] = true;
        extra.chars().forEach(c -> set[c] = true);
        return set;
    }

    /** Appends the code point, UTF-8 percent-encoded if it is in {@code set} or above U+007E. */
    static void append(StringBuilder out, int codePoint, boolean[] set) {
        if (codePoint < 0x80 && !set[codePoint]) {
            out.append((char) codePoint);
            return;
        }
        for (byte b : Character.toString(codePoint).getBytes(StandardCharsets.UTF_8)) {
            out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
        }
    }

    /**
     * The standard's "percent-decode" of a string: its UTF-8 bytes with each {@code %} and two hex digits replaced by
     * the byte they name; a {@code %} without two hex digits after it stays as it is.
     */
    static byte[] decode(String input) {
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            int high = i + 2 < bytes.length ? hexValue(bytes[i + 1]) : -1;
            int low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
            if (bytes[i] != '%' || low < 0) {
                out.write(bytes[i]);
                continue;
            }
            out.write(high * 16 + low);
            i += 2;
        }
        return out.toByteArray();
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        return b >= 'A' && b <= 'F' ? b - 'A' + 10 : -1;
    }
}
