package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.ibm.icu.text.IDNA;
import io.spiderling.core.testing.PropertySeeds;
import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizationResult.Rejected;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;

/**
 * Properties of the normalizer on hostile input: mostly URL-like strings assembled from parts known to confuse URL
 * parsers, some arbitrary strings. Each generated URL carries the host it names, in the canonical form a browser would
 * give it (UTS 46, lower case, dotted-quad IPv4, compressed IPv6), so that the site of an accepted URL can be checked
 * against the input rather than against the normalizer's own output. Failures found here are kept as rows of
 * {@code url/normalization-cases.csv}.
 */
class UrlNormalizerPropertyTest {

    private static final IDNA UTS46 = IDNA.getUTS46Instance(
            IDNA.NONTRANSITIONAL_TO_ASCII | IDNA.CHECK_BIDI | IDNA.CHECK_CONTEXTJ);

    private final UrlNormalizer normalizer = UrlNormalizer.create();

    /** A generated input and the canonical host it names, or empty when the parts do not name one host. */
    record HostileUrl(String text, Optional<String> host) {
        @Override
        public String toString() {
            return text.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r") + "  (host " + host + ")";
        }
    }

    @Property(tries = 2000, seed = PropertySeeds.FIXED)
    void normalize_whenAnyInput_decidesWithoutThrowing(@ForAll("anyInput") String input) {
        NormalizationResult result = normalizer.normalize(input);

        assertNotNull(result);
        if (result instanceof Rejected rejected) {
            assertEquals(input, rejected.input());
            assertFalse(rejected.reason().isBlank());
        }
    }

    @Property(tries = 2000, seed = PropertySeeds.FIXED)
    void normalize_whenAccepted_isIdempotentAndRehydrates(@ForAll("anyInput") String input) {
        if (normalizer.normalize(input) instanceof Accepted accepted) {
            NormalizedUrl url = accepted.url();

            NormalizedUrl again = assertInstanceOf(Accepted.class, normalizer.normalize(url.value()), input).url();

            assertEquals(url, again, input);
            assertEquals(url, NormalizedUrl.parse(url.value()), input);
            assertEquals(accepted.request(), RequestUrl.parse(accepted.request().value()), input);
            assertNotNull(url.siteKey(), input);
            assertFalse(url.value().length() > UrlNormalizer.MAX_LENGTH, input);
        }
    }

    @Property(tries = 3000, seed = PropertySeeds.FIXED)
    void normalize_whenAccepted_keepsTheHostTheInputNames(@ForAll("hostileUrls") HostileUrl input) {
        if (normalizer.normalize(input.text()) instanceof Accepted accepted && input.host().isPresent()) {
            NormalizedUrl url = accepted.url();
            String host = input.host().get();

            assertEquals(host, url.host(), input.toString());
            assertEquals(siteOf(host), url.siteKey(), input.toString());
        }
    }

    @Property(tries = 1000, seed = PropertySeeds.FIXED)
    void normalize_whenInputHasUserinfo_rejects(@ForAll("urlsWithUserinfo") String input) {
        assertInstanceOf(Rejected.class, normalizer.normalize(input), input);
    }

    @Property(tries = 1000, seed = PropertySeeds.FIXED)
    void parse_whenAnyInput_acceptsOrThrowsIllegalArgument(@ForAll("anyInput") String input) {
        try {
            NormalizedUrl url = NormalizedUrl.parse(input);
            assertEquals(input, url.value());
        } catch (IllegalArgumentException documentedRejection) {
            // the one way parse refuses a value
        }
    }

    @Property(tries = 1000, seed = PropertySeeds.FIXED)
    void resolve_whenAnyLocation_givesNormalizedUrlOrEmpty(@ForAll("anyInput") String location) {
        Optional<Accepted> target = normalizer.resolve("http://example.com/a/b?q=1", location);

        target.ifPresent(accepted -> {
            assertEquals(accepted.url(), NormalizedUrl.parse(accepted.url().value()));
            assertEquals(accepted.request(), RequestUrl.parse(accepted.request().value()));
        });
    }

