package io.spiderling.core.url;

import crawlercommons.filters.basic.BasicURLNormalizer;
import crawlercommons.filters.basic.BasicURLNormalizer.IdnNormalization;
import io.spiderling.core.net.Ipv4Spelling;
import io.spiderling.core.url.NormalizationResult.Rejected;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a client-supplied string into the one spelling of a URL that the rest of Spiderling keys on, or says why it
 * cannot.
 *
 * <p>crawler-commons' {@link BasicURLNormalizer} does the normalizing: it lower-cases scheme and host, converts IDN
 * hosts to punycode, drops default ports, the fragment, an empty query and a trailing dot on the host, resolves dot
 * segments, collapses repeated slashes, decodes percent-escapes of unreserved characters and upper-cases the hex of
 * the others, escapes illegal characters (non-ASCII as UTF-8), drops empty query parameters and sorts the rest by name.
 * The sort compares names as strings ({@code B} before {@code a}) and is stable, so parameters with the same name keep
 * their order.
 *
 * <p>This class adds what it does not do:
 * <ul>
 *   <li>it rejects non-http(s) schemes, userinfo (which the normalizer would silently drop), inputs without a scheme
 *       (which the normalizer would silently prefix with {@code http://}), over-long URLs and invalid hosts or ports;
 *   <li>it removes {@link TrackingParameters tracking parameters}, and the {@code ?} when none is left;
 *   <li>it writes IPv4 hosts as dotted quads ({@code 2130706433}, {@code 0x7f.1} and {@code 0177.0.0.1} are
 *       {@code 127.0.0.1}) and rejects hosts that end in a number but are no address ({@code 1.2.3.4.5},
 *       {@code 256.0.0.1}), as the WHATWG URL Standard does;
 *   <li>it writes IPv6 literals in their RFC 5952 form ({@code [2001:db8::1]}, {@code [::ffff:192.0.2.1]}), and
 *       rejects literals with a zone identifier;
 *   <li>it removes the path's dot segments itself ({@link #withoutDotSegments}), since crawler-commons leaves
 *       {@code /..?a=1} as it is;
 *   <li>it normalizes the percent-encoding of the path before crawler-commons sees it. crawler-commons 1.5 finds the
 *       {@code ?} in the raw path and then uses that position in the re-encoded one, so when re-encoding changes the
 *       path's length ({@code /%7Euser?q=x}, {@code /café?q=1}) it cuts the URL in the wrong place and returns a
 *       different URL ({@code /~user?q?x}) or throws (crawler-commons issue 559). A path that is already in normal
 *       form keeps its length.
 * </ul>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class UrlNormalizer {

    /** The longest URL accepted, before and after normalization. */
    public static final int MAX_LENGTH = 2048;

    // Rejection reasons, shared with NormalizedUrl.check; clients read them, so keep them stable.
    static final String MISSING_URL = "missing URL";
    static final String MALFORMED = "malformed URL";
    static final String MISSING_SCHEME = "missing scheme";
    static final String UNSUPPORTED_SCHEME = "unsupported scheme: ";
    static final String USERINFO = "userinfo not allowed";
    static final String MISSING_HOST = "missing host";
    static final String INVALID_HOST = "invalid host";
    private static final String TOO_LONG = "longer than " + MAX_LENGTH + " characters";

    /** The scheme and, when present, the authority (everything between "//" and the path, query or fragment). */
    private static final Pattern SCHEME_AND_AUTHORITY =
            Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):(?://([^/?#]*))?");

    private final BasicURLNormalizer basic;
    private final TrackingParameters trackingParameters;

    private UrlNormalizer(Builder builder) {
        this.basic = BasicURLNormalizer.newBuilder().idnNormalization(IdnNormalization.PUNYCODE).build();
        this.trackingParameters = builder.trackingParameters;
    }

    /** A normalizer with the defaults: it removes {@link TrackingParameters#defaults()}. */
    public static UrlNormalizer create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public TrackingParameters trackingParameters() {
        return trackingParameters;
    }

    /**
     * Where a redirect leads: {@code location} (a Location header, relative or absolute) resolved against the URL
     * that answered, then normalized. Empty for a missing, malformed or refused target. The one place a hop's target
     * is worked out, for pages and robots.txt alike.
     */
    public Optional<NormalizedUrl> resolve(String base, String location) {
        if (location == null || location.isBlank()) {
            return Optional.empty();
        }
        try {
            String absolute = URI.create(base).resolve(location.strip()).toString();
            return normalize(absolute) instanceof NormalizationResult.Accepted accepted
                    ? Optional.of(accepted.url()) : Optional.empty();
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }

    /** Never throws; every input, {@code null} included, gets a decision. */
    public NormalizationResult normalize(String raw) {
        if (raw == null) {
            return new Rejected(null, MISSING_URL);
        }
        String input = raw.strip();
        if (input.isEmpty()) {
            return new Rejected(raw, "empty URL");
        }
        if (input.length() > MAX_LENGTH) {
            return new Rejected(raw, TOO_LONG);
        }
        if (input.codePoints().anyMatch(c -> Character.getType(c) == Character.SURROGATE)) {
            // an unpaired surrogate (a JSON "\ud83d" escape can make one) has no UTF-8 form: escaping would make it '?'
            return new Rejected(raw, MALFORMED);
        }
        Matcher head = SCHEME_AND_AUTHORITY.matcher(input);
        if (!head.lookingAt()) {
            return new Rejected(raw, MISSING_SCHEME);
        }
        String scheme = head.group(1).toLowerCase(Locale.ROOT);
        if (!NormalizedUrl.isSupportedScheme(scheme)) {
            return new Rejected(raw, UNSUPPORTED_SCHEME + scheme);
        }
        String authority = head.group(2);
        if (authority != null && authority.indexOf('@') >= 0) {
            return new Rejected(raw, USERINFO);
        }
        String normalized;
        try {
            normalized = basic.filter(withNormalPath(input, head.end()));
        } catch (RuntimeException e) {
            normalized = null; // the normalizer catches what it expects; anything else is still a malformed URL
        }
        if (normalized == null) {
            return new Rejected(raw, MALFORMED);
        }
        normalized = withCanonicalIpv6(normalized);
        if (normalized != null) {
            normalized = withCanonicalIpv4(normalized);
        }
        if (normalized == null) {
            return new Rejected(raw, INVALID_HOST);
        }
        normalized = withoutTrackingParameters(normalized);
        if (normalized.length() > MAX_LENGTH) {
            return new Rejected(raw, TOO_LONG);
        }
        return NormalizedUrl.check(normalized, raw);
    }

    /**
     * The URL with its path (from {@code pathStart} to the first {@code ?} or {@code #}) percent-encoded the way
     * crawler-commons will encode it, so that its own re-encoding no longer changes the path's length.
     */
    private static String withNormalPath(String url, int pathStart) {
        int pathEnd = pathStart;
        while (pathEnd < url.length() && url.charAt(pathEnd) != '?' && url.charAt(pathEnd) != '#') {
            pathEnd++;
        }
        String path = url.substring(pathStart, pathEnd);
        String normalPath = withoutDotSegments(BasicURLNormalizer.escapePath(BasicURLNormalizer.unescapePath(path)));
        return normalPath.equals(path) ? url : url.substring(0, pathStart) + normalPath + url.substring(pathEnd);
    }

    /**
     * RFC 3986 section 5.2.4's "remove dot segments" on an absolute path. crawler-commons 1.5 does it too, except
     * for a {@code ..} above the root with a query after it: {@code /..?a=1} stayed, while {@code /..} became
     * {@code /}, so removing a tracking parameter ({@code /..?utm_source=x}) gave a URL that normalized again to
     * another one.
     */
    private static String withoutDotSegments(String path) {
        if (!path.startsWith("/") || !path.contains("/.")) {
            return path;
        }
        String[] segments = path.substring(1).split("/", -1);
        List<String> kept = new ArrayList<>(segments.length);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (!segment.equals(".") && !segment.equals("..")) {
                kept.add(segment);
                continue;
            }
            if (segment.equals("..") && !kept.isEmpty()) {
                kept.removeLast();
            }
            if (i == segments.length - 1) {
                kept.add(""); // "/a/." and "/a/b/.." name the directory: "/a/"
            }
        }
        return "/" + String.join("/", kept);
    }

    /**
     * The normalized URL with an IPv6 literal host in RFC 5952 form, or null if the literal is not an address (it has
     * a zone identifier, which means nothing to a remote fetcher, or is an IPvFuture literal).
     */
    private static String withCanonicalIpv6(String url) {
        int hostStart = url.indexOf("://") + 3;
        if (hostStart < 3 || hostStart >= url.length() || url.charAt(hostStart) != '[') {
            return url;
        }
        int hostEnd = url.indexOf(']', hostStart) + 1;
        String canonical = hostEnd > 0 ? Ipv6Literals.canonical(url.substring(hostStart, hostEnd)) : null;
        if (canonical == null) {
            return null;
        }
        return url.substring(0, hostStart) + canonical + url.substring(hostEnd);
    }

    /**
     * The normalized URL with a host that ends in a number written as a dotted quad ({@code http://0x7f.1/} becomes
     * {@code http://127.0.0.1/}), or null if such a host is no IPv4 address ({@code 1.2.3.4.5}, {@code 256.1.1.1},
     * {@code foo.1}); other hosts are left as they are.
     */
    private static String withCanonicalIpv4(String url) {
        int hostStart = url.indexOf("://") + 3;
        if (hostStart < 3 || hostStart >= url.length() || url.charAt(hostStart) == '[') {
            return url;
        }
        int hostEnd = hostStart;
        while (hostEnd < url.length() && ":/?#".indexOf(url.charAt(hostEnd)) < 0) {
            hostEnd++;
        }
        String host = url.substring(hostStart, hostEnd);
        if (!Ipv4Spelling.endsInNumber(host)) {
            return url;
        }
        String canonical = Ipv4Spelling.canonical(host);
        if (canonical == null) {
            return null;
        }
        return canonical.equals(host) ? url : url.substring(0, hostStart) + canonical + url.substring(hostEnd);
    }

    /**
     * Removes the tracking parameters from a normalized URL, which has no fragment, and whose query (if any) has no
     * empty parameters.
     */
    private String withoutTrackingParameters(String url) {
        int query = url.indexOf('?');
        if (query < 0 || trackingParameters.isEmpty()) {
            return url;
        }
        StringBuilder kept = new StringBuilder(url.length()).append(url, 0, query);
        boolean removed = false;
        int start = query + 1;
        while (start <= url.length()) {
            int end = url.indexOf('&', start);
            if (end < 0) {
                end = url.length();
            }
            int equals = url.indexOf('=', start);
            int nameEnd = equals >= 0 && equals < end ? equals : end;
            if (trackingParameters.matches(url.substring(start, nameEnd))) {
                removed = true;
            } else {
                kept.append(kept.length() == query ? '?' : '&').append(url, start, end);
            }
            start = end + 1;
        }
        return removed ? kept.toString() : url;
    }

    /** Configures a {@link UrlNormalizer}; every setting starts at its default. */
    public static final class Builder {

        private TrackingParameters trackingParameters = TrackingParameters.defaults();

        private Builder() {}

        /** The query parameters to remove; {@link TrackingParameters#none()} keeps them all. */
        public Builder trackingParameters(TrackingParameters trackingParameters) {
            this.trackingParameters = Objects.requireNonNull(trackingParameters, "trackingParameters");
            return this;
        }

        public UrlNormalizer build() {
            return new UrlNormalizer(this);
        }
    }
}
