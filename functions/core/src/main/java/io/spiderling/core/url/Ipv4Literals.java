package io.spiderling.core.url;

/**
 * IPv4 hosts in the spellings URL parsers accept, read as the WHATWG URL Standard's IPv4 parser reads them: one to
 * four dot-separated numbers, each decimal, octal (a leading {@code 0}) or hex ({@code 0x}), the last filling the
 * remaining bytes. Browsers, curl and most resolvers read {@code http://2130706433/}, {@code http://0x7f.1/} and
 * {@code http://0177.0.0.1/} as {@code 127.0.0.1}; keeping those spellings would make one address several URLs and
 * several sites, each with its own rate limit.
 */
final class Ipv4Literals {

    private static final int MAX_PARTS = 4;
    /** Longer numbers overflow any part; the limit keeps the arithmetic in a long. */
    private static final int MAX_DIGITS = 12;

    private Ipv4Literals() {}

    /**
     * True when the host's last label is a number ({@code 127.0.0.2}, {@code 127.1}, {@code 0x7f.0.0.1},
     * {@code foo.0x}): such a host is an IPv4 address or invalid, never a name, since no top-level domain is numeric.
     */
    static boolean endsInNumber(String host) {
        String last = host.substring(host.lastIndexOf('.') + 1);
        if (last.startsWith("0x") || last.startsWith("0X")) {
            return last.chars().skip(2).allMatch(c -> c < 128 && Character.digit(c, 16) >= 0);
        }
        return !last.isEmpty() && last.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /**
     * The dotted-quad form of a host that {@link #endsInNumber ends in a number}, e.g. {@code 127.0.0.1} for
     * {@code 0x7f.1}; null if it is not an IPv4 address (a part that is no number, more than four parts, a part too
     * large).
     */
    static String canonical(String host) {
        String[] parts = host.split("\\.", -1);
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
