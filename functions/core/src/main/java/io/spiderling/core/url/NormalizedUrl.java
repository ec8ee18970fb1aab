package io.spiderling.core.url;

import io.spiderling.core.content.Hashing;
import io.spiderling.core.url.WhatwgUrl.Result;
import java.util.Objects;

/**
 * A URL in the normal form produced by {@link UrlNormalizer}, the key the pipeline deduplicates, stores and
 * rate-limits on, with the parts it keys on. It is not what is requested: that is the {@link RequestUrl}.
 *
 * @param value the normalized URL, e.g. {@code https://example.com/a?b=1}
 * @param scheme {@code http} or {@code https}
 * @param host the lower-case host: a name (punycode for IDNs) without a trailing dot, an IPv4 address or a
 *     bracketed IPv6 address
 * @param port the effective port: the explicit one, else 80 for http and 443 for https
 */
public record NormalizedUrl(String value, String scheme, String host, int port) {

    /** What a key's path and query never hold unescaped (crawler-commons escapes them), besides controls and space. */
    private static final String ESCAPED_IN_KEY = "\"#<>[\\]^`{|}";

    public NormalizedUrl {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(host, "host");
        if (!isSupportedScheme(scheme)) {
            throw new IllegalArgumentException("scheme must be http or https: " + scheme);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port); // the standard allows port 0
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
        if (alreadyNormalized == null) {
            throw new IllegalArgumentException(UrlNormalizer.MISSING_URL);
        }
        WhatwgUrl url = switch (WhatwgUrl.parse(alreadyNormalized)) {
            case Result.Parsed parsed -> parsed.url();
            case Result.NotHttp other -> throw invalid(UrlNormalizer.UNSUPPORTED_SCHEME + other.scheme(),
                    alreadyNormalized);
            case Result.Failure failure -> throw invalid(UrlNormalizer.reason(failure.error()), alreadyNormalized);
        };
        if (url.hasCredentials()) {
            throw invalid(UrlNormalizer.USERINFO, alreadyNormalized);
        }
        String host = UrlNormalizer.keyHost(url.host());
        // the value must spell what it parses to the one way a key does: the standard would also read
        // "HTTP://Example.com:80/a#b" as a URL, but as another spelling of the key "http://example.com/a"
        String origin = url.scheme() + "://" + host + (url.port() >= 0 ? ":" + url.port() : "");
        if (url.fragment() != null || !alreadyNormalized.startsWith(origin)
                || !isKeyPathAndQuery(alreadyNormalized.substring(origin.length()))) {
            throw invalid("not in normal form", alreadyNormalized);
        }
        return new NormalizedUrl(alreadyNormalized, url.scheme(), host, url.effectivePort());
    }

    private static IllegalArgumentException invalid(String reason, String value) {
        return new IllegalArgumentException(reason + ": " + value);
    }

    /** A path and query as crawler-commons writes them: printable ASCII, escaped where RFC 3986 requires it. */
    private static boolean isKeyPathAndQuery(String pathAndQuery) {
        if (!pathAndQuery.startsWith("/")) {
            return false;
        }
        for (int i = 0; i < pathAndQuery.length(); i++) {
            char c = pathAndQuery.charAt(i);
            if (c <= 0x20 || c >= 0x7F || ESCAPED_IN_KEY.indexOf(c) >= 0) {
                return false;
            }
            if (c == '%' && !(i + 2 < pathAndQuery.length() && isHex(pathAndQuery.charAt(i + 1))
                    && isHex(pathAndQuery.charAt(i + 2)))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
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

    static boolean isSupportedScheme(String scheme) {
        return "http".equals(scheme) || "https".equals(scheme);
    }
}
