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
 * only canonical dotted quads ({@code 127.0.0.1}, no leading zeros) go on to be judged as addresses. The URL
 * normalizer writes such hosts as the dotted quad a browser reads ({@link #canonical}), so that one address is one URL
 * and one site, each with one rate limit; the fetcher's refusal guards whatever did not come through it.
 */
public final class Ipv4Spelling {

    /** 0 to 255 without leading zeros, which some readers take as octal. */
    private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
    private static final Pattern DOTTED_QUAD = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");

    private static final int MAX_PARTS = 4;
    /** Longer numbers overflow any part; the limit keeps the arithmetic in a long. */
    private static final int MAX_DIGITS = 12;

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
                if (h.charAt(i) >= 128 || Character.digit(h.charAt(i), 16) < 0) {
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

    /**
     * The dotted-quad form of a host that {@link #endsInNumber ends in a number}, as the WHATWG URL Standard's IPv4 parser
     * reads it (each part decimal, octal with a leading {@code 0}, or hex with {@code 0x}; the last fills the remaining
     * bytes), e.g. {@code 127.0.0.1} for
     * {@code 0x7f.1}; null if it is not an IPv4 address (a part that is no number, more than four parts, a part too
     * large).
     */
    public static String canonical(String host) {
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host; // as endsInNumber reads it
        String[] parts = h.split("\\.", -1);
        if (parts.length > MAX_PARTS) {
            return null;
        }
        long address = 0;
        for (int i = 0; i < parts.length; i++) {
            long value = number(parts[i]);
            boolean last = i == parts.length - 1;
            long limit = last ? 1L << (8 * (MAX_PARTS - i)) : 256;
            if (value < 0 || value >= limit) {
                return null;
            }
            address = last ? address + value : address + (value << (8 * (MAX_PARTS - 1 - i)));
        }
        return (address >>> 24) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "."
                + (address & 0xFF);
    }

    /** One part's value, or -1 if it is not a number in its radix (or too long to be a part of an address). */
    private static long number(String part) {
        if (part.isEmpty()) {
            return -1;
        }
        int radix = 10;
        String digits = part;
        if (part.startsWith("0x") || part.startsWith("0X")) {
            radix = 16;
            digits = part.substring(2);
        } else if (part.length() > 1 && part.charAt(0) == '0') {
            radix = 8;
            digits = part.substring(1);
        }
        if (digits.isEmpty()) {
            return 0;
        }
        int start = 0;
        while (start < digits.length() - 1 && digits.charAt(start) == '0') {
            start++; // leading zeros change nothing, however many
        }
        if (digits.length() - start > MAX_DIGITS) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            int digit = Character.digit(digits.charAt(i), radix);
            if (digit < 0 || digits.charAt(i) > 'z') {
                return -1;
            }
            value = value * radix + digit;
        }
        return value;
    }
}
