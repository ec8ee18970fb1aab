package io.spiderling.core.net;

import java.net.InetAddress;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which resolved addresses the fetcher may connect to: public unicast ones only, so that a URL a client submits, or a
 * redirect a site sends, cannot reach the cloud metadata service, the VPC or the Lambda's own loopback (SSRF).
 *
 * <p>The policy judges addresses, not host names: it does no DNS lookups and never sees a name, because names are
 * what an attacker controls. The adapter resolves the host, asks {@link #checkAll(List)}, then connects to exactly the
 * address that was allowed, never resolving again, so a DNS answer that changes between the check and the connect
 * (DNS rebinding) changes nothing. It does the same for every redirect hop.
 *
 * <p>Refused, with the reason word that {@link Verdict.Refused#reason()} carries:
 * <ul>
 *   <li>{@code loopback}: 127.0.0.0/8, ::1;
 *   <li>{@code private}: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16;
 *   <li>{@code link-local}: 169.254.0.0/16 (169.254.169.254 is the metadata service), fe80::/10;
 *   <li>{@code cgnat}: 100.64.0.0/10;
 *   <li>{@code multicast}: 224.0.0.0/4, ff00::/8;
 *   <li>{@code unique-local}: fc00::/7; {@code site-local}: fec0::/10;
 *   <li>{@code unspecified}: 0.0.0.0/8, ::;
 *   <li>{@code broadcast}: 255.255.255.255;
 *   <li>{@code documentation}: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32, 3fff::/20;
 *   <li>{@code benchmarking}: 198.18.0.0/15, 2001:2::/48;
 *   <li>{@code reserved}: 240.0.0.0/4, 192.0.0.0/24, 192.88.99.0/24, 2001::/23 outside Teredo, 64:ff9b:1::/48, and
 *       every IPv6 address outside 2000::/3 that no rule above or below covers.
 * </ul>
 *
 * <p>IPv6 addresses that embed an IPv4 address are judged by it as well, and refused as {@code <embedding>:<class>},
 * for example {@code ipv4-mapped:loopback} or {@code nat64:link-local}:
 * <ul>
 *   <li>{@code ipv4-mapped}, ::ffff:a.b.c.d: a dual-stack socket connects to a.b.c.d, so it is allowed exactly when
 *       a.b.c.d is. Java usually hands these over as the plain {@link java.net.Inet4Address} already;
 *   <li>{@code ipv4-compatible}, ::a.b.c.d: deprecated, so always refused, as {@code ipv4-compatible} when a.b.c.d is
 *       public;
 *   <li>{@code nat64}, 64:ff9b::a.b.c.d (RFC 6052 well-known prefix only; a network-specific NAT64 prefix cannot be
 *       recognised from the address alone);
 *   <li>{@code 6to4}, 2002:aabb:ccdd::/48;
 *   <li>{@code teredo}, 2001:0:ssss:ssss::cccc:cccc, judged by both the server and the (de-obfuscated) client address.
 * </ul>
 * ISATAP and other interface-identifier embeddings are not looked at: the packet goes to the IPv6 prefix, which is
 * judged as usual.
 *
 * <p>{@link #allowingLoopback()} exists for local runs and tests against sites on 127.0.0.1 or ::1. It allows those
 * two classes and nothing else: never link-local, never private, and never a loopback address embedded in an IPv6
 * one. Instances are immutable and thread-safe.
 */
public final class AddressPolicy {

    /** Reason of {@link #checkUrlScheme(String)} when the input is null. */
    static final String MISSING_URL = "missing URL";
    static final String MISSING_SCHEME = "missing scheme";
    static final String UNSUPPORTED_SCHEME = "unsupported scheme: ";

    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):");

    private static final AddressPolicy STRICT = new AddressPolicy(Settings.STRICT);
    private static final AddressPolicy ALLOWING_LOOPBACK = new AddressPolicy(new Settings(true));

    private final Settings settings;

    private AddressPolicy(Settings settings) {
        this.settings = settings;
    }

    /** Public unicast addresses only; the setting for every deployment. */
    public static AddressPolicy strict() {
        return STRICT;
    }

    /** {@link #strict()}, plus 127.0.0.0/8 and ::1, for local runs and tests. */
    public static AddressPolicy allowingLoopback() {
        return ALLOWING_LOOPBACK;
    }

    /** The policy for configured settings, so a function module can map its configuration onto it. */
    public static AddressPolicy create(Settings settings) {
        return Objects.requireNonNull(settings, "settings").allowLoopback() ? ALLOWING_LOOPBACK : STRICT;
    }

    public Settings settings() {
        return settings;
    }

    /** The verdict on one resolved address. */
    public Verdict check(InetAddress address) {
        Objects.requireNonNull(address, "address");
        String reason = SpecialAddresses.refusal(address);
        if (reason == null || (settings.allowLoopback() && reason.equals(SpecialAddresses.LOOPBACK))) {
            return new Verdict.Allowed(address);
        }
        return new Verdict.Refused(address, reason);
    }

    /**
     * The verdict on a host that resolved to {@code addresses}: refused as soon as one of them is refused, with that
     * address and its reason; otherwise allowed with the first address, which is the one to connect to.
     *
     * <p>One bad address refuses the host, rather than the host being fetched from its good addresses, because then
     * every address in the answer is safe to connect to: an HTTP client or resolver that falls back to the next
     * address after a failed connect, or that prefers IPv6 over IPv4, cannot reach an unchecked one. A public host
     * that also publishes private addresses is rare, misconfigured, or probing, and losing it costs little. The
     * verdict does not depend on the order of the answer.
     *
     * @param addresses the resolver's answer, in its order
     * @throws IllegalArgumentException if {@code addresses} is empty: a resolver that finds nothing fails instead
     */
    public Verdict checkAll(List<InetAddress> addresses) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no addresses to check");
        }
        Verdict first = null;
        for (InetAddress address : addresses) {
            Verdict verdict = check(address);
            if (verdict instanceof Verdict.Refused) {
                return verdict;
            }
            if (first == null) {
                first = verdict;
            }
        }
        return first;
    }

    /**
     * Why {@code url} must not be fetched because of its scheme, or empty if it is http or https (in any case). Run it
     * on the submitted URL and on every redirect target, after resolving the target against the URL that sent it:
     * a relative reference has no scheme and is refused here.
     *
     * @return {@code missing URL}, {@code missing scheme} or {@code unsupported scheme: <scheme in lower case>}, the
     *     wording {@link io.spiderling.core.url.UrlNormalizer} uses for the same rejections
     */
    public static Optional<String> checkUrlScheme(String url) {
        if (url == null) {
            return Optional.of(MISSING_URL);
        }
        Matcher matcher = SCHEME.matcher(url);
        if (!matcher.find()) {
            return Optional.of(MISSING_SCHEME);
        }
        String scheme = matcher.group(1).toLowerCase(Locale.ROOT);
        if (scheme.equals("http") || scheme.equals("https")) {
            return Optional.empty();
        }
        return Optional.of(UNSUPPORTED_SCHEME + scheme);
    }

    @Override
    public String toString() {
        return "AddressPolicy" + settings;
    }

    /**
     * What a deployment may relax.
     *
     * @param allowLoopback allow 127.0.0.0/8 and ::1, for local runs and tests; false in every deployed stack
     */
    public record Settings(boolean allowLoopback) {

        public static final Settings STRICT = new Settings(false);
    }

    /** What {@link #check(InetAddress)} or {@link #checkAll(List)} decided. */
    public sealed interface Verdict {

        /** The address that was judged; for {@link #checkAll(List)}, the one to connect to or the one refused. */
        InetAddress address();

        default boolean allowed() {
            return this instanceof Allowed;
        }

        /** Connect to {@code address}, and to no other address of the host without checking it first. */
        record Allowed(InetAddress address) implements Verdict {

            public Allowed {
                Objects.requireNonNull(address, "address");
            }
        }

        /**
         * @param reason a stable word naming the address class, such as {@code link-local}, or for an IPv6 address
         *     judged by the IPv4 address inside it, the embedding and that class, such as {@code nat64:private}
         */
        record Refused(InetAddress address, String reason) implements Verdict {

            public Refused {
                Objects.requireNonNull(address, "address");
                Objects.requireNonNull(reason, "reason");
            }
        }
    }
}
