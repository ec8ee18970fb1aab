package io.spiderling.core.url;

import io.spiderling.core.url.WhatwgUrl.Result;
import java.util.Objects;

/**
 * The URL Spiderling requests for an accepted input: the client's URL as a browser would parse and send it (the
 * WHATWG URL Standard's serialization), without the fragment, which a browser never sends. Unlike the
 * {@link NormalizedUrl key}, it keeps the query as written (order, tracking parameters, empty parameters) and the
 * path's escapes, since a site may answer each spelling differently and robots.txt rules match the path it is sent.
 *
 * @param value the URL, e.g. {@code https://example.com/a?b=1&a=2}
 * @param scheme {@code http} or {@code https}
 * @param host the serialized host: a lower-case ASCII name (punycode for IDNs), an IPv4 address or a bracketed IPv6
 *     address
 * @param port the effective port: the explicit one, else 80 for http and 443 for https
 * @param target the request-target sent on the wire: the path, and {@code ?} and the query when there is a query
 *     (even an empty one), e.g. {@code /a?b=1&a=2}
 */
public record RequestUrl(String value, String scheme, String host, int port, String target) {

    public RequestUrl {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(target, "target");
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("scheme must be http or https: " + scheme);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (!target.startsWith("/") || !value.endsWith(target)) {
            throw new IllegalArgumentException("target must be the end of the URL, from its path on: " + target);
        }
    }

    /** The request URL of a parsed URL that has no credentials. */
    static RequestUrl of(WhatwgUrl url) {
        if (url.hasCredentials()) {
            throw new IllegalArgumentException("a request URL has no userinfo: " + url);
        }
        return new RequestUrl(url.hrefWithoutFragment(), url.scheme(), url.host(), url.effectivePort(), url.target());
    }

    /**
     * Re-hydrates a stored request URL. It must be exactly what {@link UrlNormalizer} produces: an absolute http(s)
     * URL in the standard's serialization, without userinfo and without a fragment.
     *
     * @throws IllegalArgumentException if it is not
     */
    public static RequestUrl parse(String value) {
        if (value == null) {
            throw new IllegalArgumentException("missing request URL");
        }
        if (!(WhatwgUrl.parse(value) instanceof Result.Parsed(WhatwgUrl url))) {
            throw new IllegalArgumentException("not an http(s) URL: " + value);
        }
        if (url.hasCredentials() || url.fragment() != null || !url.href().equals(value)) {
            throw new IllegalArgumentException("not a request URL (serialized, without userinfo or fragment): "
                    + value);
        }
        return of(url);
    }

    /**
     * The request a browser sends for {@code url}, an absolute http(s) URL however it is spelled: parsed and
     * serialized by the URL Standard, without its fragment.
     *
     * @throws IllegalArgumentException if it is no absolute http(s) URL, or has userinfo
     */
    public static RequestUrl from(String url) {
        if (url == null || !(WhatwgUrl.parse(url) instanceof Result.Parsed(WhatwgUrl parsed))) {
            throw new IllegalArgumentException("not an http(s) URL");
        }
        if (parsed.hasCredentials()) {
            throw new IllegalArgumentException("userinfo not allowed");
        }
        return of(parsed);
    }

    @Override
    public String toString() {
        return value;
    }
}
