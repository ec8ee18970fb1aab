package io.spiderling.lambda.internal;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A Vert.x request to exactly the address an SSRF check allowed, never to what the name resolves to at connect time:
 * the connection goes to {@code address} ({@link RequestOptions#setServer}) while the URL's host stays in the Host
 * header and TLS (SNI and certificate checks). A DNS answer that changes between check and connect cannot redirect it.
 * Redirects are not followed: a hop needs a check of its own. The one place both the page fetcher and the webhook
 * sender build such a request.
 */
public final class CheckedAddress {

    private CheckedAddress() {}

    /**
     * Every address of a host by the system resolver; none when the name does not resolve. The resolver the page
     * fetcher and the callback policy use unless a test gives them another.
     */
    public static List<InetAddress> resolve(String host) {
        try {
            return Arrays.asList(InetAddress.getAllByName(host));
        } catch (UnknownHostException e) {
            return List.of();
        }
    }

    /** @param uri an absolute http or https URL, with a host */
    public static RequestOptions request(HttpMethod method, URI uri, InetAddress address) {
        boolean ssl = "https".equals(uri.getScheme().toLowerCase(Locale.ROOT));
        int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return new RequestOptions()
                .setMethod(method)
                .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
                .setHost(host)
                .setPort(port)
                .setSsl(ssl)
                .setURI(path)
                .setFollowRedirects(false);
    }
}
