package io.spiderling.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * The Spiderling HTTP API as a client sees it, the same for the embedded stack and a deployment: JSON in and out,
 * with a bearer token or, for a deployment with IAM authorization, a SigV4 signature. An unreachable endpoint and
 * refused credentials become {@link CliException}s with their exit codes; every other answer goes back to the caller.
 */
public final class ApiClient {

    /** How requests prove who sends them. */
    public sealed interface Credentials {
        /** {@code Authorization: Bearer <token>}: the embedded stack, and a deployment with token authorization. */
        record Bearer(String token) implements Credentials {}

        /** A SigV4 signature for API Gateway ({@code execute-api}), with credentials from the AWS default chain. */
        record SigV4(String region, AwsCredentialsProvider provider) implements Credentials {}
    }

    /** One answer: its status and its JSON body (a NullNode when the body is empty or not JSON). */
    public record Response(int status, JsonNode body) {
        public boolean ok() {
            return status / 100 == 2;
        }

        /**
         * This answer when it is a 2xx or one of {@code alsoExpected}; otherwise the failure as a {@link CliException}:
         * 404 is {@code notFound} (exit 6), 400 the API's own error (a usage mistake, exit 2), anything else an
         * internal error naming {@code request}.
         */
        public Response expect(String request, String notFound, int... alsoExpected) {
            if (ok() || java.util.Arrays.stream(alsoExpected).anyMatch(s -> s == status)) {
                return this;
            }
            throw switch (status) {
                case 404 -> new CliException(ExitCode.NOT_FOUND, notFound);
                case 400 -> new CliException(ExitCode.USAGE, error());
                default -> new CliException(ExitCode.INTERNAL, request + " answered " + status + ": " + error());
            };
        }

        /** The API's {@code error} member, or the status when there is none. */
        public String error() {
            return body.path("error").asText(body.path("message").asText("HTTP " + status));
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();
    /** Headers java.net.http sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect", "upgrade");

    private final URI base;
    private final Credentials credentials;
    private final HttpClient http;

    public ApiClient(URI base, Credentials credentials) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.credentials = credentials;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public URI base() {
        return base;
    }

    public Response get(String pathAndQuery) {
        return send("GET", pathAndQuery, null, Map.of());
    }

    public Response post(String path, String json, Map<String, String> headers) {
        return send("POST", path, json, headers);
    }

    public Response delete(String path) {
        return send("DELETE", path, null, Map.of());
    }

    /** Uploads {@code file} to a presigned URL the API handed out; the URL carries its own authorization. */
    public int putPresigned(URI url, Map<String, String> headers, Path file) {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(Duration.ofMinutes(10));
        headers.forEach(request::header);
        try {
            return http.send(request.PUT(HttpRequest.BodyPublishers.ofFile(file)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw unreachable(url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERRUPTED, "interrupted");
        }
    }

    /** Downloads a presigned link to {@code target}; returns the status. */
    public int download(URI url, Path target) {
        try {
            return http.send(HttpRequest.newBuilder(url).timeout(Duration.ofMinutes(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofFile(target)).statusCode();
        } catch (IOException e) {
            throw unreachable(url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERRUPTED, "interrupted");
        }
    }

    private Response send(String method, String pathAndQuery, String json, Map<String, String> headers) {
        URI uri = base.resolve(pathAndQuery.startsWith("/") ? pathAndQuery.substring(1) : pathAndQuery);
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (json != null) {
            request.header("content-type", "application/json");
        }
        headers.forEach(request::header);
        authorize(request, method, uri, body, headers, json != null);
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw unreachable(uri, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERRUPTED, "interrupted");
        }
        JsonNode node = parse(response.body());
        Response answer = new Response(response.statusCode(), node);
        if (answer.status() == 401 || answer.status() == 403) {
            throw new CliException(ExitCode.AUTH, "the API at " + base + " refused the credentials (" + answer.status()
                    + ": " + answer.error() + "). " + switch (credentials) {
                        case Credentials.Bearer b -> "Check --token or SPIDERLING_TOKEN.";
                        case Credentials.SigV4 s -> "Check the AWS credentials and region (" + s.region()
                                + ") and that the caller may invoke the API.";
                    });
        }
        return answer;
    }

    private void authorize(HttpRequest.Builder request, String method, URI uri, byte[] body,
            Map<String, String> headers, boolean json) {
        switch (credentials) {
            case Credentials.Bearer bearer -> request.header("authorization", "Bearer " + bearer.token());
            case Credentials.SigV4 sigV4 -> signed(sigV4, method, uri, body, headers, json).forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))
                        && !headers.containsKey(name) && !(json && name.equalsIgnoreCase("content-type"))) {
                    values.forEach(value -> request.header(name, value));
                }
            });
        }
    }

    /** The headers SigV4 adds for API Gateway: Authorization, X-Amz-Date, the content hash and any session token. */
    static Map<String, List<String>> signed(Credentials.SigV4 sigV4, String method, URI uri, byte[] body,
            Map<String, String> headers, boolean json) {
        SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.fromValue(method)).uri(uri);
        headers.forEach(unsigned::putHeader);
        if (json) {
            unsigned.putHeader("content-type", "application/json");
        }
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(sigV4.provider().resolveCredentials())
                .request(unsigned.build())
                .payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                .putProperty(AwsV4HttpSigner.REGION_NAME, sigV4.region()));
        return signed.request().headers();
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return NullNode.getInstance();
        }
        try {
            return JSON.readTree(body);
        } catch (IOException notJson) {
            return JSON.createObjectNode().put("error", firstLine(body));
        }
    }

    private static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }

    private static CliException unreachable(URI uri, IOException e) {
        String why = e instanceof ConnectException ? "connection refused"
                : e instanceof HttpConnectTimeoutException ? "no answer to connect within 10 s"
                : e instanceof HttpTimeoutException ? "no answer in time"
                : String.valueOf(e.getMessage());
        return new CliException(ExitCode.UNAVAILABLE, "cannot reach " + uri.getScheme() + "://" + uri.getAuthority()
                + ": " + why, e);
    }
}