    /** The site of a canonical host, through a URL built by hand so the normalizer is not involved. */
    private static SiteKey siteOf(String host) {
        return new NormalizedUrl("http://" + host + "/", "http", host, 80).siteKey();
    }

    @Provide
    Arbitrary<String> anyInput() {
        return mix(
                w(6, hostileUrls().map(HostileUrl::text)),
                w(2, Arbitraries.strings().ofMaxLength(60)),
                w(1, Arbitraries.strings().withChars("htps:/?#[]@%.:\\ \t\n0123456789abcdefxAB").ofMaxLength(40)),
                w(1, urlsWithUserinfo()));
    }

    @Provide
    Arbitrary<HostileUrl> hostileUrls() {
        Arbitrary<String> scheme = Arbitraries.of("http", "https", "HTTP", "hTtPs", "ftp", "javascript", "http ", "");
        Arbitrary<String> separator = mix(
                w(12, Arbitraries.just("://")),
                w(1, Arbitraries.of(":", ":/", ":///", ":\\\\", ":/\\", "://\t", ":// ")));
        Arbitrary<String> port = mix(
                w(6, Arbitraries.just("")),
                w(3, Arbitraries.of(":", ":80", ":443", ":8080", ":0080", ":65535")),
                w(2, Arbitraries.of(":0", ":65536", ":99999999999999999999", ":-1", ":+80", ":8o", ": 80")),
                w(1, Arbitraries.integers().between(0, 200_000).map(p -> ":" + p)));
        Arbitrary<String> path = mix(
                w(8, pathSegment().list().ofMaxSize(8).map(s -> "/" + String.join("/", s))),
                w(1, Arbitraries.just("")),
                w(1, Arbitraries.integers().between(100, 2100).map(n -> "/" + "a/".repeat(n / 2))));
        Arbitrary<String> query = mix(
                w(4, Arbitraries.just("")),
                w(1, Arbitraries.of("?", "?&", "?=", "?&&=&")),
                w(5, queryParameter().list().ofMinSize(1).ofMaxSize(6).map(p -> "?" + String.join("&", p))));
        Arbitrary<String> fragment = Arbitraries.of("", "", "", "#", "#top", "#?a=1", "#/../x", "#%zz", "#a#b");
        Arbitrary<String> whitespace = Arbitraries.of("", "", "", "", " ", "\t", "\n", " \r\n");
        Arbitrary<Host> host = host();
        return Combinators.combine(whitespace, scheme, separator, host, port, path, query, fragment)
                .as((space, s, sep, h, p, pa, q, f) -> new HostileUrl(space + s + sep + h.text() + p + pa + q + f
                        + space, h.canonical()));
    }

    @Provide
    Arbitrary<String> urlsWithUserinfo() {
        // not "@" or ":@", which the standard reads as an empty userinfo and drops, nor "evil.com\@", where the
        // backslash ends the host (normalization-cases.csv has both)
        Arbitrary<String> userinfo = Arbitraries.of("user@", "user:pw@", ":pw@", "a%40b@", "u@x@", "evil.com@",
                "us%65r:p@", "user:@", "@@");
        return Combinators.combine(Arbitraries.of("http://", "https://", "HTTP://"), userinfo, host(),
                Arbitraries.of("", ":8080", ":"), Arbitraries.of("/", "/a?b=1", "", "#x"))
                .as((s, u, h, p, rest) -> s + u + h.text() + p + rest);
    }

    /** How a host is written in the input, and what it is. */
    record Host(String text, Optional<String> canonical) {}

    private Arbitrary<Host> host() {
        return mix(
                w(4, hostName()),
                w(1, hostName().filter(h -> h.canonical().isPresent()).flatMap(UrlNormalizerPropertyTest::respelled)),
                w(3, ipv4()),
                w(2, ipv6()),
                w(1, Arbitraries.of("", ".", "..", "a..b", "%zz", "%65xample.com", "exa mple.com", "ex\tample.com",
                        "[", "]", "[::1", "::1", "[fe80::1%25eth0]", "[v1.x]", "a_b.c", "-a.com", "a-.com",
                        "x".repeat(64) + ".com", "a." .repeat(130) + "com", "example.com:80:80", "example.com#",
                        "ex%2Eample.com", "ex%00ample.com", "例え。テスト", "ｅｘａｍｐｌｅ.com", "xn--.com", "xn--zz.com")
                        .map(text -> new Host(text, Optional.empty()))));
    }

