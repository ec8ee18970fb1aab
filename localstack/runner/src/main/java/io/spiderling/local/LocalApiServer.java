package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * API Gateway's HTTP API, locally: each request on 127.0.0.1 becomes a payload 2.0 event for the handler, and the
 * handler's response goes back to the client.
 */
final class LocalApiServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LocalApiServer.class.getName());

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    LocalApiServer(int port, Function<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> router) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("could not listen on 127.0.0.1:" + port, e);
        }
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            try (exchange) {
                APIGatewayV2HTTPResponse response;
                try {
                    response = router.apply(toEvent(exchange));
                } catch (RuntimeException e) {
                    // A function that fails gets API Gateway's own 500. (Answered inside the exchange's try: once it
                    // is closed nothing can be sent, and the client saw its connection dropped with no answer.)
                    LOG.log(System.Logger.Level.WARNING, "the API's function failed for " + exchange.getRequestURI(), e);
                    response = APIGatewayV2HTTPResponse.builder().withStatusCode(500)
                            .withHeaders(Map.of("content-type", "application/json"))
                            .withBody("{\"message\":\"Internal Server Error\"}").build();
                }
                byte[] body = response.getBody() == null ? new byte[0]
                        : response.getIsBase64Encoded() ? Base64.getDecoder().decode(response.getBody())
                        : response.getBody().getBytes(StandardCharsets.UTF_8);
                if (response.getHeaders() != null) {
                    response.getHeaders().forEach(exchange.getResponseHeaders()::set);
                }
                exchange.sendResponseHeaders(response.getStatusCode(), body.length == 0 ? -1 : body.length);
                if (body.length > 0) {
                    exchange.getResponseBody().write(body);
                }
            }
        });
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static APIGatewayV2HTTPEvent toEvent(HttpExchange exchange) throws IOException {
        URI uri = exchange.getRequestURI();
        Map<String, String> headers = new LinkedHashMap<>();
        exchange.getRequestHeaders().forEach((name, values) ->
                headers.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
        Map<String, String> query = new LinkedHashMap<>();
        String rawQuery = uri.getRawQuery();
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                // API Gateway joins repeated parameters with commas.
                query.merge(name, value, (a, b) -> a + "," + b);
            }
        }
        byte[] bytes = exchange.getRequestBody().readAllBytes();
        String body = null;
        boolean base64 = false;
        if (bytes.length > 0) {
            try {
                body = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                body = Base64.getEncoder().encodeToString(bytes);
                base64 = true;
            }
        }
        return LocalEvents.http(exchange.getRequestMethod(), uri.getRawPath(), rawQuery, query, headers, body, base64);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}
