package io.spiderling.core.robots;

/**
 * The request-target of a request URL (RFC 9110 section 7.1): its path and query exactly as the URL string writes
 * them. robots.txt is decided on what is sent, so nothing is parsed again, decoded or reordered here: a URL parser
 * would reject characters a browser sends raw ({@code java.net.URI} refuses {@code |}, {@code ^}, {@code [}), and a
 * different spelling of the query is a different request.
 */
final class RequestTarget {

    private RequestTarget() {}

    /**
     * The path and query of {@code url}, from the first {@code /} or {@code ?} after the authority up to a fragment;
     * {@code /} stands for an empty path, as it does in the request line.
     */
    static String of(String url) {
        int start = pathStart(url);
        int fragment = url.indexOf('#', start);
        String target = url.substring(start, fragment < 0 ? url.length() : fragment);
        return target.startsWith("/") ? target : "/" + target;
    }

    /**
     * Where the authority of {@code scheme://authority…} ends: at its first {@code /}, {@code ?} or {@code #}, or at
     * the end of the URL; the whole length for a string of another form, so that its parser can refuse it.
     */
    static int pathStart(String url) {
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
}
