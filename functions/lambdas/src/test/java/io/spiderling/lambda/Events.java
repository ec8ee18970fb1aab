package io.spiderling.lambda;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.restassured.RestAssured;
import io.restassured.response.ValidatableResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The sample events under {@code events/} (one copy, shared with the README), and a way to invoke the selected
 * handler with one through Quarkus's mock Lambda event server. Tests change only the fields that must point at their
 * own resources, such as a URL on a local site.
 */
final class Events {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DIR = locate();

    private Events() {}

    static ObjectNode load(String name) {
        try {
            return (ObjectNode) JSON.readTree(Files.readString(DIR.resolve(name)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code events/} folder at the top of the checkout. */
    static Path dir() {
        return DIR;
    }

    /** Posts the event to the mock event server; the response is the handler's return value as JSON. */
    static ValidatableResponse invoke(ObjectNode event) {
        int port = ConfigProvider.getConfig().getValue("quarkus.lambda.mock-event-server.test-port", Integer.class);
        return RestAssured.given()
                .baseUri("http://localhost:" + port)
                .contentType("application/json")
                .body(event.toString())
                .post("/_lambda_")
                .then();
    }

    private static Path locate() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("events")) && Files.exists(dir.resolve("mvnw"))) {
                return dir.resolve("events");
            }
        }
        throw new IllegalStateException("events/ not found above " + Path.of("").toAbsolutePath());
    }
}
