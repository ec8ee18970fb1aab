package io.spiderling.core.url;

/**
 * The RFC 5952 text form of IPv6 literals, which crawler-commons leaves as written apart from case: without it
 * {@code [2001:0db8:0:0::1]} and {@code [2001:db8::1]} would be two URLs and two sites.
 */
final class Ipv6Literals {

    private static final int GROUPS = 8;

    private Ipv6Literals() {}

    /**
     * The canonical form of a bracketed literal such as {@code [2001:DB8:0:0::1]}: lower-case hex without leading
     * zeros, the longest run of two or more zero groups (the first, on a tie) written {@code ::}, and IPv4-mapped
     * addresses as {@code [::ffff:192.0.2.1]}.
     *
     * @return the canonical literal, or null if {@code bracketed} is not an IPv6 address literal (a zone identifier,
     *     an IPvFuture literal or a syntax error)
     */
    static String canonical(String bracketed) {
        if (bracketed.length() < 4 || bracketed.charAt(0) != '[' || bracketed.charAt(bracketed.length() - 1) != ']') {
            return null;
        }
        int[] groups = parse(bracketed.substring(1, bracketed.length() - 1));
        return groups == null ? null : format(groups);
    }

    private static int[] parse(String text) {
        int doubleColon = text.indexOf("::");
        if (doubleColon >= 0 && (text.indexOf("::", doubleColon + 1) >= 0 || text.lastIndexOf('.', doubleColon) >= 0)) {
            return null; // a second "::", or a dotted IPv4 part before it: only the last part may be dotted
        }
        int[] head = doubleColon < 0 ? groups(text) : groups(text.substring(0, doubleColon));
        int[] tail = doubleColon < 0 ? new int[0] : groups(text.substring(doubleColon + 2));
        if (head == null || tail == null) {
            return null;
        }
        int present = head.length + tail.length;
        if (doubleColon < 0 ? present != GROUPS : present > GROUPS - 1) {
            return null;
        }
        int[] address = new int[GROUPS];
        System.arraycopy(head, 0, address, 0, head.length);
        System.arraycopy(tail, 0, address, GROUPS - tail.length, tail.length);
        return address;
    }

    /** The 16-bit groups of a colon-separated list, the last of which may be a dotted IPv4 address (two groups). */
    private static int[] groups(String text) {
        if (text.isEmpty()) {
            return new int[0];
        }
        String[] parts = text.split(":", -1);
        boolean ipv4Tail = parts[parts.length - 1].indexOf('.') >= 0;
        int[] groups = new int[parts.length + (ipv4Tail ? 1 : 0)];
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            if (ipv4Tail && i == parts.length - 1) {
                long ipv4 = ipv4(part);
                if (ipv4 < 0) {
                    return null;
                }
                groups[i] = (int) (ipv4 >>> 16);
                groups[i + 1] = (int) (ipv4 & 0xffff);
                continue;
            }
            if (part.isEmpty() || part.length() > 4) {
                return null;
            }
            int value = 0;
            for (int j = 0; j < part.length(); j++) {
                int digit = Character.digit(part.charAt(j), 16);
                if (digit < 0) {
                    return null;
                }
                value = value * 16 + digit;
            }
            groups[i] = value;
        }
        return groups;
    }

    /** A dotted-quad IPv4 address as 32 bits, or -1 if it is not one (four decimal octets, no leading zeros). */
    private static long ipv4(String text) {
        String[] octets = text.split("\\.", -1);
        if (octets.length != 4) {
            return -1;
        }
        long value = 0;
        for (String octet : octets) {
            if (octet.isEmpty() || octet.length() > 3 || (octet.length() > 1 && octet.charAt(0) == '0')) {
                return -1;
            }
            int number = 0;
            for (int i = 0; i < octet.length(); i++) {
                char c = octet.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                number = number * 10 + (c - '0');
            }
            if (number > 255) {
                return -1;
            }
            value = (value << 8) | number;
        }
        return value;
    }

    private static String format(int[] groups) {
        if (isIpv4Mapped(groups)) {
            return "[::ffff:" + (groups[6] >>> 8) + "." + (groups[6] & 0xff) + "." + (groups[7] >>> 8) + "."
                    + (groups[7] & 0xff) + "]";
        }
        int bestStart = -1;
        int bestLength = 1; // RFC 5952 4.2.2: a single zero group is not shortened
        for (int i = 0; i < GROUPS; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < GROUPS && groups[i] == 0) {
                i++;
            }
            if (i - start > bestLength) {
                bestStart = start;
                bestLength = i - start;
            }
        }
        StringBuilder text = new StringBuilder(41).append('[');
        for (int i = 0; i < GROUPS; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 1 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.append(']').toString();
    }

    private static boolean isIpv4Mapped(int[] groups) {
        for (int i = 0; i < 5; i++) {
            if (groups[i] != 0) {
                return false;
            }
        }
        return groups[5] == 0xffff;
    }
}
