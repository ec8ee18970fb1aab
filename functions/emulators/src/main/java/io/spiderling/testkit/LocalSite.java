package io.spiderling.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/** One web site of {@link LocalSites}: its own loopback address and port, serving the responses you give it. */
public final class LocalSite {

    private static final Response NOT_FOUND =
            new Response(404, "text/plain; charset=utf-8", "Not Found".getBytes(StandardCharsets.UTF_8), Map.of());

    private final HttpServer server;
    private final LocalSites sites;
    /** Kept, not asked of the socket address on every request, which makes a new string each time. */
    private final String host;
    private final Map<String, Response> responses = new ConcurrentHashMap<>();
    private final Map<String, Runnable> beforeResponding = new ConcurrentHashMap<>();
    private final Map<String, HttpHandler> handlers = new ConcurrentHashMap<>();
    /** Paths that answer conditional requests (see {@link #cacheablePage}). */
    private final Set<String> conditional = ConcurrentHashMap.newKeySet();
    private volatile Predicate<String> validatorsIgnored = path -> false;

    LocalSite(HttpServer server, LocalSites sites) {
        this.server = server;
        this.sites = sites;
        this.host = server.getAddress().getAddress().getHostAddress();
        server.createContext("/", this::handle);
    }

    /** The loopback address, such as {@code 127.0.0.2}. */
    public String host() {
        return host;
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

    /**
     * Serves {@code html} at {@code path} like {@link #page}, with an {@code ETag} (a hash of the bytes) and a
     * {@code Last-Modified}, and answers a conditional request that matches them with 304 and no body: an
     * {@code If-None-Match} naming the ETag, or, when there is no If-None-Match, an {@code If-Modified-Since} not
     * before Last-Modified (RFC 9110, 13.1).
     */
    public LocalSite cacheablePage(String path, String html, Instant lastModified) {
        byte[] body = html.getBytes(StandardCharsets.UTF_8);
        respond(path, 200, "text/html; charset=utf-8", body, Map.of("ETag", etag(body),
                "Last-Modified", HTTP_DATE.format(lastModified.atOffset(ZoneOffset.UTC))));
        conditional.add(path);
        return this;
    }

    /**
     * Ignores the validators of requests for paths that match, answering them in full, as many servers do; the
     * response still carries its ETag and Last-Modified.
     */
    public LocalSite ignoreValidators(Predicate<String> paths) {
        this.validatorsIgnored = paths;
        return this;
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
            SiteLatency latency = sites.latency();
            latency.awaitFirstByte();
            exchange.getResponseHeaders().set("Content-Type", response.contentType());
            response.headers().forEach(exchange.getResponseHeaders()::set);
            boolean notModified = conditional.contains(path) && !validatorsIgnored.test(path)
                    && notModified(exchange, response);
            boolean noBody = notModified || response.body().length == 0 || exchange.getRequestMethod().equals("HEAD");
            // -1 tells HttpServer there is no body; 0 would mean "chunked, length unknown".
            exchange.sendResponseHeaders(notModified ? 304 : response.status(), noBody ? -1 : response.body().length);
            if (!noBody) {
                latency.write(exchange.getResponseBody(), response.body());
            }
        }
    }

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

    private static String etag(byte[] body) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(body);
            return "\"" + HexFormat.of().formatHex(hash, 0, 8) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean notModified(HttpExchange exchange, Response response) {
        String ifNoneMatch = exchange.getRequestHeaders().getFirst("If-None-Match");
        if (ifNoneMatch != null) {
            String etag = response.headers().get("ETag");
            for (String tag : ifNoneMatch.split(",")) {
                String t = tag.strip();
                if (t.equals("*") || (t.startsWith("W/") ? t.substring(2) : t).equals(etag)) {
                    return true;
                }
            }
            return false;
        }
        String ifModifiedSince = exchange.getRequestHeaders().getFirst("If-Modified-Since");
        if (ifModifiedSince == null) {
            return false;
        }
        try {
            Instant since = Instant.from(HTTP_DATE.parse(ifModifiedSince.strip()));
            Instant modified = Instant.from(HTTP_DATE.parse(response.headers().get("Last-Modified")));
            return !since.isBefore(modified);
        } catch (DateTimeParseException e) {
            return false; // an invalid date is ignored (RFC 9110, 13.1.3)
        }
    }

    private record Response(int status, String contentType, byte[] body, Map<String, String> headers) {}
}
