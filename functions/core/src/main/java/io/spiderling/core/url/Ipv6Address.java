package io.spiderling.core.url;

/**
 * The WHATWG URL Standard's IPv6 parser and serializer. Browsers read {@code [2001:DB8:0:0::1]} and
 * {@code [2001:db8::1]} as one address and write it one way, lower-case hex without leading zeros and the first
 * longest run of two or more zero pieces as {@code ::} (the RFC 5952 form, except that an embedded IPv4 address is
 * written in hex: {@code [::ffff:c000:201]}). Zone identifiers ({@code %eth0}) and IPvFuture literals are no
 * addresses to them, which suits a remote fetcher: a zone means nothing off the machine that named it.
 */
final class Ipv6Address {

    static final int PIECES = 8;

    private Ipv6Address() {}

    /** The eight 16-bit pieces of the address between the brackets, or null if it is not one. */
    static int[] parse(String input) {
        return new Reader(input).read();
    }

    /** The address as a URL writes it between the brackets. */
    static String serialize(int[] pieces) {
        int compress = longestZeroRun(pieces);
        StringBuilder out = new StringBuilder(39);
        boolean ignoreZeros = false;
        for (int i = 0; i < PIECES; i++) {
            if (ignoreZeros && pieces[i] == 0) {
                continue;
            }
            ignoreZeros = false;
            if (i == compress) {
                out.append(i == 0 ? "::" : ":");
                ignoreZeros = true;
                continue;
            }
            out.append(Integer.toHexString(pieces[i]));
            if (i != PIECES - 1) {
                out.append(':');
            }
        }
        return out.toString();
    }

    /** True for {@code ::ffff:a.b.c.d}, an IPv4 address as an IPv6 socket sees it. */
    static boolean isIpv4Mapped(int[] pieces) {
        for (int i = 0; i < 5; i++) {
            if (pieces[i] != 0) {
                return false;
            }
        }
        return pieces[5] == 0xFFFF;
    }

    /** The index of the first of the longest run of at least two zero pieces, or -1. */
    private static int longestZeroRun(int[] pieces) {
        int best = -1;
        int bestLength = 1;
        for (int i = 0; i < PIECES; ) {
            int start = i;
            while (i < PIECES && pieces[i] == 0) {
                i++;
            }
            if (i - start > bestLength) {
                best = start;
                bestLength = i - start;
            }
            i = Math.max(i, start + 1);
        }
        return best;
    }

    /** One run of the standard's IPv6 parser, with its pointer. */
    private static final class Reader {

        private static final int EOF = -1;

        private final String input;
        private final int[] address = new int[PIECES];
        private int pointer;
        private int pieceIndex;
        private int compress = -1;

        Reader(String input) {
            this.input = input;
        }

        private int c() {
            return pointer < input.length() ? input.charAt(pointer) : EOF;
        }

        int[] read() {
            if (c() == ':') {
                if (!input.startsWith("::")) {
                    return null; // IPv6-invalid-compression
                }
                pointer += 2;
                pieceIndex++;
                compress = pieceIndex;
            }
            while (c() != EOF) {
                if (!readPiece()) {
                    return null;
                }
            }
            return compressed();
        }

        /** Reads a piece, a {@code ::}, or the trailing IPv4 address; false on failure. */
        private boolean readPiece() {
            if (pieceIndex == PIECES) {
                return false; // IPv6-too-many-pieces
            }
            if (c() == ':') {
                if (compress != -1) {
                    return false; // IPv6-multiple-compression
                }
                pointer++;
                pieceIndex++;
                compress = pieceIndex;
                return true;
            }
            int value = 0;
            int length = 0;
            while (length < 4 && hexDigit(c()) >= 0) {
                value = value * 0x10 + hexDigit(c());
                pointer++;
                length++;
            }
            if (c() == '.') {
                if (length == 0) {
                    return false; // IPv4-in-IPv6-invalid-code-point
                }
                pointer -= length;
                return readIpv4();
            }
            if (c() == ':') {
                pointer++;
                if (c() == EOF) {
                    return false; // IPv6-invalid-code-point
                }
            } else if (c() != EOF) {
                return false; // IPv6-invalid-code-point
            }
            address[pieceIndex] = value;
            pieceIndex++;
            return true;
        }

        /** The last 32 bits written as four decimal numbers, which must end the input. */
        private boolean readIpv4() {
            if (pieceIndex > 6) {
                return false; // IPv4-in-IPv6-too-many-pieces
            }
            int numbersSeen = 0;
            while (c() != EOF) {
                if (numbersSeen > 0) {
                    if (c() != '.' || numbersSeen >= 4) {
                        return false; // IPv4-in-IPv6-invalid-code-point
                    }
                    pointer++;
                }
                if (!isDigit(c())) {
                    return false; // IPv4-in-IPv6-invalid-code-point
                }
                int piece = -1;
                while (isDigit(c())) {
                    if (piece == 0) {
                        return false; // IPv4-in-IPv6-invalid-code-point: a leading zero
                    }
                    piece = (piece < 0 ? 0 : piece * 10) + (c() - '0');
                    if (piece > 255) {
                        return false; // IPv4-in-IPv6-out-of-range-part
                    }
                    pointer++;
                }
                address[pieceIndex] = address[pieceIndex] * 0x100 + piece;
                numbersSeen++;
                if (numbersSeen == 2 || numbersSeen == 4) {
                    pieceIndex++;
                }
            }
            return numbersSeen == 4; // else IPv4-in-IPv6-too-few-parts
        }

        /** Moves the pieces after {@code ::} to the end. */
        private int[] compressed() {
            if (compress == -1) {
                return pieceIndex == PIECES ? address : null; // IPv6-too-few-pieces
            }
            int swaps = pieceIndex - compress;
            for (int i = PIECES - 1; i != 0 && swaps > 0; i--, swaps--) {
                int other = compress + swaps - 1;
                int piece = address[i];
                address[i] = address[other];
                address[other] = piece;
            }
            return address;
        }

        private static boolean isDigit(int c) {
            return c >= '0' && c <= '9';
        }

        private static int hexDigit(int c) {
            if (isDigit(c)) {
                return c - '0';
            }
            if (c >= 'a' && c <= 'f') {
                return c - 'a' + 10;
            }
            return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        }
    }
}
