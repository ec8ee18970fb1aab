package io.spiderling.core.net;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which host names URL parsers read as IPv4 addresses, and which of those are spelt the one unambiguous way.
 *
 * <p>A browser (the WHATWG URL standard) and the C library's {@code inet_aton} read {@code 2130706433},
 * {@code 0177.0.0.1}, {@code 0x7f.1} and {@code 127.1} all as 127.0.0.1; Java's resolver reads {@code 0177.0.0.1} as
 * 177.0.0.1 and refuses the hex forms, and other resolvers differ again. A host spelt that way means different
 * addresses to different readers, so the fetcher and the callback policy refuse it before any resolver sees it, and
 * only canonical dotted quads ({@code 127.0.0.1}, no leading zeros) go on to be judged as addresses.
 */
public final class Ipv4Spelling {

    /** 0 to 255 without leading zeros, which some readers take as octal. */
    private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
    private static final Pattern DOTTED_QUAD = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");

    private Ipv4Spelling() {}

    /**
     * True for hosts that URL parsers read as IPv4 addresses: the last label (after one trailing dot) is a decimal
     * number or {@code 0x} and hex digits ({@code 127.0.0.2}, {@code 127.1}, {@code 0x7f.0.0.1}). No top-level domain
     * is numeric, so this never catches a name.
     */
    public static boolean endsInNumber(String host) {
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        int start = h.lastIndexOf('.') + 1;
        if (h.startsWith("0x", start) || h.startsWith("0X", start)) {
            for (int i = start + 2; i < h.length(); i++) {
                if (Character.digit(h.charAt(i), 16) < 0) {
                    return false;
                }
            }
            return true;
        }
        if (start == h.length()) {
            return false;
        }
        for (int i = start; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** True for four decimal octets from 0 to 255 without leading zeros, and nothing else (no trailing dot). */
    public static boolean isDottedQuad(String host) {
        return DOTTED_QUAD.matcher(host).matches();
    }

    /**
     * Why {@code host} must not be fetched because of how it spells an IPv4 address, or empty if it is a name or a
     * canonical dotted quad.
     */
    public static Optional<String> ambiguity(String host) {
        return endsInNumber(host) && !isDottedQuad(host)
                ? Optional.of("host " + host + " is not a dotted-quad IPv4 address") : Optional.empty();
    }
}
