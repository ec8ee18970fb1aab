package io.spiderling.core.net;

import java.net.InetAddress;
import java.util.List;

/**
 * The address classes a fetcher must not connect to, from the IANA special-purpose registries (RFC 6890 and its
 * updates), as pure arithmetic on the address bytes. {@link AddressPolicy} decides what to do with the class.
 *
 * <p>IPv6 addresses that carry an IPv4 address in a known place are classified by that IPv4 address too, because a
 * dual-stack host, a NAT64 gateway or a tunnel relay turns a connection to them into one to the IPv4 address.
 */
final class SpecialAddresses {

    static final String LOOPBACK = "loopback";
    static final String PRIVATE = "private";
    static final String LINK_LOCAL = "link-local";
    static final String CGNAT = "cgnat";
    static final String MULTICAST = "multicast";
    static final String UNIQUE_LOCAL = "unique-local";
    static final String SITE_LOCAL = "site-local";
    static final String UNSPECIFIED = "unspecified";
    static final String BROADCAST = "broadcast";
    static final String RESERVED = "reserved";
    static final String DOCUMENTATION = "documentation";
    static final String BENCHMARKING = "benchmarking";

    static final String IPV4_MAPPED = "ipv4-mapped";
    static final String IPV4_COMPATIBLE = "ipv4-compatible";
    static final String NAT64 = "nat64";
    static final String SIX_TO_FOUR = "6to4";
    static final String TEREDO = "teredo";

    /** First match wins, so the more specific ranges come first (the broadcast address is inside 240.0.0.0/4). */
    private static final List<V4Range> V4 = List.of(
            v4(0x00_00_00_00, 8, UNSPECIFIED), // "this network", RFC 791; Linux connects 0.0.0.0 to itself
            v4(0x0a_00_00_00, 8, PRIVATE), // RFC 1918
            v4(0x64_40_00_00, 10, CGNAT), // 100.64.0.0/10, RFC 6598: the carrier's side of a NAT
            v4(0x7f_00_00_00, 8, LOOPBACK),
            v4(0xa9_fe_00_00, 16, LINK_LOCAL), // 169.254.0.0/16: the cloud metadata services live here
            v4(0xac_10_00_00, 12, PRIVATE), // 172.16.0.0/12
            v4(0xc0_00_00_00, 24, RESERVED), // 192.0.0.0/24, IETF protocol assignments (DS-Lite, NAT64 discovery)
            v4(0xc0_00_02_00, 24, DOCUMENTATION), // 192.0.2.0/24, TEST-NET-1
            v4(0xc0_58_63_00, 24, RESERVED), // 192.88.99.0/24, 6to4 relay anycast, deprecated by RFC 7526
            v4(0xc0_a8_00_00, 16, PRIVATE), // 192.168.0.0/16
            v4(0xc6_12_00_00, 15, BENCHMARKING), // 198.18.0.0/15, RFC 2544
            v4(0xc6_33_64_00, 24, DOCUMENTATION), // 198.51.100.0/24, TEST-NET-2
            v4(0xcb_00_71_00, 24, DOCUMENTATION), // 203.0.113.0/24, TEST-NET-3
            v4(0xe0_00_00_00, 4, MULTICAST), // 224.0.0.0/4
            v4(0xff_ff_ff_ff, 32, BROADCAST),
            v4(0xf0_00_00_00, 4, RESERVED)); // 240.0.0.0/4, "future use"; some stacks route it

    /**
     * Ranges of at most 64 bits, matched on the high half of the address. The ranges that need the low half (the
     * unspecified and loopback addresses and the /96 embeddings) are decided in code before this table is read.
     */
    private static final List<V6Range> V6 = List.of(
            v6(0x0064_ff9b_0001_0000L, 48, RESERVED), // local-use NAT64 (RFC 8215): the embedding varies per network
            v6(0x2001_0002_0000_0000L, 48, BENCHMARKING), // RFC 5180
            v6(0x2001_0000_0000_0000L, 23, RESERVED), // IETF protocol assignments (ORCHID, AMT, …); no web servers
            v6(0x2001_0db8_0000_0000L, 32, DOCUMENTATION),
            v6(0x3fff_0000_0000_0000L, 20, DOCUMENTATION), // RFC 9637
            v6(0xfc00_0000_0000_0000L, 7, UNIQUE_LOCAL),
            v6(0xfe80_0000_0000_0000L, 10, LINK_LOCAL),
            v6(0xfec0_0000_0000_0000L, 10, SITE_LOCAL), // deprecated by RFC 3879, still private where used
            v6(0xff00_0000_0000_0000L, 8, MULTICAST));

