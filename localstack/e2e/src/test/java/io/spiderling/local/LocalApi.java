package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.spiderling.testkit.SampleClients;
import java.time.Duration;
import java.util.List;

/** The end-to-end tests' client of the local HTTP API, as a user with curl would call it. */
final class LocalApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private LocalApi() {}

    /** A request to the local API as client A of the sample clients file. */
    static HttpRequest.Builder request(LocalSpiderling local, String pathAndQuery) {
        return HttpRequest.newBuilder(local.apiUri().resolve(pathAndQuery))
                .header("authorization", "Bearer " + SampleClients.TOKEN_A);
    }

    /** Runner options with the sample clients file, so the sample events' token is accepted. */
    static LocalSpiderling.Options withSampleClients(LocalSpiderling.Options options) {
        return options.withConfig(LocalSpiderling.CLIENTS_FILE, SampleClients.file().toString());
    }

    /** GETs a path of the local API and expects 200. */
    static JsonNode get(LocalSpiderling local, String pathAndQuery) throws Exception {
        HttpResponse<String> response = HTTP.send(request(local, pathAndQuery).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    /** POSTs the URLs as one batch, expects 202, and returns the batch's id. */
    static String submit(LocalSpiderling local, List<String> urls) throws Exception {
        return submit(local, urls, JSON.createObjectNode());
    }

    /** POSTs the URLs as one batch with the other members of {@code options}, expects 202, returns the id. */
    static String submit(LocalSpiderling local, List<String> urls, com.fasterxml.jackson.databind.node.ObjectNode options)
            throws Exception {
        var array = JSON.createArrayNode();
        urls.forEach(array::add);
        HttpResponse<String> response = HTTP.send(request(local, "/batches")
                .POST(HttpRequest.BodyPublishers.ofString(options.deepCopy().set("urls", array).toString()))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, response.statusCode(), response.body());
        return JSON.readTree(response.body()).get("batchId").asText();
    }

    /**
     * Polls {@code GET /batches/{id}} until it is done with its completion recorded (written right after the last
     * count), or the timeout passes; returns the last status either way.
     */
    static JsonNode awaitDone(LocalSpiderling local, String batchId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode status = get(local, "/batches/" + batchId);
            if ((status.get("done").asBoolean() && status.has("completedAt")) || System.nanoTime() > deadline) {
                return status;
            }
            Thread.sleep(250);
        }
    }
}
