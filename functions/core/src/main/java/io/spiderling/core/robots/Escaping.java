package io.spiderling.core.robots;

import java.nio.charset.StandardCharsets;

/**
 * The one percent-encoded form in which rule patterns and request-targets are compared (RFC 9309 section 2.2.2), so
 * that two spellings of the same octets always match each other:
 * <ul>
 *   <li>{@code %XX} of an unreserved character (letters, digits, {@code - . _ ~}) is decoded. RFC 9309 requires it of
 *       the URI ("it MUST be unencoded prior to comparison", and its table reads {@code /foo/bar/%62%61%7A} as
 *       {@code /foo/bar/baz}); RFC 3986 section 6.2.2.2 makes both spellings one resource. Done on both sides,
 *       {@code Disallow: /baz} also covers a request for {@code /%62%61%7A}. Google's matcher compares octets as
 *       written instead (its suite calls such patterns "not to be relied on"), which google-robots-deliberate.csv
 *       records.
 *   <li>Any other {@code %XX} keeps its octet encoded, in upper-case hex: {@code %2F} is not {@code /}, and
 *       {@code %2f} is {@code %2F} (RFC 3986 sections 2.1 and 2.2).
 *   <li>Octets beyond ASCII, controls, space, and the ASCII characters RFC 3986 allows nowhere in a path or query
 *       ({@code " < > \ ^ ` { | }}, and {@code [ ]} outside a host) are encoded, as is a {@code %} that starts no
 *       {@code %XX}: each has a single valid spelling, its {@code %XX}, while a WHATWG serializer sends some of them
 *       raw ({@code | ^ [ ]} in a path, {@code ` { | }} in a query).
 *   <li>In a target, {@code *} and {@code $} are encoded, and so is a {@code $} in a pattern that does not end it:
 *       RFC 9309 section 2.2.3 matches the special characters verbatim through their {@code %2A} and {@code %24}.
 * </ul>
 * crawler-commons has already brought patterns to nearly this form (it leaves {@code \} and a {@code $} inside a
 * pattern raw); applying it again to the patterns makes both sides meet in exactly this one.
 */
final class Escaping {

    private static final String NEVER_RAW = "\"<>\\^`{|}[]#%";
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Escaping() {}

    /** A rule's pattern, with {@code *} and a final {@code $} kept as the wildcards they are. */
    static String pattern(String pattern) {
        boolean anchored = pattern.endsWith("$");
        String body = anchored ? pattern.substring(0, pattern.length() - 1) : pattern;
        return normalize(body, "$") + (anchored ? "$" : "");
    }

    /** A request-target, where {@code *} and {@code $} are plain characters. */
    static String target(String target) {
        return normalize(target, "*$");
    }

    private static String normalize(String text, String alsoEncoded) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length + 16);
        for (int i = 0; i < bytes.length; i++) {
            int octet = bytes[i] & 0xff;
            int encoded = octet == '%' ? escapedOctet(bytes, i) : -1;
            if (encoded >= 0) {
                i += 2;
                octet = encoded;
                if (isUnreserved(octet)) {
                    out.append((char) octet);
                    continue;
                }
            } else if (!mustEncode(octet, alsoEncoded)) {
                out.append((char) octet);
                continue;
            }
            out.append('%').append(HEX[octet >> 4]).append(HEX[octet & 0xf]);
        }
        return out.toString();
    }

    /** The octet of the {@code %XX} at {@code at}, or -1 when no two hex digits follow the {@code %}. */
    private static int escapedOctet(byte[] bytes, int at) {
        if (at + 2 >= bytes.length) {
            return -1;
        }
        int high = Character.digit(bytes[at + 1], 16);
        int low = Character.digit(bytes[at + 2], 16);
        return high < 0 || low < 0 ? -1 : high << 4 | low;
    }

    private static boolean mustEncode(int octet, String alsoEncoded) {
        return octet <= ' ' || octet >= 0x7f || NEVER_RAW.indexOf(octet) >= 0 || alsoEncoded.indexOf(octet) >= 0;
    }

    private static boolean isUnreserved(int octet) {
        return octet >= 'a' && octet <= 'z' || octet >= 'A' && octet <= 'Z' || octet >= '0' && octet <= '9'
                || octet == '-' || octet == '.' || octet == '_' || octet == '~';
    }
}
