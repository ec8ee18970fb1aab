package io.spiderling.core.notify;

import io.spiderling.core.net.AddressPolicy;
import io.spiderling.core.net.Ipv4Spelling;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Which callback URLs Spiderling will POST batch events to. A callback URL is chosen by the client, so without this
 * check it is a way to make Spiderling send requests into its own network: to the metadata service at
 * 169.254.169.254, to the VPC, or to anything a DNS name can be pointed at.
 *
 * <p>The check runs twice: when the batch is submitted, so a bad URL is a 400 the client sees at once, and again
 * before every delivery, because DNS answers change and the allow-list may have shrunk since. In order, a URL is
 * refused when it is:
 * <ol>
 *   <li>missing, blank, or longer than {@link #MAX_LENGTH} characters;
 *   <li>not an absolute http(s) URL with a host, or http while {@link Settings#allowHttp()} is off; or its port is
 *       out of range;
 *   <li>carrying user info ({@code https://user:pw@host/}): credentials in a URL end up in the batch record and in
 *       logs, and the receiver authenticates Spiderling by the signature anyway;
 *   <li>carrying a fragment: it is never sent, so a callback with one is not quite the URL the client thinks is
 *       being called (usually a URL copied from a browser), and refusing says so where dropping it would not;
 *   <li>naming a host that is not on the allow-list. This comes before any DNS lookup, so a client cannot make
 *       Spiderling resolve names of its choosing (DNS exfiltration, or probing which internal names exist);
 *   <li>naming a host that does not resolve;
 *   <li>naming a host with any address that {@link AddressPolicy#checkAll(List)} refuses (private, loopback,
 *       link-local, …). IP literals, {@code 203.0.113.7} or {@code [2001:db8::1]}, are judged as they are, without
 *       the resolver. Hosts made only of digits and dots must be canonical dotted quads: {@code 0177.0.0.1} and
 *       {@code 2130706433} mean 127.0.0.1 to some resolvers, and nothing good to anyone else.
 * </ol>
 *
 * <p>An allowed verdict carries the addresses that were checked. The sender connects to one of them, and never
 * resolves the host again, so a DNS answer that changes between check and connect (rebinding) changes nothing; it
 * sends the URL's host as Host and TLS SNI as usual. A refusal at send time that is {@link Verdict.Refused#retryable()
 * retryable} (the name did not resolve) is a transport failure; any other is {@link DeliveryPolicy.Attempt.Blocked}
 * ({@link Verdict.Refused#asAttempt()} does the mapping).
 *
 * <p>Pure apart from the injected resolver; instances are immutable and thread-safe if the resolver is.
 */
public final class CallbackPolicy {

    /** The longest callback URL accepted: longer ones are not worth storing on every batch and sending every time. */
    public static final int MAX_LENGTH = 2048;

    private static final String ANY_HOST = "*";
    /** An allow-list entry other than {@code *}, normalized: {@code *.domain}, a name or IPv4 address, or IPv6. */
    private static final Pattern ENTRY = Pattern.compile("(\\*\\.)?[a-z0-9-]+(\\.[a-z0-9-]+)*|[0-9a-f.]*:[0-9a-f:.]*");

    /**
     * @param allowedHosts the hosts callbacks may go to: {@code hooks.example.com} exactly, {@code *.example.com} for
     *     any name below example.com (not example.com itself), or {@code *} for any host; IP literals as they are
     *     written in URLs, with or without brackets for IPv6 (compared as text, so write them as the clients do).
     *     Matched without regard to case or a trailing dot. Empty refuses every callback.
     * @param allowHttp allow {@code http} as well as {@code https}; for local runs only, since the events and their
     *     signatures would travel in clear text
     */
    public record Settings(List<String> allowedHosts, boolean allowHttp) {

        public Settings {
            allowedHosts = allowedHosts.stream().map(Settings::normalizeEntry).toList();
        }

        /** https only, to the given hosts. */
        public static Settings httpsOnly(List<String> allowedHosts) {
            return new Settings(allowedHosts, false);
        }

        private static String normalizeEntry(String entry) {
            Objects.requireNonNull(entry, "allowed host");
            if (entry.strip().equals(ANY_HOST)) {
                return ANY_HOST;
            }
            // "*" is taken above, so that "*." cannot lose its dot and turn into "any host"
            String normalized = unbracketed(normalizeHost(entry.strip()));
            if (!ENTRY.matcher(normalized).matches()) {
                throw new IllegalArgumentException("not an allowed-host entry (a host, *.domain or *): '" + entry
                        + "'");
            }
            return normalized;
        }
    }

    /** What {@link #check(String)} decided. */
    public sealed interface Verdict {

        default boolean allowed() {
            return this instanceof Allowed;
        }

        /**
         * POST to {@code uri}, connecting to one of {@code addresses} (the first, unless it fails).
         *
         * @param addresses every address of the host, all of them allowed; one element for an IP literal
         */
        record Allowed(URI uri, List<InetAddress> addresses) implements Verdict {

            public Allowed {
                Objects.requireNonNull(uri, "uri");
                addresses = List.copyOf(addresses);
                if (addresses.isEmpty()) {
                    throw new IllegalArgumentException("an allowed callback needs an address to connect to");
                }
            }
        }

        /**
         * @param cause the class of refusal, so the sender can tell a DNS failure from a block
         * @param reason one line for the client or a log, such as {@code host a.test is not in the allowed callback
         *     hosts} or {@code address 169.254.169.254 is link-local}
         */
        record Refused(Cause cause, String reason) implements Verdict {

            public Refused {
                Objects.requireNonNull(cause, "cause");
                Objects.requireNonNull(reason, "reason");
            }

            /** Whether asking again later may give another answer: only a name that did not resolve. */
            public boolean retryable() {
                return cause == Cause.UNRESOLVED;
            }

            /** The refusal as the outcome of a delivery attempt that was never sent. */
            public DeliveryPolicy.Attempt asAttempt() {
                return retryable() ? DeliveryPolicy.Attempt.failed(DeliveryPolicy.Failure.DNS, reason)
                        : DeliveryPolicy.Attempt.blocked(reason);
            }
        }

        enum Cause {
            /** Missing, too long, unparsable, wrong scheme, user info, fragment, bad port or bad host syntax. */
            INVALID_URL,
            /** The host is not on the allow-list. */
            HOST_NOT_ALLOWED,
            /** The resolver found no address, or failed. */
            UNRESOLVED,
            /** The host is, or resolves to, an address the {@link AddressPolicy} refuses. */
            ADDRESS_REFUSED
        }
    }

    private final Settings settings;
    private final AddressPolicy addresses;
    private final Function<String, List<InetAddress>> resolver;

    /**
     * @param resolver every address of a host name (without brackets or trailing dot, in lower case). It reports a
     *     name that does not resolve by returning an empty list or by throwing {@link UnknownHostException}, directly
     *     or as the cause of an unchecked exception; anything else it throws is passed on
     */
    public CallbackPolicy(Settings settings, AddressPolicy addresses, Function<String, List<InetAddress>> resolver) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.addresses = Objects.requireNonNull(addresses, "addresses");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    public Settings settings() {
        return settings;
    }

    /** The verdict on a callback URL, as the client wrote it. */
    public Verdict check(String callbackUrl) {
        if (callbackUrl == null || callbackUrl.isBlank()) {
            return invalid("missing callback URL");
        }
        if (callbackUrl.length() > MAX_LENGTH) {
            return invalid("callback URL is longer than " + MAX_LENGTH + " characters");
        }
        Optional<String> scheme = AddressPolicy.checkUrlScheme(callbackUrl);
        if (scheme.isPresent()) {
            return invalid(scheme.get());
        }
        URI uri;
        try {
            uri = new URI(callbackUrl);
        } catch (URISyntaxException e) {
            return invalid("not a valid URL: " + e.getReason() + " at index " + e.getIndex());
        }
        if (!uri.getScheme().equalsIgnoreCase("https") && !settings.allowHttp()) {
            return invalid("callback URL must use https");
        }
        if (uri.isOpaque() || uri.getRawAuthority() == null) {
            return invalid("callback URL has no host");
        }
        if (uri.getRawUserInfo() != null) {
            return invalid("callback URL must not contain user info");
        }
        if (uri.getRawFragment() != null) {
            return invalid("callback URL must not have a fragment");
        }
        if (uri.getHost() == null) {
            // java.net.URI leaves the host unset for names it cannot parse as a server name: an underscore, non-ASCII
            // letters, or a number that is not an IPv4 address
            return invalid("callback URL has no usable host (international names must be written as xn--)");
        }
        if (uri.getPort() == 0 || uri.getPort() > 65535) {
            return invalid("callback URL has an invalid port");
        }
        String host = normalizeHost(uri.getHost());
        if (host.indexOf('%') >= 0) {
            return invalid("callback URL host must not have a zone identifier");
        }
        Optional<String> ambiguous = Ipv4Spelling.ambiguity(host);
        if (ambiguous.isPresent()) {
            return invalid(ambiguous.get());
        }
        if (!hostAllowed(host)) {
            return new Verdict.Refused(Verdict.Cause.HOST_NOT_ALLOWED,
                    "host " + host + " is not in the allowed callback hosts");
        }
        boolean literal = uri.getHost().startsWith("[") || Ipv4Spelling.isDottedQuad(host);
        List<InetAddress> resolved;
        if (literal) {
            resolved = List.of(literal(uri.getHost()));
        } else {
            Optional<List<InetAddress>> answer = resolve(host);
            if (answer.isEmpty()) {
                return new Verdict.Refused(Verdict.Cause.UNRESOLVED, "cannot resolve host " + host);
            }
            resolved = answer.get();
        }
        AddressPolicy.Verdict verdict = addresses.checkAll(resolved);
        if (verdict instanceof AddressPolicy.Verdict.Refused refused) {
            String address = refused.address().getHostAddress();
            return new Verdict.Refused(Verdict.Cause.ADDRESS_REFUSED, literal
                    ? "address " + address + " is " + refused.reason()
                    : "host " + host + " resolves to " + address + ", which is " + refused.reason());
        }
        return new Verdict.Allowed(uri, resolved);
    }

    private boolean hostAllowed(String host) {
        String bare = unbracketed(host);
        for (String entry : settings.allowedHosts()) {
            if (entry.equals(ANY_HOST) || (entry.startsWith("*.") && host.endsWith(entry.substring(1)))
                    || entry.equals(bare)) {
                return true;
            }
        }
        return false;
    }

    private Optional<List<InetAddress>> resolve(String host) {
        List<InetAddress> answer;
        try {
            answer = resolver.apply(host);
        } catch (Exception e) {
            if (e instanceof UnknownHostException || e.getCause() instanceof UnknownHostException) {
                return Optional.empty();
            }
            throw e;
        }
        return answer == null || answer.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(answer));
    }

    /** An IP literal as {@link URI#getHost()} gives it; parsed, never looked up. */
    private static InetAddress literal(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            // java.net.URI has already checked the literal's syntax, so this cannot happen
            throw new IllegalStateException("URI accepted an IP literal InetAddress refuses: " + host, e);
        }
    }

    private static String normalizeHost(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private static Verdict invalid(String reason) {
        return new Verdict.Refused(Verdict.Cause.INVALID_URL, reason);
    }

    @Override
    public String toString() {
        return "CallbackPolicy[" + settings + ", " + addresses + "]";
    }
}
