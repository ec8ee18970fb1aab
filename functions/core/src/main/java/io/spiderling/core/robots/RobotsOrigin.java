package io.spiderling.core.robots;

import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import java.net.IDN;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * The unit a robots.txt file speaks for: scheme, host and port (RFC 9309 section 2.3). It is narrower than the
 * {@link io.spiderling.core.url.SiteKey}: {@code http://example.com} and {@code https://www.example.com} share a rate
 * limit but have two robots.txt files, and a rule in one says nothing about the other.
 *
 * <p>The {@link #value()} always spells the port out, {@code https://example.com:443}, so that a stored key has one
 * spelling whichever way the URL wrote it. The {@link #robotsUrl()} leaves a default port out, as the normalizer
 * does, so that it is itself a normalized URL and the request carries the usual {@code Host} header.
 *
 * @param scheme {@code http} or {@code https}
 * @param host the lower-case host, punycode for IDNs, IPv6 literals in brackets
 * @param port the effective port: the explicit one, else 80 for http and 443 for https
 */
public record RobotsOrigin(String scheme, String host, int port) {

    public RobotsOrigin {
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("scheme must be http or https: " + scheme);
        }
        Objects.requireNonNull(host, "host");
        if (host.isEmpty() || !host.equals(host.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("host must be non-empty and lower-case: " + host);
        }
        if (port < 0 || port > 65535) {
            // 0 included: the URL Standard accepts it, so a NormalizedUrl may have it (its fetch fails to connect)
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    public static RobotsOrigin of(NormalizedUrl url) {
        return new RobotsOrigin(url.scheme(), url.host(), url.port());
    }

    /**
     * The origin of a URL as sent: its key's origin ({@link #of(NormalizedUrl)}), which drops a trailing dot from the
     * host where the URL Standard keeps it.
     */
    public static RobotsOrigin of(RequestUrl url) {
        String host = url.host().endsWith(".") && url.host().length() > 1
                ? url.host().substring(0, url.host().length() - 1) : url.host();
        return new RobotsOrigin(url.scheme(), host, url.port());
    }

    /**
     * The origin of any absolute http(s) URL, normalized or not: scheme and host are lower-cased, a trailing dot and
     * user info are dropped, an IDN becomes punycode and a missing port becomes the scheme's default. Also reads
     * back a stored {@link #value()}.
     *
     * @throws IllegalArgumentException if {@code url} is not an absolute http or https URL with a host
     */
    public static RobotsOrigin of(String url) {
        Objects.requireNonNull(url, "url");
        String stripped = url.strip();
        URI uri;
        try {
            // the scheme and authority only: the path and query of a URL as sent may hold characters URI refuses
            uri = new URI(stripped.substring(0, authorityEnd(stripped)));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + url, e);
        }
        String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
        String authority = uri.getRawAuthority();
        if (!"http".equals(scheme) && !"https".equals(scheme) || authority == null) {
            throw new IllegalArgumentException("not an absolute http(s) URL: " + url);
        }
        // URI leaves getHost() null for names it dislikes (my_host.example.com), so split the authority by hand
        authority = authority.substring(authority.lastIndexOf('@') + 1);
        int portStart = authority.startsWith("[") ? authority.indexOf(':', authority.indexOf(']')) : authority
                .lastIndexOf(':');
        String host = portStart < 0 ? authority : authority.substring(0, portStart);
        String portText = portStart < 0 ? "" : authority.substring(portStart + 1);
        int port = portText.isEmpty() ? defaultPort(scheme) : parsePort(portText, url);
        return new RobotsOrigin(scheme, asciiHost(host, url), port);
    }

    /**
     * Where the authority of {@code scheme://authority…} ends: at its first {@code /}, {@code ?} or {@code #}, or at
     * the end of the URL; the whole length for a string of another form, so that its parser can refuse it.
     */
    private static int authorityEnd(String url) {
        int colon = url.indexOf(':');
        if (colon < 0 || !url.startsWith("//", colon + 1)) {
            return url.length();
        }
        for (int i = colon + 3; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                return i;
            }
        }
        return url.length();
    }

    /** The stored form, with the port always written: {@code https://example.com:443}. */
    public String value() {
        return scheme + "://" + host + ":" + port;
    }

    /** Where this origin's rules live: {@code https://example.com/robots.txt}, default port left out. */
    public String robotsUrl() {
        return scheme + "://" + host + (port == defaultPort(scheme) ? "" : ":" + port) + "/robots.txt";
    }

    @Override
    public String toString() {
        return value();
    }

    private static int defaultPort(String scheme) {
        return "http".equals(scheme) ? 80 : 443;
    }

    private static int parsePort(String text, String url) {
        if (text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("bad port in URL: " + url);
        }
        return Integer.parseInt(text);
    }

    private static String asciiHost(String raw, String url) {
        String host = raw.endsWith(".") ? raw.substring(0, raw.length() - 1) : raw;
        if (host.isEmpty()) {
            throw new IllegalArgumentException("URL has no host: " + url);
        }
        if (!host.startsWith("[") && !host.chars().allMatch(c -> c < 0x80)) {
            try {
                host = IDN.toASCII(host, IDN.ALLOW_UNASSIGNED);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad host in URL: " + url, e);
            }
        }
        return host.toLowerCase(Locale.ROOT);
    }
}
