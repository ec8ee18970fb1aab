package io.spiderling.lambda.internal;

import io.spiderling.core.url.RequestUrl;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

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

    /** @param url the URL as it is sent: its request-target goes on the wire exactly as serialized */
    public static RequestOptions request(HttpMethod method, RequestUrl url, InetAddress address) {
        boolean ssl = "https".equals(url.scheme());
        int port = url.port();
        String host = url.host().startsWith("[") ? url.host().substring(1, url.host().length() - 1) : url.host();
        String path = url.target();
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
