package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.core.pipeline.Ingest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(HandlerProfiles.Ingest.class)
@QuarkusTestResource(TestStack.class)
class IngestHttpHandlerTest {

    @Inject
    Pipeline pipeline;

    @Test
    void handleRequest_whenSampleBatch_expectAcceptedWithDuplicatesAndRejectionsAndStoredManifest() throws Exception {
        JsonNode response = call(Events.load("api-post-batches.json"));

        assertEquals(202, response.get("statusCode").asInt());
        JsonNode body = Events.JSON.readTree(response.get("body").asText());
        assertEquals(2, body.get("accepted").asInt());
        assertEquals(1, body.get("duplicates").asInt());
        assertEquals("ftp://example.net/file", body.get("rejected").get(0).get("url").asText());
        assertEquals("unsupported scheme: ftp", body.get("rejected").get(0).get("reason").asText());
        String batchId = body.get("batchId").asText();
        assertEquals("/batches/" + batchId, body.get("status").asText());

        var status = pipeline.queries().batch(batchId).orElseThrow();
        assertEquals(2, status.header().total());
        assertEquals(2, status.queued());
        var s3 = TestStack.aws().s3();
        String manifest = s3.getObjectAsBytes(b -> b.bucket(TestStack.resources().bucket())
                .key(Ingest.manifestKey(batchId))).asString(StandardCharsets.UTF_8);
        assertEquals("https://example.com/\nhttps://example.org/b\n", manifest);
    }

    @Test
    void handleRequest_whenMalformedJson_expect400NamingTheProblem() throws Exception {
        JsonNode body = error(withBody("{\"urls\": ["));
        assertTrue(body.get("error").asText().startsWith("malformed JSON"), body.toString());
    }

    @Test
    void handleRequest_whenUrlIsNotAString_expect400NamingTheIndex() throws Exception {
        JsonNode body = error(withBody("{\"urls\": [\"https://example.com/\", 7]}"));
        assertEquals("\"urls\"[1] must be a string, was number", body.get("error").asText());
    }

    @Test
    void handleRequest_whenEmptyList_expect400() throws Exception {
        assertEquals("urls must not be empty", error(withBody("{\"urls\": []}")).get("error").asText());
    }

    @Test
    void handleRequest_whenNoUrlIsValid_expect400WithEveryRejection() throws Exception {
        JsonNode body = error(withBody("{\"urls\": [\"mailto:a@example.com\", \"http://\"]}"));
        assertEquals("no acceptable URL in the batch", body.get("error").asText());
        assertEquals(2, body.get("rejected").size());
    }

    private static ObjectNode withBody(String body) {
        ObjectNode event = Events.load("api-post-batches.json");
        event.put("body", body);
        return event;
    }

    private static JsonNode error(ObjectNode event) throws Exception {
        JsonNode response = call(event);
        assertEquals(400, response.get("statusCode").asInt(), response.toString());
        assertEquals("application/json", response.get("headers").get("content-type").asText());
        return Events.JSON.readTree(response.get("body").asText());
    }

    private static JsonNode call(ObjectNode event) throws Exception {
        return Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
    }
}
