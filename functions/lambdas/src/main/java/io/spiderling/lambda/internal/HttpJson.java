package io.spiderling.lambda.internal;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** JSON in and out of API Gateway HTTP API (payload 2.0) events, with Jackson's tree model only. */
public final class HttpJson {

    public static final ObjectMapper JSON = new ObjectMapper();

    private HttpJson() {}

    public static APIGatewayV2HTTPResponse json(int status, ObjectNode body) {
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(status)
                .withHeaders(Map.of("content-type", "application/json"))
                .withBody(body.toString())
                .build();
    }

    /** Errors always carry a JSON body naming the problem, never an empty page. */
    public static APIGatewayV2HTTPResponse error(int status, String message) {
        return json(status, JSON.createObjectNode().put("error", message));
    }

    public static String method(APIGatewayV2HTTPEvent event) {
        var http = event.getRequestContext() == null ? null : event.getRequestContext().getHttp();
        return http == null || http.getMethod() == null ? "" : http.getMethod().toUpperCase(Locale.ROOT);
    }

    public static String path(APIGatewayV2HTTPEvent event) {
        String path = event.getRawPath();
        if (path == null && event.getRequestContext() != null && event.getRequestContext().getHttp() != null) {
            path = event.getRequestContext().getHttp().getPath();
        }
        return path == null ? "/" : path;
    }

    /** A request header by name in any case (API Gateway lower-cases them; local callers may not). */
    public static Optional<String> header(APIGatewayV2HTTPEvent event, String name) {
        if (event.getHeaders() == null) {
            return Optional.empty();
        }
        return event.getHeaders().entrySet().stream()
                .filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue)
                .findFirst();
    }

    public static Optional<String> query(APIGatewayV2HTTPEvent event, String name) {
        return event.getQueryStringParameters() == null ? Optional.empty()
                : Optional.ofNullable(event.getQueryStringParameters().get(name));
    }

    /** The body as bytes, decoded from base64 when API Gateway encoded it. */
    public static byte[] body(APIGatewayV2HTTPEvent event) {
        String body = event.getBody();
        if (body == null) {
            return new byte[0];
        }
        return event.getIsBase64Encoded() ? Base64.getDecoder().decode(body) : body.getBytes(StandardCharsets.UTF_8);
    }
}
