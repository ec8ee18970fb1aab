package io.spiderling.core.url;

import io.spiderling.core.url.WhatwgUrl.ParseError;
import io.spiderling.core.url.WhatwgUrl.Result;
import java.util.ArrayList;
import java.util.List;

/**
 * The WHATWG URL Standard's basic URL parser (https://url.spec.whatwg.org/#concept-basic-url-parser), for the
 * special schemes http and https, without a state override. Each state is a method named after the standard's,
 * doing what its steps say, so the two can be read side by side; steps that only report a validation error and go
 * on are left out, and so are the states of other schemes.
 *
 * <p>One instance parses one input and is then thrown away.
 */
final class WhatwgParser {

    private static final int EOF = -1;

    private enum State {
        SCHEME_START, SCHEME, NO_SCHEME, SPECIAL_RELATIVE_OR_AUTHORITY, RELATIVE, RELATIVE_SLASH,
        SPECIAL_AUTHORITY_SLASHES, SPECIAL_AUTHORITY_IGNORE_SLASHES, AUTHORITY, HOST, PORT, PATH_START, PATH, QUERY,
        FRAGMENT
    }

    private final int[] input;
    private final WhatwgUrl base;
    /** The scheme of a base that is no http(s) URL, or null. */
    private final String otherBaseScheme;

    private State state = State.SCHEME_START;
    private int pointer;
    private final StringBuilder buffer = new StringBuilder();
    private boolean atSignSeen;
    private boolean insideBrackets;
    private boolean passwordTokenSeen;
    /** Set when the parser stops early: a failure, or a scheme it does not parse. */
    private Result stopped;

    private String scheme;
    private final StringBuilder username = new StringBuilder();
    private final StringBuilder password = new StringBuilder();
    private String host;
    private int port = -1;
    private final List<String> path = new ArrayList<>();
    private StringBuilder query;
    private StringBuilder fragment;

    private WhatwgParser(int[] input, WhatwgUrl base, String otherBaseScheme) {
        this.input = input;
        this.base = base;
        this.otherBaseScheme = otherBaseScheme;
    }

    /** Parses {@code input} against {@code base} (null for none). */
    static Result parse(String input, WhatwgUrl base) {
        return run(input, base, null);
    }

    /** Parses {@code input} against a base whose scheme is not http(s): only an absolute http(s) input parses. */
    static Result parseAgainstOtherScheme(String input, String baseScheme) {
        return run(input, null, baseScheme);
    }

    /**
     * The input without leading and trailing C0 controls and spaces, which the standard removes first (and which a
     * browser's address bar and HTML attributes drop too).
     */
    static String trim(String input) {
        int start = 0;
        int end = input.length();
        while (start < end && input.charAt(start) <= 0x20) {
            start++;
        }
        while (end > start && input.charAt(end - 1) <= 0x20) {
            end--;
        }
        return input.substring(start, end);
    }

    private static Result run(String raw, WhatwgUrl base, String otherBaseScheme) {
        if (raw == null) {
            return new Result.Failure(ParseError.MISSING_SCHEME);
        }
        String trimmed = trim(raw);
        if (hasUnpairedSurrogate(trimmed)) {
            return new Result.Failure(ParseError.UNPAIRED_SURROGATE);
        }
        // tabs and newlines anywhere are dropped: a URL wrapped over lines in an HTML attribute is still one URL
        int[] codePoints = trimmed.codePoints().filter(c -> c != '\t' && c != '\n' && c != '\r').toArray();
        return new WhatwgParser(codePoints, base, otherBaseScheme).run();
    }

    private Result run() {
        for (pointer = 0; ; pointer++) {
            step(pointer < input.length ? input[pointer] : EOF);
            if (stopped != null) {
                return stopped;
            }
            if (pointer >= input.length) {
                return new Result.Parsed(build());
            }
        }
    }

    private void step(int c) {
        switch (state) {
            case SCHEME_START -> schemeStart(c);
            case SCHEME -> scheme(c);
            case NO_SCHEME -> noScheme();
            case SPECIAL_RELATIVE_OR_AUTHORITY -> specialRelativeOrAuthority(c);
            case RELATIVE -> relative(c);
            case RELATIVE_SLASH -> relativeSlash(c);
            case SPECIAL_AUTHORITY_SLASHES -> specialAuthoritySlashes(c);
            case SPECIAL_AUTHORITY_IGNORE_SLASHES -> specialAuthorityIgnoreSlashes(c);
            case AUTHORITY -> authority(c);
            case HOST -> host(c);
            case PORT -> port(c);
            case PATH_START -> pathStart(c);
            case PATH -> path(c);
            case QUERY -> query(c);
            case FRAGMENT -> fragment(c);
        }
    }

