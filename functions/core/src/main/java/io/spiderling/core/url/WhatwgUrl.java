package io.spiderling.core.url;

import java.util.Objects;

/**
 * An http or https URL as the WHATWG URL Standard (https://url.spec.whatwg.org/) parses it, which is how browsers
 * parse it; {@link #href()} is its serialization. Spiderling requests this form of what a client submitted, since a
 * site expects what a browser sends, and keys on a normalization of it ({@link UrlNormalizer}).
 *
 * <p>Only the special schemes http and https are parsed. Any other scheme is reported as
 * {@link Result.NotHttp}, not parsed: Spiderling fetches nothing else, and other schemes have rules of their own
 * (opaque paths, {@code file:} hosts) it has no use for.
 *
 * @param scheme {@code http} or {@code https}
 * @param username the percent-encoded username, empty when there is none
 * @param password the percent-encoded password, empty when there is none
 * @param host the serialized host: a lower-case ASCII domain, a dotted-quad IPv4 address or a bracketed IPv6 address
 * @param port the port, or -1 when there is none or it is the scheme's default
 * @param path the serialized path, starting with {@code /}
 * @param query the query without its {@code ?}, empty for a bare {@code ?}, null when there is none
 * @param fragment the fragment without its {@code #}, empty for a bare {@code #}, null when there is none
 */
public record WhatwgUrl(String scheme, String username, String password, String host, int port, String path,
        String query, String fragment) {

    /** Why the standard rejects an input; the names follow its validation errors. */
    public enum ParseError {
        /** No scheme, and no base to resolve against (missing-scheme-non-relative-URL). */
        MISSING_SCHEME,
        /** An empty host (host-missing), as in {@code http://:80/} or {@code http://user@/}. */
        MISSING_HOST,
        /** A host the host parser refuses: forbidden code points, UTS 46, IPv4 or IPv6 syntax. */
        INVALID_HOST,
        /** A port with something other than digits (port-invalid). */
        INVALID_PORT,
        /** A port above 65535 (port-out-of-range). */
        PORT_OUT_OF_RANGE,
        /** The base URL does not parse. */
        INVALID_BASE,
        /**
         * The input has an unpaired surrogate, which no decoded text has. A browser would have replaced it with
         * U+FFFD before parsing (WebIDL's USVString); a URL that differs from what the client sent is refused instead.
         */
        UNPAIRED_SURROGATE
    }

    /** What parsing one input gave. */
    public sealed interface Result {

        /** The input is an http(s) URL. */
        record Parsed(WhatwgUrl url) implements Result {}

        /** The standard rejects the input. */
        record Failure(ParseError error) implements Result {}

        /**
         * The input (or, for a relative reference, its base) has a scheme other than http and https, lower-cased as
         * the standard lower-cases it. It was not parsed further, so the standard may or may not reject it.
         */
        record NotHttp(String scheme) implements Result {}
    }

    public WhatwgUrl {
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("scheme must be http or https: " + scheme);
        }
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(path, "path");
        if (port < -1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** Parses an absolute URL. Never throws. */
    public static Result parse(String input) {
        return WhatwgParser.parse(input, null);
    }

    /**
     * Parses {@code input} against {@code base}, as {@code new URL(input, base)} does; a null base is no base.
     * An input with a scheme of its own ignores the base. Never throws.
     */
    public static Result parse(String input, String base) {
        if (base == null) {
            return WhatwgParser.parse(input, null);
        }
        return switch (WhatwgParser.parse(base, null)) {
            case Result.Parsed parsed -> WhatwgParser.parse(input, parsed.url());
            case Result.NotHttp other -> WhatwgParser.parseAgainstOtherScheme(input, other.scheme());
            case Result.Failure failure -> new Result.Failure(ParseError.INVALID_BASE);
        };
    }

    /** The serialization, fragment included. */
    public String href() {
        StringBuilder href = withoutFragment();
        return fragment == null ? href.toString() : href.append('#').append(fragment).toString();
    }

    /** The serialization without the fragment, which a browser never sends. */
    public String hrefWithoutFragment() {
        return withoutFragment().toString();
    }

    /** True if the URL has a username or a password. */
    public boolean hasCredentials() {
        return !username.isEmpty() || !password.isEmpty();
    }

    /** The port a connection goes to: the explicit one, else 80 for http and 443 for https. */
    public int effectivePort() {
        return port >= 0 ? port : defaultPort(scheme);
    }

    /** The request-target of an HTTP request for this URL: the path, and the query after a {@code ?}. */
    public String target() {
        return query == null ? path : path + "?" + query;
    }

    @Override
    public String toString() {
        return href();
    }

    static int defaultPort(String scheme) {
        return "http".equals(scheme) ? 80 : 443;
    }

    private StringBuilder withoutFragment() {
        StringBuilder out = new StringBuilder(scheme.length() + host.length() + path.length() + 16).append(scheme)
                .append("://");
        if (hasCredentials()) {
            out.append(username);
            if (!password.isEmpty()) {
                out.append(':').append(password);
            }
            out.append('@');
        }
        out.append(host);
        if (port >= 0) {
            out.append(':').append(port);
        }
        return out.append(target());
    }

    /** Names each of the 8 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private String scheme;
        private String username;
        private String password;
        private String host;
        private int port;
        private String path;
        private String query;
        private String fragment;

        private Builder() {}

        public Builder scheme(String value) {
            scheme = value;
            return this;
        }

        public Builder username(String value) {
            username = value;
            return this;
        }

        public Builder password(String value) {
            password = value;
            return this;
        }

        public Builder host(String value) {
            host = value;
            return this;
        }

        public Builder port(int value) {
            port = value;
            return this;
        }

        public Builder path(String value) {
            path = value;
            return this;
        }

        public Builder query(String value) {
            query = value;
            return this;
        }

        public Builder fragment(String value) {
            fragment = value;
            return this;
        }

        public WhatwgUrl build() {
            return new WhatwgUrl(scheme, username, password, host, port, path, query, fragment);
        }
    }
}
