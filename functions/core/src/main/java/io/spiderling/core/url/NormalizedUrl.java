package io.spiderling.core.url;

import io.spiderling.core.content.Hashing;
import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizationResult.Rejected;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A URL in the normal form produced by {@link UrlNormalizer}, with the parts the pipeline keys on.
 *
 * @param value the normalized URL, e.g. {@code https://example.com/a?b=1}
 * @param scheme {@code http} or {@code https}
 * @param host the lower-case host: a name (punycode for IDNs), an IPv4 address or a bracketed IPv6 address
 * @param port the effective port: the explicit one, else 80 for http and 443 for https
 */
public record NormalizedUrl(String value, String scheme, String host, int port) {

    private static final int MAX_HOST_LENGTH = 253;
    private static final Pattern HOST_NAME = Pattern.compile("(?:[a-z0-9_-]{1,63}\\.)*[a-z0-9_-]{1,63}");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

    public NormalizedUrl {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(host, "host");
        if (!isSupportedScheme(scheme)) {
            throw new IllegalArgumentException("scheme must be http or https: " + scheme);
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /**
     * Re-hydrates a value that {@link UrlNormalizer} produced, for example one read back from a manifest. It checks
     * the structure (absolute http(s), valid lower-case host and port) but does not normalize again, so values stay
     * readable when the normalization rules change.
     *
     * @throws IllegalArgumentException if the value is not an absolute http(s) URL with a valid host and port
     */
    public static NormalizedUrl parse(String alreadyNormalized) {
        return switch (check(alreadyNormalized, alreadyNormalized)) {
            case Accepted accepted -> accepted.url();
            case Rejected rejected -> throw new IllegalArgumentException(rejected.reason() + ": " + alreadyNormalized);
        };
    }

    /** Lower-case hex SHA-256 of the value; the key of the URL's metadata row and content object. */
    public String urlHash() {
        return Hashing.sha256Hex(value);
    }

    public SiteKey siteKey() {
        return SiteKey.of(this);
    }

    @Override
    public String toString() {
        return value;
    }

    private static int defaultPort(String scheme) {
        return "http".equals(scheme) ? 80 : 443;
    }

    static boolean isSupportedScheme(String scheme) {
        return "http".equals(scheme) || "https".equals(scheme);
    }

    /** Splits {@code value} into its parts, or rejects {@code input} with the reason the value is unusable. */
    static NormalizationResult check(String value, String input) {
        if (value == null) {
            return new Rejected(input, UrlNormalizer.MISSING_URL);
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            return new Rejected(input, UrlNormalizer.MALFORMED);
        }
        String scheme = uri.getScheme();
        if (scheme == null) {
            return new Rejected(input, UrlNormalizer.MISSING_SCHEME);
        }
        if (!isSupportedScheme(scheme)) {
            return new Rejected(input, UrlNormalizer.UNSUPPORTED_SCHEME + scheme);
        }
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty()) {
            return new Rejected(input, UrlNormalizer.MISSING_HOST);
        }
        if (authority.indexOf('@') >= 0) {
            return new Rejected(input, UrlNormalizer.USERINFO);
        }
        boolean ipv6 = authority.startsWith("[");
        int portSeparator = ipv6 ? authority.indexOf(':', authority.indexOf(']')) : authority.lastIndexOf(':');
        String host = portSeparator < 0 ? authority : authority.substring(0, portSeparator);
        String portText = portSeparator < 0 ? "" : authority.substring(portSeparator + 1);
        if (host.isEmpty()) {
            return new Rejected(input, UrlNormalizer.MISSING_HOST);
        }
        // java.net.URI validates IPv6 literals but accepts zone identifiers, which mean nothing to a remote fetcher;
        // it parses names with '_' as registry-based, so check names here
        boolean validHost = ipv6
                ? uri.getHost() != null && host.indexOf('%') < 0
                : host.length() <= MAX_HOST_LENGTH && HOST_NAME.matcher(host).matches();
        if (!validHost) {
            return new Rejected(input, UrlNormalizer.INVALID_HOST);
        }
        int port = portText.isEmpty() ? defaultPort(scheme)
                : PORT.matcher(portText).matches() ? Integer.parseInt(portText) : 0;
        if (port < 1 || port > 65535) {
            return new Rejected(input, "invalid port");
        }
        return new Accepted(new NormalizedUrl(value, scheme, host, port));
    }
}
