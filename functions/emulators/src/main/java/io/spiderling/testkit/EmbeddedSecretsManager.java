package io.spiderling.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The part of AWS Secrets Manager Spiderling uses (CreateSecret, PutSecretValue, GetSecretValue of the current
 * version, string secrets), on a free port of 127.0.0.1, in memory. No emulator for Secrets Manager resolves from
 * Maven Central, and this much of its JSON 1.1 protocol is small; the SDK's real client talks to it, so its
 * requests, responses and errors go through the SDK's own (de)serialization. It does not check signatures.
 *
 * <p>Started on a file ({@link #start(String, String, Path)}), it writes its secrets there after every change and
 * reads them back on start, so a persistent local stack keeps its secrets' ARNs and texts.
 */
public final class EmbeddedSecretsManager implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET_PREFIX = "secretsmanager.";

    private record Secret(String arn, String name, String text, String versionId) {}

    private final Map<String, Secret> byName = new ConcurrentHashMap<>();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final String region;
    private final String account;
    private final Optional<Path> file;

    private EmbeddedSecretsManager(String region, String account, Optional<Path> file) {
        this.region = region;
        this.account = account;
        this.file = file;
        file.filter(Files::exists).ifPresent(this::load);
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("could not listen on 127.0.0.1", e);
        }
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** In memory. */
    public static EmbeddedSecretsManager start(String region, String account) {
        return new EmbeddedSecretsManager(region, account, Optional.empty());
    }

    /** Keeping its secrets in {@code file} (JSON), which it reads back when it exists. */
    public static EmbeddedSecretsManager start(String region, String account, Path file) {
        return new EmbeddedSecretsManager(region, account, Optional.of(file));
    }

    private void load(Path from) {
        try {
            for (JsonNode s : JSON.readTree(from.toFile())) {
                Secret secret = new Secret(s.get("arn").asText(), s.get("name").asText(), s.get("text").asText(),
                        s.get("versionId").asText());
                byName.put(secret.name(), secret);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the secrets in " + from, e);
        }
    }

    /** Writes every secret to the file, through a temporary file so a crash never leaves half of it. */
    private synchronized void save() {
        if (file.isEmpty()) {
            return;
        }
        ArrayNode all = JSON.createArrayNode();
        byName.values().forEach(s -> all.addObject().put("arn", s.arn()).put("name", s.name()).put("text", s.text())
                .put("versionId", s.versionId()));
        Path target = file.get();
        try {
            Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
            Files.write(temporary, JSON.writeValueAsBytes(all));
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the secrets to " + target, e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = Optional.ofNullable(exchange.getRequestHeaders().getFirst("X-Amz-Target")).orElse("");
            JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
            ObjectNode response;
            try {
                response = switch (target.startsWith(TARGET_PREFIX) ? target.substring(TARGET_PREFIX.length()) : "") {
                    case "CreateSecret" -> create(request);
                    case "PutSecretValue" -> put(request);
                    case "GetSecretValue" -> get(request);
                    default -> throw new Failure("UnknownOperationException", "not supported here: " + target);
                };
            } catch (Failure failure) {
                send(exchange, 400, JSON.createObjectNode().put("__type", failure.type).put("message",
                        failure.getMessage()));
                return;
            }
            send(exchange, 200, response);
        }
    }

    private ObjectNode create(JsonNode request) throws Failure {
        String name = required(request, "Name");
        Secret secret = new Secret("arn:aws:secretsmanager:" + region + ":" + account + ":secret:" + name + "-"
                + UUID.randomUUID().toString().substring(0, 6), name, request.path("SecretString").asText(""),
                UUID.randomUUID().toString());
        if (byName.putIfAbsent(name, secret) != null) {
            throw new Failure("ResourceExistsException", "the secret " + name + " already exists");
        }
        save();
        return version(secret);
    }

    private ObjectNode put(JsonNode request) throws Failure {
        Secret old = find(required(request, "SecretId"));
        Secret updated = new Secret(old.arn(), old.name(), required(request, "SecretString"),
                UUID.randomUUID().toString());
        byName.put(old.name(), updated);
        save();
        return version(updated);
    }

    private ObjectNode get(JsonNode request) throws Failure {
        Secret secret = find(required(request, "SecretId"));
        return version(secret).put("SecretString", secret.text());
    }

    private Secret find(String id) throws Failure {
        Secret secret = byName.get(id);
        if (secret == null) {
            secret = byName.values().stream().filter(s -> s.arn().equals(id)).findFirst().orElse(null);
        }
        if (secret == null) {
            throw new Failure("ResourceNotFoundException", "Secrets Manager can't find the specified secret.");
        }
        return secret;
    }

    private static ObjectNode version(Secret secret) {
        return JSON.createObjectNode().put("ARN", secret.arn()).put("Name", secret.name())
                .put("VersionId", secret.versionId());
    }

    private static String required(JsonNode request, String field) throws Failure {
        JsonNode value = request.get(field);
        if (value == null || !value.isTextual()) {
            throw new Failure("InvalidParameterException", field + " is required");
        }
        return value.asText();
    }

    private static void send(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** An error the protocol reports as {@code __type}. */
    private static final class Failure extends Exception {
        final String type;

        Failure(String type, String message) {
            super(message);
            this.type = type;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}