    private Arbitrary<Host> hostName() {
        Arbitrary<String> label = mix(
                w(6, Arbitraries.strings().withChars("abcxyzABCXYZ0189-_").ofMinLength(1).ofMaxLength(12)),
                w(2, Arbitraries.of("bücher", "BÜCHER", "例え", "пример", "ПРИМЕР", "faß", "ελληνικά",
                        "xn--bcher-kva", "straße", "ǅ")),
                w(1, Arbitraries.of("www", "WWW", "co", "uk", "github", "io", "com", "org")));
        Arbitrary<String> tld = Arbitraries.of("com", "COM", "org", "co.uk", "github.io", "test", "example", "de",
                "рф", "テスト", "localhost", "a1");
        return Combinators.combine(label.list().ofMinSize(0).ofMaxSize(3), tld, Arbitraries.of("", "", "", "."))
                .as((labels, t, dot) -> {
                    String name = labels.isEmpty() ? t : String.join(".", labels) + "." + t;
                    return new Host(name + dot, canonicalName(name));
                });
    }

    /**
     * The same name spelled the ways browsers also read as it: letters percent-encoded, full-width letters (IDNA maps
     * them to ASCII), ideographic full stops between labels, upper case.
     */
    private static Arbitrary<Host> respelled(Host host) {
        String name = host.text();
        return Arbitraries.integers().between(0, 3).map(style -> new Host(switch (style) {
            case 0 -> name.chars().mapToObj(c -> c >= 'a' && c <= 'z' && c % 2 == 0 ? String.format("%%%02X", c)
                    : String.valueOf((char) c)).reduce("", String::concat);
            case 1 -> name.chars().mapToObj(c -> c >= 'a' && c <= 'z' ? String.valueOf((char) (c - 'a' + 'ａ'))
                    : String.valueOf((char) c)).reduce("", String::concat);
            case 2 -> name.replace('.', '。');
            // one character at a time: String.toUpperCase makes "faß" "FASS", another name under UTS 46
            default -> name.chars().mapToObj(c -> String.valueOf(Character.toUpperCase((char) c)))
                    .reduce("", String::concat);
        }, host.canonical()));
    }

    /**
     * The name as a browser would key it: UTS 46 ToASCII, nontransitional (so {@code faß} stays {@code xn--fa-hia}),
     * asked of ICU directly; empty when it is not a plain valid host name, or UTS 46 reports any error at all.
     */
    private static Optional<String> canonicalName(String name) {
        StringBuilder ascii = new StringBuilder();
        IDNA.Info info = new IDNA.Info();
        UTS46.nameToASCII(name, ascii, info);
        boolean valid = !info.hasErrors() && ascii.length() <= 253
                && ascii.toString().matches("(?:[a-z0-9_-]{1,63}\\.)*[a-z0-9_-]{1,63}");
        return valid ? Optional.of(ascii.toString()) : Optional.empty();
    }

