package io.spiderling.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** One web site of {@link LocalSites}: its own loopback address and port, serving the responses you give it. */
public final class LocalSite {

    private static final Response NOT_FOUND =
            new Response(404, "text/plain; charset=utf-8", "Not Found".getBytes(StandardCharsets.UTF_8), Map.of());

    private final HttpServer server;
    private final LocalSites sites;
    private final Map<String, Response> responses = new ConcurrentHashMap<>();
    private final Map<String, Runnable> beforeResponding = new ConcurrentHashMap<>();
    private final Map<String, HttpHandler> handlers = new ConcurrentHashMap<>();

    LocalSite(HttpServer server, LocalSites sites) {
        this.server = server;
        this.sites = sites;
        server.createContext("/", this::handle);
    }

    /** The loopback address, such as {@code 127.0.0.2}. */
    public String host() {
        return server.getAddress().getAddress().getHostAddress();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://<host>:<port>}, without a trailing slash. */
    public String baseUrl() {
        return "http://" + host() + ":" + port();
    }

    /** The absolute URL of {@code path}, which starts with a slash. */
    public String url(String path) {
        return baseUrl() + path;
    }

    /** Serves {@code html} at {@code path} with status 200 as UTF-8 {@code text/html}. */
    public LocalSite page(String path, String html) {
        return respond(path, 200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    }

    public LocalSite respond(String path, int status, String contentType, byte[] body) {
        return respond(path, status, contentType, body, Map.of());
    }

    /**
     * Serves a fixed response at {@code path}. A path with a query string matches only that query; a path without one
     * matches any query the path has no exact response for.
     *
     * @param headers extra response headers, such as {@code Location} or {@code Retry-After}
     */
    public LocalSite respond(String path, int status, String contentType, byte[] body, Map<String, String> headers) {
        responses.put(path, new Response(status, contentType, body.clone(), Map.copyOf(headers)));
        return this;
    }

    /**
     * Runs {@code action} on each request for {@code path} after recording it and before answering, so a test can
     * make something happen while a fetch is in flight (or hold the response until it has).
     */
    public LocalSite beforeResponding(String path, Runnable action) {
        beforeResponding.put(path, action);
        return this;
    }

    /**
     * Answers requests for {@code path} with {@code handler} instead of a fixed response, after recording them (and
     * running any {@link #beforeResponding} action): for answers that change from one request to the next, bodies
     * streamed rather than held, or answers that never come. Matched like {@link #respond}; the exchange is closed
     * when the handler returns.
     */
    public LocalSite serve(String path, HttpHandler handler) {
        handlers.put(path, handler);
        return this;
    }

    /** What this site received, in arrival order. */
    public List<RecordedRequest> requests() {
        String host = host();
        return sites.allRequests().stream().filter(request -> request.host().equals(host)).toList();
    }

    /** How many requests this site received for {@code path}, matched with its query string. */
    public long requestCount(String path) {
        return requests().stream().filter(request -> request.path().equals(path)).count();
    }

    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            String query = exchange.getRequestURI().getRawQuery();
            String pathAndQuery = query == null ? path : path + "?" + query;
            sites.record(host(), exchange.getRequestMethod(), pathAndQuery, exchange.getRequestHeaders());

            Runnable action = beforeResponding.getOrDefault(pathAndQuery, beforeResponding.get(path));
            if (action != null) {
                action.run();
            }
            HttpHandler handler = handlers.getOrDefault(pathAndQuery, handlers.get(path));
            if (handler != null) {
                handler.handle(exchange);
                return;
            }
            Response response = responses.getOrDefault(pathAndQuery, responses.getOrDefault(path, NOT_FOUND));
            exchange.getResponseHeaders().set("Content-Type", response.contentType());
            response.headers().forEach(exchange.getResponseHeaders()::set);
            boolean noBody = response.body().length == 0 || exchange.getRequestMethod().equals("HEAD");
            // -1 tells HttpServer there is no body; 0 would mean "chunked, length unknown".
            exchange.sendResponseHeaders(response.status(), noBody ? -1 : response.body().length);
            if (!noBody) {
                exchange.getResponseBody().write(response.body());
            }
        }
    }

    private record Response(int status, String contentType, byte[] body, Map<String, String> headers) {}
}
