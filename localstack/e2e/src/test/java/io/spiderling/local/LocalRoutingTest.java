package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.spiderling.catalog.Operation;
import io.spiderling.catalog.Route;
import io.spiderling.catalog.Routes;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The local API serves exactly the route table: every route reaches a handler, anything else is API Gateway's 404.
 * The key directory, with signing off as by default, is the function's own 404 with a JSON error that says why.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class LocalRoutingTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String GATEWAY_NOT_FOUND = "{\"message\":\"Not Found\"}";
    private static final String SIGNING_OFF = "{\"error\":\"request signing is off in this deployment\"}";

    @Test
    void http_whenEachRouteOfTheTableIsCalled_reachesItsFunction(EmbeddedAws aws, StackResources resources)
            throws Exception {
        try (LocalSpiderling local = LocalSpiderling.start(aws, resources,
                LocalApi.withSampleClients(LocalSpiderling.Options.defaults()))) {
            for (Route route : Routes.ALL) {
                // Every path parameter filled: a batch id, and a site or client for the operator routes (which the
                // sample client, not an admin, is refused with a 403 of the function's own).
                String path = route.path().replace("{id}", "no-such-batch").replaceAll("\\{\\w+}", "example.com")
                        + "?url=https%3A%2F%2Fexample.com%2F";
                HttpResponse<String> response = HTTP.send(LocalApi.request(local, path)
                        .method(route.method(), HttpRequest.BodyPublishers.ofString("{}")).build(),
                        HttpResponse.BodyHandlers.ofString());

                assertNotEquals(GATEWAY_NOT_FOUND, response.body(), route.routeKey());
                assertNotEquals(500, response.statusCode(), route.routeKey() + ": " + response.body());
                if (route.operation().isAdmin()) {
                    assertEquals(403, response.statusCode(), route.routeKey() + ": " + response.body());
                }
                if (route.operation() == Operation.KEY_DIRECTORY) {
                    // Signing is off here: the function's own 404, which says so, rather than the gateway's.
                    assertEquals(404, response.statusCode(), response.body());
                    assertEquals(SIGNING_OFF, response.body());
                }
            }

            for (String[] request : new String[][] {{"GET", "/"}, {"PUT", "/batches/x"}, {"GET", "/urls/nothing"},
                    {"POST", "/batches/x/urls"}}) {
                HttpResponse<String> response = HTTP.send(LocalApi.request(local, request[1])
                        .method(request[0], HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(404, response.statusCode(), String.join(" ", request));
                assertEquals(GATEWAY_NOT_FOUND, response.body(), String.join(" ", request));
            }
        }
    }
}