    /** An IPv4 address in one of the spellings URL parsers accept: dotted, shorthand, decimal, octal, hex. */
    private Arbitrary<Host> ipv4() {
        Arbitrary<Long> address = mix(
                w(3, Arbitraries.longs().between(0, 0xFFFF_FFFFL)),
                w(1, Arbitraries.of(0x7F00_0001L, 0x7F00_0002L, 0L, 0xFFFF_FFFFL, 0xA9FE_A9FEL)));
        Arbitrary<Integer> style = Arbitraries.integers().between(0, 6);
        return Combinators.combine(address, style).as((a, s) -> {
            int[] octets = {(int) (a >>> 24), (int) (a >>> 16) & 0xFF, (int) (a >>> 8) & 0xFF, (int) (a & 0xFF)};
            String dotted = octets[0] + "." + octets[1] + "." + octets[2] + "." + octets[3];
            String text = switch (s) {
                case 0 -> dotted;
                case 1 -> Long.toString(a); // one decimal number
                case 2 -> "0x" + Long.toHexString(a); // one hex number
                case 3 -> "0" + Long.toOctalString(a); // one octal number
                case 4 -> octets[0] + "." + ((a >>> 16) & 0xFF) + "." + (a & 0xFFFF); // a.b.c16
                case 5 -> "0x" + Integer.toHexString(octets[0]) + "." + "0" + Integer.toOctalString(octets[1]) + "."
                        + octets[2] + "." + "0X" + Integer.toHexString(octets[3]).toUpperCase(Locale.ROOT);
                default -> octets[0] + "." + (a & 0xFF_FFFF); // a.b24
            };
            return new Host(text, Optional.of(dotted));
        });
    }

    /** An IPv6 literal, written in full, compressed, upper case or with an embedded IPv4 address. */
    private Arbitrary<Host> ipv6() {
        Arbitrary<int[]> groups = Arbitraries.integers().between(0, 4).flatMap(zeros ->
                Arbitraries.integers().between(0, 0xFFFF).list().ofSize(8).map(list -> {
                    int[] g = list.stream().mapToInt(Integer::intValue).toArray();
                    for (int i = 0; i < zeros * 2 && i < 8; i++) {
                        g[(i + zeros) % 8] = 0; // runs of zeros, so that compression matters
                    }
                    return g;
                }));
        return Combinators.combine(groups, Arbitraries.of(false, true)).as((g, upper) -> {
            StringBuilder full = new StringBuilder("[");
            for (int i = 0; i < 8; i++) {
                full.append(i == 0 ? "" : ":").append(String.format("%04x", g[i]));
            }
            String text = full.append(']').toString();
            return new Host(upper ? text.toUpperCase(Locale.ROOT) : text, Optional.of(UrlNormalizer.keyHost(
                    "[" + Ipv6Address.serialize(g) + "]")));
        });
    }

    private static Arbitrary<String> pathSegment() {
        return mix(
                w(4, Arbitraries.strings().alpha().numeric().ofMaxLength(8)),
                w(4, Arbitraries.of("..", ".", "%2e%2e", "%2E", ".%2e", "%", "%4", "%zz", "%41", "%7e", "%7E",
                        "%2F", "%2f", "%00", "%25", "%C3%A9", "%c3", "café", "€", "😀", "\\", "..\\..", "a b", "\t",
                        "\n", "a\tb", "~", "@", ":", ";a=b", "[", "]", "|", "{", "^", "`", "\"", "<>", "'", "+", "",
                        "%ZZ%", "%%", "%u0041", "%E2%82", "\u00a0", "\u2028", "\u0000", "\u007f")),
                w(1, Arbitraries.strings().ofMaxLength(6)));
    }

    private static Arbitrary<String> queryParameter() {
        Arbitrary<String> name = Arbitraries.of("a", "b", "B", "utm_source", "UTM_Medium", "fbclid", "gclid", "q", "",
                "%61", "a%3db", "utm%5Fsource", "x+y", "é", "%zz", "&", "=", "a=b=c");
        Arbitrary<String> value = Arbitraries.of("", "=", "=1", "=a+b", "=%20", "=%zz", "=%", "=é", "=a?b", "=a/b",
                "=..", "=#", "=%26", "=a=b", "=\t");
        return Combinators.combine(name, value).as(String::concat);
    }

    /** One of the arbitraries, picked with the given weights. */
    @SafeVarargs
    static <T> Arbitrary<T> mix(Tuple2<Integer, Arbitrary<T>>... weighted) {
        return Arbitraries.frequencyOf(List.of(weighted));
    }

    static <T> Tuple2<Integer, Arbitrary<T>> w(int weight, Arbitrary<T> arbitrary) {
        return Tuple.of(weight, arbitrary);
    }
}
