package io.spiderling.core.signing;

import java.util.Base64;

/** The few Structured Field (RFC 8941) serializations the signature headers need. */
final class StructuredFields {

    private StructuredFields() {}

    /** An sf-string (RFC 8941 4.1.6): printable ASCII only, with {@code "} and {@code \} escaped. */
    static String string(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException("not printable ASCII, so not an sf-string: " + value);
            }
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append('"').toString();
    }

    /** An sf-binary (RFC 8941 4.1.8): standard base64 with padding, between colons. */
    static String binary(byte[] value) {
        return ":" + Base64.getEncoder().encodeToString(value) + ":";
    }

    /** A dictionary key (RFC 8941 3.2): lower case letter or {@code *} first, then lower case, digits, {@code _-.*}. */
    static String key(String key) {
        if (!key.matches("[a-z*][a-z0-9_.*-]*")) {
            throw new IllegalArgumentException("not a dictionary key: " + key);
        }
        return key;
    }
}
