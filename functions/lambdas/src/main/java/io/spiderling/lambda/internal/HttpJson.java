package io.spiderling.lambda.internal;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import io.spiderling.core.quota.Quota;
import java.util.Map;
import java.util.Optional;

/** JSON in and out of API Gateway HTTP API (payload 2.0) events, with Jackson's tree model only. */
public final class HttpJson {

    /**
     * Reads request bodies and queue messages strictly: a second value after the document, or a field given twice,
     * is malformed rather than silently dropped (which copy wins differs between parsers). Jackson's stream limits
     * (nesting depth 1000, numbers of 1000 digits, strings of 20 MB) stay at their defaults.
     */
    public static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private HttpJson() {}

    public static APIGatewayV2HTTPResponse json(int status, ObjectNode body) {
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(status)
                .withHeaders(Map.of("content-type", "application/json"))
                .withBody(body.toString())
                .build();
    }

    /**
     * 429 for a client over its quota: {@code Retry-After} in seconds until the quota resets, and a body naming the
     * limit, what was used and asked, and {@code resetAt} (the next UTC midnight).
     */
    public static APIGatewayV2HTTPResponse overQuota(Quota.Decision.OverQuota over) {
        ObjectNode body = JSON.createObjectNode().put("error", over.reason()).put("urlsPerDay", over.limit())
                .put("used", over.used()).put("requested", over.requested()).put("resetAt", over.resetAt().toString())
                .put("retryAfterSeconds", over.retryAfter().toSeconds());
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(429)
                .withHeaders(Map.of("content-type", "application/json", "retry-after",
                        Long.toString(over.retryAfter().toSeconds())))
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

    /**
     * The body as bytes, decoded from base64 when API Gateway encoded it; empty (not an empty array) when the event
     * says base64 and the body is not, which the caller answers with {@link #notBase64()}.
     */
    public static Optional<byte[]> body(APIGatewayV2HTTPEvent event) {
        String body = event.getBody();
        if (body == null) {
            return Optional.of(new byte[0]);
        }
        if (!event.getIsBase64Encoded()) {
            return Optional.of(body.getBytes(StandardCharsets.UTF_8));
        }
        try {
            return Optional.of(Base64.getDecoder().decode(body));
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
    }

    /** The answer to a body {@link #body} could not decode. */
    public static APIGatewayV2HTTPResponse notBase64() {
        return error(400, "body is flagged base64 but is not valid base64");
    }
}
