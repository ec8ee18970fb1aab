package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * The query API against requests API Gateway would pass on but no client should send: odd paths and parameters,
 * bodies of the wrong shape, bodies flagged base64 that are not, events missing their request context. Each is
 * answered with a JSON client error, never a server error. Shares the API function's boot with ApiHandlerTest.
 */
@QuarkusTest
@TestProfile(HandlerProfiles.Api.class)
@QuarkusTestResource(TestStack.class)
class ApiHostileInputTest {

    @ParameterizedTest(name = "{0} {1} url={2} body={3}")
    @CsvFileSource(resources = "/hostile/api-requests.csv", numLinesToSkip = 1, delimiter = '|', quoteCharacter = '`')
    void handleRequest_whenRequestIsHostile_expectAJsonClientError(String method, String path, String url,
            String body) throws Exception {
        JsonNode response = call(request(method, path, url, body));

        assertClientError(response);
    }

    @Test
    void handleRequest_whenBase64FlagIsSetOnABodyThatIsNotBase64_expect400() throws Exception {
        ObjectNode event = request("POST", "/urls/batchGet", null, "{\"urls\":[]}").put("isBase64Encoded", true);

        JsonNode response = call(event);

        assertEquals(400, response.get("statusCode").asInt(), response.toString());
        assertEquals("body is flagged base64 but is not valid base64",
                Events.JSON.readTree(response.get("body").asText()).get("error").asText());
    }

    @Test
    void handleRequest_whenEventLacksRequestContextAndPath_expectAJsonClientError() throws Exception {
        ObjectNode event = Events.load("api-get-batch.json");
        event.remove("requestContext");
        event.remove("rawPath");
        event.remove("routeKey");

        assertClientError(call(event));
    }

    @Test
    void handleRequest_whenBodiesAreRandomHostileJson_expectJsonClientErrorsOrAnswersNeverServerErrors()
            throws Exception {
        HostileJson documents = new HostileJson(23);
        for (int i = 0; i < 60; i++) {
            for (String[] route : new String[][] {{"POST", "/urls/batchGet", null},
                    {"PATCH", "/urls/fields", "https://hostile.example/"}}) {
                ObjectNode event = request(route[0], route[1], route[2], null)
                        .put("body", Base64.getEncoder().encodeToString(documents.next()))
                        .put("isBase64Encoded", true);

                JsonNode response = call(event);

                assertTrue(response.get("statusCode").asInt() < 500, response.toString());
                assertTrue(Events.JSON.readTree(response.get("body").asText()).isObject(), response.toString());
            }
        }
    }

    /** The sample GET request, authorized as client-a, turned into this request. */
    private static ObjectNode request(String method, String path, String url, String body) {
        ObjectNode event = Events.load("api-get-url.json");
        event.put("rawPath", path).put("routeKey", method + " " + path).put("rawQueryString", "");
        ((ObjectNode) event.at("/requestContext/http")).put("method", method).put("path", path);
        ObjectNode query = event.putObject("queryStringParameters");
        if (url != null) {
            query.put("url", url);
        }
        if (body != null) {
            event.put("body", body);
        } else {
            event.remove("body");
        }
        return event;
    }

    private static void assertClientError(JsonNode response) throws Exception {
        int status = response.get("statusCode").asInt();
        assertTrue(status >= 400 && status < 500, response.toString());
        assertTrue(Events.JSON.readTree(response.get("body").asText()).has("error"), response.toString());
    }

    private static JsonNode call(ObjectNode event) throws Exception {
        return Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
    }
}
