package io.spiderling.core.url;

import crawlercommons.filters.basic.BasicURLNormalizer;
import crawlercommons.filters.basic.BasicURLNormalizer.IdnNormalization;
import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizationResult.Rejected;
import io.spiderling.core.url.WhatwgUrl.ParseError;
import io.spiderling.core.url.WhatwgUrl.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether a client-supplied string is a URL Spiderling fetches, and if so gives it two forms: the
 * <b>request URL</b> ({@link RequestUrl}), which is fetched, and the <b>key</b> ({@link NormalizedUrl}), the one
 * spelling that deduplication, storage and politeness agree on.
 *
 * <p>The input is parsed as a browser parses it, by the WHATWG URL Standard ({@link WhatwgUrl}): leading and trailing
 * C0 controls and spaces are dropped and tabs and newlines removed, {@code \} is a {@code /}, the host is
 * percent-decoded, mapped by UTS 46 (nontransitional: {@code faß.de} is {@code xn--fa-hia.de}) and, when it ends in
 * a number, read as an IPv4 address ({@code 0x7f.1} is {@code 127.0.0.1}), dot segments are removed, the default port
 * is dropped, and each part is percent-encoded with its own set. What the standard rejects is rejected. Spiderling
 * also refuses, on its own account, schemes other than http and https, userinfo (credentials do not belong in a
 * crawl queue, and the key would silently drop them) and URLs longer than {@value #MAX_LENGTH} characters.
 *
 * <p>The request URL is the standard's serialization without the fragment: the URL a browser would request, with the
 * query exactly as the client wrote it. Requesting anything else would send sites URLs nobody submitted, and decide
 * robots.txt on a path the site never sees.
 *
 * <p>The key is the request URL normalized further, so that spellings of one resource are one key:
 * <ul>
 *   <li>crawler-commons' {@link BasicURLNormalizer} normalizes the path and query: it collapses repeated slashes,
 *       decodes percent-escapes of unreserved characters and upper-cases the hex of the others, escapes what RFC 3986
 *       does not allow ({@code |}, {@code [}, a stray {@code %}), drops an empty query and empty query parameters,
 *       and sorts the rest by name. The sort compares names as strings ({@code B} before {@code a}) and is stable,
 *       so parameters with the same name keep their order;
 *   <li>{@link TrackingParameters tracking parameters} are removed, and the {@code ?} when none is left;
 *   <li>a trailing dot of the host is dropped, and an IPv4-mapped IPv6 address is written with its IPv4 part dotted
 *       ({@code [::ffff:127.0.0.1]}, RFC 5952 section 5).
 * </ul>
 * crawler-commons sees only the path and query, behind a placeholder host: the host is already in its one form, and
 * crawler-commons parses with {@code java.net.URI}, which refuses hosts the standard allows (such as {@code a{b}}).
 * Before that, the path's escapes are normalized as crawler-commons would normalize them: crawler-commons 1.5 finds
 * the {@code ?} in the raw path and then uses that position in the re-encoded one, so when re-encoding changes the
 * path's length ({@code /%7Euser?q=x}) it cuts the URL in the wrong place (crawler-commons issue 559).
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class UrlNormalizer {

    /** The longest URL accepted: the input, the request URL and the key alike. */
    public static final int MAX_LENGTH = 2048;

    // Rejection reasons; clients read them, so keep them stable.
    static final String MISSING_URL = "missing URL";
    static final String MALFORMED = "malformed URL";
    static final String MISSING_SCHEME = "missing scheme";
    static final String UNSUPPORTED_SCHEME = "unsupported scheme: ";
    static final String USERINFO = "userinfo not allowed";
    static final String MISSING_HOST = "missing host";
    static final String INVALID_HOST = "invalid host";
    static final String INVALID_PORT = "invalid port";
    private static final String EMPTY = "empty URL";
    private static final String TOO_LONG = "longer than " + MAX_LENGTH + " characters";

    /** Stands in for the host while crawler-commons normalizes the path and query. */
    private static final String PLACEHOLDER = "http://h";

    private final BasicURLNormalizer basic;
    private final TrackingParameters trackingParameters;

    private UrlNormalizer(Builder builder) {
        this.basic = BasicURLNormalizer.newBuilder().idnNormalization(IdnNormalization.NONE).build();
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
     * Where a redirect leads: {@code location} (a Location header, relative or absolute) parsed against
     * {@code baseRequestUrl}, the request URL that answered, as a browser follows it; then accepted or refused as
     * {@link #normalize} would. Empty for a missing, malformed or refused target. The one place a hop's target is
     * worked out, for pages and robots.txt alike.
     */
    public Optional<Accepted> resolve(String baseRequestUrl, String location) {
        if (baseRequestUrl == null || location == null || WhatwgParser.trim(location).length() > MAX_LENGTH) {
            return Optional.empty();
        }
        return decide(location, WhatwgUrl.parse(location, baseRequestUrl)) instanceof Accepted accepted
                ? Optional.of(accepted) : Optional.empty();
    }

    /** Never throws; every input, {@code null} included, gets a decision. */
    public NormalizationResult normalize(String raw) {
        if (raw == null) {
            return new Rejected(null, MISSING_URL);
        }
        String input = WhatwgParser.trim(raw);
        if (input.isEmpty()) {
            return new Rejected(raw, EMPTY);
        }
        if (input.length() > MAX_LENGTH) {
            return new Rejected(raw, TOO_LONG);
        }
        return decide(raw, WhatwgUrl.parse(input));
    }

    private NormalizationResult decide(String raw, Result parsed) {
        return switch (parsed) {
            case Result.Failure failure -> new Rejected(raw, reason(failure.error()));
            case Result.NotHttp other -> new Rejected(raw, UNSUPPORTED_SCHEME + other.scheme());
            case Result.Parsed(WhatwgUrl url) -> accept(raw, url);
        };
    }

    private NormalizationResult accept(String raw, WhatwgUrl url) {
        if (url.hasCredentials()) {
            return new Rejected(raw, USERINFO);
        }
        RequestUrl request = RequestUrl.of(url);
        if (request.value().length() > MAX_LENGTH) {
            return new Rejected(raw, TOO_LONG);
        }
        String host = keyHost(url.host());
        String pathAndQuery = keyPathAndQuery(url);
        if (pathAndQuery == null) {
            return new Rejected(raw, MALFORMED); // crawler-commons refused what the standard accepts: a bug here
        }
        String key = url.scheme() + "://" + host + (url.port() >= 0 ? ":" + url.port() : "") + pathAndQuery;
        if (key.length() > MAX_LENGTH) {
            return new Rejected(raw, TOO_LONG);
        }
        return new Accepted(new NormalizedUrl(key, url.scheme(), host, url.effectivePort()), request);
    }

    /** The reason a client reads for what the standard rejects. */
    static String reason(ParseError error) {
        return switch (error) {
            case MISSING_SCHEME -> MISSING_SCHEME;
            case MISSING_HOST -> MISSING_HOST;
            case INVALID_HOST -> INVALID_HOST;
            case PORT_OUT_OF_RANGE -> INVALID_PORT;
            case INVALID_PORT, INVALID_BASE, UNPAIRED_SURROGATE -> MALFORMED;
        };
    }

    /**
     * The key's host: the standard's serialized host without a trailing dot ({@code example.com.} names the same
     * host as {@code example.com}), and with an IPv4-mapped IPv6 address written as RFC 5952 recommends.
     */
    static String keyHost(String host) {
        if (host.startsWith("[")) {
            int[] address = Ipv6Address.parse(host.substring(1, host.length() - 1));
            if (address == null || !Ipv6Address.isIpv4Mapped(address)) {
                return host;
            }
            return "[::ffff:" + (address[6] >>> 8) + "." + (address[6] & 0xFF) + "." + (address[7] >>> 8) + "."
                    + (address[7] & 0xFF) + "]";
        }
        // one dot only: "foo.09.." is a name, but "foo.09." would be read as an IPv4 address (and fail)
        return host.endsWith(".") && !host.endsWith("..") && host.length() > 1
                ? host.substring(0, host.length() - 1) : host;
    }

    /** The key's path and query, or null if crawler-commons refuses them. */
    private String keyPathAndQuery(WhatwgUrl url) {
        // crawler-commons escapes every character java.net.URI refuses in a query except '\', which the standard keeps
        String query = url.query() == null ? "" : "?" + url.query().replace("\\", "%5C");
        String normalized;
        try {
            normalized = basic.filter(PLACEHOLDER + withNormalPath(url.path()) + query);
        } catch (RuntimeException e) {
            normalized = null; // crawler-commons catches what it expects; anything else is a refusal too
        }
        if (normalized == null || !normalized.startsWith(PLACEHOLDER + "/")) {
            return null;
        }
        return withoutTrackingParameters(normalized.substring(PLACEHOLDER.length()));
    }

    /**
     * The path percent-encoded the way crawler-commons will encode it, so that its own re-encoding no longer changes
     * the path's length; and without dot segments, since crawler-commons 1.5 leaves {@code /..?a=1} as it is. (The
     * standard removed the path's dot segments already, but decoding {@code %2E} can make new ones.)
     */
    private static String withNormalPath(String path) {
        return withoutDotSegments(BasicURLNormalizer.escapePath(BasicURLNormalizer.unescapePath(path)));
    }

    /** RFC 3986 section 5.2.4's "remove dot segments" on an absolute path. */
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
     * Removes the tracking parameters from a normalized path and query, whose query (if any) has no empty
     * parameters.
     */
    private String withoutTrackingParameters(String pathAndQuery) {
        int query = pathAndQuery.indexOf('?');
        if (query < 0 || trackingParameters.isEmpty()) {
            return pathAndQuery;
        }
        StringBuilder kept = new StringBuilder(pathAndQuery.length()).append(pathAndQuery, 0, query);
        boolean removed = false;
        int start = query + 1;
        while (start <= pathAndQuery.length()) {
            int end = pathAndQuery.indexOf('&', start);
            if (end < 0) {
                end = pathAndQuery.length();
            }
            int equals = pathAndQuery.indexOf('=', start);
            int nameEnd = equals >= 0 && equals < end ? equals : end;
            if (trackingParameters.matches(pathAndQuery.substring(start, nameEnd))) {
                removed = true;
            } else {
                kept.append(kept.length() == query ? '?' : '&').append(pathAndQuery, start, end);
            }
            start = end + 1;
        }
        return removed ? kept.toString() : pathAndQuery;
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
