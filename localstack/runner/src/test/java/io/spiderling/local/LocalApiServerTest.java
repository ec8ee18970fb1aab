package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class LocalApiServerTest {

    @Test
    void request_whenTheFunctionThrows_expectApiGatewaysInternalServerErrorNotADroppedConnection() throws Exception {
        try (LocalApiServer server = new LocalApiServer(0, event -> {
            throw new IllegalStateException("a store failed");
        })) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    server.uri().resolve("/batches/b1")).GET().build(), HttpResponse.BodyHandlers.ofString());

            assertEquals(500, response.statusCode());
            assertEquals("{\"message\":\"Internal Server Error\"}", response.body());
        }
    }
}
