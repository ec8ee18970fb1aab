package io.spiderling.core.signing;

import java.util.Locale;

/** The {@code @authority} derived component (RFC 9421 2.2.3): the host in lower case, and the port unless default. */
public final class Authority {

    private Authority() {}

    /** {@code host} as a URL writes it (an IPv6 literal in brackets); {@code port} the one connected to. */
    public static String of(String scheme, String host, int port) {
        String lower = host.toLowerCase(Locale.ROOT);
        boolean defaultPort = ("https".equalsIgnoreCase(scheme) && port == 443)
                || ("http".equalsIgnoreCase(scheme) && port == 80);
        return defaultPort || port < 0 ? lower : lower + ":" + port;
    }
}
