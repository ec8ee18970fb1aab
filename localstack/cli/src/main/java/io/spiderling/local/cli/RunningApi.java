package io.spiderling.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * {@code <data>/api.json}: the API of the embedded stack a running {@code fetch} or {@code serve} holds open, so that
 * {@code status}, {@code get} and {@code cancel} can ask it while the data folder is locked. Removed on close; a file
 * left by a killed process names a pid that is gone, and is ignored.
 */
record RunningApi(URI uri, String token, long pid) {

    static final String FILE = "api.json";

    static Optional<RunningApi> find(Path data) {
        Path file = data.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            JsonNode node = ApiClient.JSON.readTree(file.toFile());
            RunningApi api = new RunningApi(URI.create(node.path("uri").asText()), node.path("token").asText(),
                    node.path("pid").asLong());
            return ProcessHandle.of(api.pid()).filter(ProcessHandle::isAlive).map(p -> api);
        } catch (IOException | IllegalArgumentException unreadable) {
            return Optional.empty();
        }
    }

    void write(Path data) {
        try {
            Files.createDirectories(data);
            Path tmp = data.resolve(FILE + ".tmp");
            Files.writeString(tmp, ApiClient.JSON.createObjectNode().put("uri", uri.toString()).put("token", token)
                    .put("pid", pid).toString());
            Files.move(tmp, data.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot write " + data.resolve(FILE) + ": " + e.getMessage(),
                    e);
        }
    }

    static void remove(Path data) {
        try {
            Files.deleteIfExists(data.resolve(FILE));
        } catch (IOException ignored) {
            // a stale file names a dead pid and is ignored
        }
    }
}
