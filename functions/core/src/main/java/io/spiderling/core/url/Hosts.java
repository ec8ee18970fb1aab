package io.spiderling.core.url;

import io.spiderling.core.net.Ipv4Spelling;
import java.nio.charset.StandardCharsets;

/**
 * The WHATWG URL Standard's host parser for special schemes (http and https among them), with the host's
 * serialization: what a browser connects to, written the one way a browser writes it.
 *
 * <p>A domain is percent-decoded, mapped by UTS 46 ({@link Idna}) and checked for forbidden code points; a domain
 * that ends in a number is an IPv4 address in one of the spellings browsers read ({@code 0x7f.1} is
 * {@code 127.0.0.1}), or nothing; a bracketed host is an IPv6 address.
 */
final class Hosts {

    /** The forbidden domain code points of ASCII: C0 controls, space, DEL and these. */
    private static final String FORBIDDEN_DOMAIN = "#%/:<>?@[\\]^|";

    private Hosts() {}

    /** The serialized host, or null if {@code input} (non-empty, still percent-encoded) is no valid host. */
    static String parse(String input) {
        if (input.startsWith("[")) {
            if (!input.endsWith("]")) {
                return null; // IPv6-unclosed
            }
            int[] address = Ipv6Address.parse(input.substring(1, input.length() - 1));
            return address == null ? null : "[" + Ipv6Address.serialize(address) + "]";
        }
        // "UTF-8 decode without BOM": malformed bytes become U+FFFD, which UTS 46 then refuses
        String domain = new String(PercentEncoding.decode(input), StandardCharsets.UTF_8);
        String ascii = Idna.toAscii(domain);
        if (ascii == null || ascii.isEmpty() || hasForbiddenDomainCodePoint(ascii)) {
            return null; // domain-to-ASCII, domain-invalid-code-point
        }
        // Ipv4Spelling follows the standard's "ends in a number" checker and IPv4 parser to the letter
        return Ipv4Spelling.endsInNumber(ascii) ? Ipv4Spelling.canonical(ascii) : ascii;
    }

    private static boolean hasForbiddenDomainCodePoint(String ascii) {
        for (int i = 0; i < ascii.length(); i++) {
            char c = ascii.charAt(i);
            if (c <= 0x20 || c == 0x7F || FORBIDDEN_DOMAIN.indexOf(c) >= 0) {
                return true;
            }
        }
        return false;
    }
}