    private static final long NAT64_WELL_KNOWN_HIGH = 0x0064_ff9b_0000_0000L;
    private static final long TEREDO_HIGH_32 = 0x2001_0000L;
    private static final long SIX_TO_FOUR_HIGH_16 = 0x2002L;
    private static final long GLOBAL_UNICAST_HIGH_3 = 0b001L; // 2000::/3

    private SpecialAddresses() {}

    /**
     * Why {@code address} must not be fetched from, or null for a public address.
     *
     * @return a class word such as {@code private}; for an IPv6 address refused because of the IPv4 address it
     *     embeds, the embedding and that address's class, such as {@code ipv4-mapped:loopback}
     */
    static String refusal(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length == 4) {
            return refusalV4(toInt(bytes, 0));
        }
        return refusalV6(toLong(bytes, 0), toLong(bytes, 8));
    }

    private static String refusalV4(int address) {
        for (V4Range range : V4) {
            if (range.contains(address)) {
                return range.word();
            }
        }
        return null;
    }

    private static String refusalV6(long high, long low) {
        if (high == 0) {
            if (low == 0) {
                return UNSPECIFIED;
            }
            if (low == 1) {
                return LOOPBACK;
            }
            if (low >>> 32 == 0xffffL) {
                return embedded(IPV4_MAPPED, (int) low);
            }
            if (low >>> 32 == 0) {
                // ::a.b.c.d, deprecated by RFC 4291 2.5.5.1: no honest DNS answer holds one, and what a stack does
                // with it varies (old ones tunnel it to the IPv4 address), so refuse it even around a public address
                String inner = embedded(IPV4_COMPATIBLE, (int) low);
                return inner != null ? inner : IPV4_COMPATIBLE;
            }
        }
        if (high == NAT64_WELL_KNOWN_HIGH && low >>> 32 == 0) {
            return embedded(NAT64, (int) low); // 64:ff9b::/96, RFC 6052: how an IPv6-only VPC reaches IPv4 sites
        }
        if (high >>> 32 == TEREDO_HIGH_32) {
            // 2001::/32, RFC 4380: the server's IPv4 address in bits 32-63, the client's inverted in bits 96-127; the
            // relay sends the traffic to the client, so both must be public
            String client = embedded(TEREDO, ~(int) low);
            return client != null ? client : embedded(TEREDO, (int) high);
        }
        if (high >>> 48 == SIX_TO_FOUR_HIGH_16) {
            return embedded(SIX_TO_FOUR, (int) (high >>> 16)); // 2002:a.b.c.d::/48, RFC 3056
        }
        for (V6Range range : V6) {
            if (range.contains(high)) {
                return range.word();
            }
        }
        return high >>> 61 == GLOBAL_UNICAST_HIGH_3 ? null : RESERVED; // IANA has allocated nothing else for unicast
    }

    private static String embedded(String embedding, int ipv4) {
        String inner = refusalV4(ipv4);
        return inner == null ? null : embedding + ":" + inner;
    }

    private static int toInt(byte[] bytes, int offset) {
        int value = 0;
        for (int i = offset; i < offset + 4; i++) {
            value = (value << 8) | (bytes[i] & 0xff);
        }
        return value;
    }

    private static long toLong(byte[] bytes, int offset) {
        return ((long) toInt(bytes, offset) << 32) | (toInt(bytes, offset + 4) & 0xffff_ffffL);
    }

    private static V4Range v4(int network, int prefixLength, String word) {
        return new V4Range(network, prefixLength == 0 ? 0 : -1 << (32 - prefixLength), word);
    }

    private static V6Range v6(long networkHigh, int prefixLength, String word) {
        return new V6Range(networkHigh, -1L << (64 - prefixLength), word);
    }

    private record V4Range(int network, int mask, String word) {
        boolean contains(int address) {
            return (address & mask) == network;
        }
    }

    private record V6Range(long networkHigh, long mask, String word) {
        boolean contains(long high) {
            return (high & mask) == networkHigh;
        }
    }
}