    private void schemeStart(int c) {
        if (isAsciiAlpha(c)) {
            buffer.append(Character.toLowerCase((char) c));
            state = State.SCHEME;
        } else {
            state = State.NO_SCHEME;
            pointer--;
        }
    }

    private void scheme(int c) {
        if (isAsciiAlpha(c) || isAsciiDigit(c) || c == '+' || c == '-' || c == '.') {
            buffer.append(Character.toLowerCase((char) c));
        } else if (c == ':') {
            scheme = buffer.toString();
            buffer.setLength(0);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                stopped = new Result.NotHttp(scheme);
            } else if (base != null && base.scheme().equals(scheme)) {
                state = State.SPECIAL_RELATIVE_OR_AUTHORITY;
            } else {
                state = State.SPECIAL_AUTHORITY_SLASHES;
            }
        } else {
            buffer.setLength(0);
            state = State.NO_SCHEME;
            pointer = -1; // start over, from the first code point
        }
    }

    private void noScheme() {
        if (base == null) {
            stopped = otherBaseScheme != null ? new Result.NotHttp(otherBaseScheme)
                    : new Result.Failure(ParseError.MISSING_SCHEME);
            return;
        }
        state = State.RELATIVE;
        pointer--;
    }

    private void specialRelativeOrAuthority(int c) {
        if (c == '/' && remainingStartsWithSlash()) {
            state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES;
            pointer++;
        } else {
            state = State.RELATIVE;
            pointer--;
        }
    }

    private void relative(int c) {
        scheme = base.scheme();
        if (c == '/' || c == '\\') {
            state = State.RELATIVE_SLASH;
            return;
        }
        copyAuthorityFromBase();
        path.addAll(segments(base.path()));
        query = base.query() == null ? null : new StringBuilder(base.query());
        if (!queryOrFragment(c) && c != EOF) {
            query = null;
            shortenPath();
            state = State.PATH;
            pointer--;
        }
    }

    private void relativeSlash(int c) {
        if (c == '/' || c == '\\') {
            state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES;
        } else {
            copyAuthorityFromBase();
            state = State.PATH;
            pointer--;
        }
    }

    private void specialAuthoritySlashes(int c) {
        state = State.SPECIAL_AUTHORITY_IGNORE_SLASHES;
        if (c == '/' && remainingStartsWithSlash()) {
            pointer++;
        } else {
            pointer--;
        }
    }

    private void specialAuthorityIgnoreSlashes(int c) {
        if (c != '/' && c != '\\') {
            state = State.AUTHORITY;
            pointer--;
        }
    }

    private void authority(int c) {
        if (c == '@') {
            if (atSignSeen) {
                buffer.insert(0, "%40");
            }
            atSignSeen = true;
            buffer.codePoints().forEach(this::appendToCredentials);
            buffer.setLength(0);
        } else if (c == EOF || c == '/' || c == '?' || c == '#' || c == '\\') {
            if (atSignSeen && buffer.isEmpty()) {
                stopped = new Result.Failure(ParseError.MISSING_HOST);
                return;
            }
            pointer -= buffer.codePointCount(0, buffer.length()) + 1;
            buffer.setLength(0);
            state = State.HOST;
        } else {
            buffer.appendCodePoint(c);
        }
    }

    private void appendToCredentials(int c) {
        if (c == ':' && !passwordTokenSeen) {
            passwordTokenSeen = true;
            return;
        }
        PercentEncoding.append(passwordTokenSeen ? password : username, c, PercentEncoding.USERINFO);
    }

    private void host(int c) {
        boolean portFollows = c == ':' && !insideBrackets;
        if (portFollows || c == EOF || c == '/' || c == '?' || c == '#' || c == '\\') {
            if (!portFollows) {
                pointer--;
            }
            if (buffer.isEmpty()) {
                stopped = new Result.Failure(ParseError.MISSING_HOST);
                return;
            }
            host = Hosts.parse(buffer.toString());
            if (host == null) {
                stopped = new Result.Failure(ParseError.INVALID_HOST);
                return;
            }
            buffer.setLength(0);
            state = portFollows ? State.PORT : State.PATH_START;
            return;
        }
        if (c == '[') {
            insideBrackets = true;
        } else if (c == ']') {
            insideBrackets = false;
        }
        buffer.appendCodePoint(c);
    }

    private void port(int c) {
        if (isAsciiDigit(c)) {
            buffer.append((char) c);
            return;
        }
        if (c != EOF && c != '/' && c != '?' && c != '#' && c != '\\') {
            stopped = new Result.Failure(ParseError.INVALID_PORT);
            return;
        }
        if (!buffer.isEmpty()) {
            int number = 0;
            for (int i = 0; i < buffer.length(); i++) {
                number = number * 10 + buffer.charAt(i) - '0';
                if (number > 65535) {
                    stopped = new Result.Failure(ParseError.PORT_OUT_OF_RANGE);
                    return;
                }
            }
            port = number == WhatwgUrl.defaultPort(scheme) ? -1 : number;
            buffer.setLength(0);
        }
        state = State.PATH_START;
        pointer--;
    }

    private void pathStart(int c) {
        state = State.PATH;
        if (c != '/' && c != '\\') {
            pointer--;
        }
    }

    private void path(int c) {
        if (c != EOF && c != '/' && c != '\\' && c != '?' && c != '#') {
            PercentEncoding.append(buffer, c, PercentEncoding.PATH);
            return;
        }
        boolean slash = c == '/' || c == '\\';
        String segment = buffer.toString();
        if (isDoubleDotSegment(segment)) {
            shortenPath();
            if (!slash) {
                path.add("");
            }
        } else if (isSingleDotSegment(segment)) {
            if (!slash) {
                path.add("");
            }
        } else {
            path.add(segment);
        }
        buffer.setLength(0);
        queryOrFragment(c);
    }

    /** At {@code ?} starts an empty query, at {@code #} an empty fragment; returns whether {@code c} was either. */
    private boolean queryOrFragment(int c) {
        if (c == '?') {
            query = new StringBuilder();
            state = State.QUERY;
            return true;
        }
        if (c == '#') {
            fragment = new StringBuilder();
            state = State.FRAGMENT;
            return true;
        }
        return false;
    }

    private void query(int c) {
        // the encoding is UTF-8 for every http(s) URL parsed here, so each code point can be encoded as it comes
        if (c == '#') {
            fragment = new StringBuilder();
            state = State.FRAGMENT;
        } else if (c != EOF) {
            PercentEncoding.append(query, c, PercentEncoding.SPECIAL_QUERY);
        }
    }

    private void fragment(int c) {
        if (c != EOF) {
            PercentEncoding.append(fragment, c, PercentEncoding.FRAGMENT);
        }
    }

    private void copyAuthorityFromBase() {
        username.append(base.username());
        password.append(base.password());
        host = base.host();
        port = base.port();
    }

    private void shortenPath() {
        if (!path.isEmpty()) {
            path.removeLast();
        }
    }

    private boolean remainingStartsWithSlash() {
        return pointer + 1 < input.length && input[pointer + 1] == '/';
    }

    private WhatwgUrl build() {
        StringBuilder serializedPath = new StringBuilder();
        path.forEach(segment -> serializedPath.append('/').append(segment));
        return WhatwgUrl.builder().scheme(scheme).username(username.toString()).password(password.toString())
                .host(host).port(port).path(serializedPath.toString()).query(query == null ? null : query.toString())
                .fragment(fragment == null ? null : fragment.toString()).build();
    }

    private static List<String> segments(String path) {
        return path.isEmpty() ? List.of() : List.of(path.substring(1).split("/", -1));
    }

    private static boolean isSingleDotSegment(String segment) {
        return segment.equals(".") || segment.equalsIgnoreCase("%2e");
    }

    private static boolean isDoubleDotSegment(String segment) {
        return switch (segment.length()) {
            case 2 -> segment.equals("..");
            case 4 -> segment.equalsIgnoreCase(".%2e") || segment.equalsIgnoreCase("%2e.");
            case 6 -> segment.equalsIgnoreCase("%2e%2e");
            default -> false;
        };
    }

    private static boolean isAsciiAlpha(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isAsciiDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean hasUnpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
