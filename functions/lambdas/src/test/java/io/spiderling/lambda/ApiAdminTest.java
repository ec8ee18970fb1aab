package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbFetchSwitch;
import io.spiderling.aws.DynamoDbOptOutStore;
import io.spiderling.aws.DynamoDbQuotaStore;
import io.spiderling.core.quota.Quota;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.SampleClients;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The operator routes ({@code /admin}): admins only, each on its sample event. */
@QuarkusTest
@TestProfile(HandlerProfiles.Api.class)
@QuarkusTestResource(TestStack.class)
class ApiAdminTest {

    private static final List<String> SAMPLES = List.of("api-get-admin-fetching.json", "api-put-admin-fetching.json",
            "api-get-admin-opt-outs.json", "api-put-admin-opt-out.json", "api-delete-admin-opt-out.json",
            "api-get-admin-quota.json", "api-put-admin-quota.json");

    @ParameterizedTest
    @ValueSource(strings = {"api-get-admin-fetching.json", "api-put-admin-fetching.json",
            "api-get-admin-opt-outs.json", "api-put-admin-opt-out.json", "api-delete-admin-opt-out.json",
            "api-get-admin-quota.json", "api-put-admin-quota.json"})
    void handleRequest_whenAClientThatIsNoAdminCalls_expect403WithAReasonAndNothingChanged(String sample)
            throws Exception {
        ObjectNode event = Events.load(sample);
        ((ObjectNode) event.get("headers")).put("authorization", "Bearer " + SampleClients.TOKEN_A);

        JsonNode response = call(event);

        assertEquals(403, response.get("statusCode").asInt(), response.toString());
        String error = Events.JSON.readTree(response.get("body").asText()).get("error").asText();
        assertTrue(error.startsWith("admin only: ") && error.contains("client-a is not an admin"), error);
        assertFalse(new DynamoDbOptOutStore(TestStack.aws().dynamoDb(), TestStack.resources().sitesTable()).sites()
                .containsKey(new SiteKey("opted-out.example")), "nothing opted out");
    }

    @Test
    void handleRequest_whenNoOrWrongCredentials_expect401OnEveryAdminRoute() throws Exception {
        for (String sample : SAMPLES) {
            ObjectNode event = Events.load(sample);
            ((ObjectNode) event.get("headers")).remove("authorization");
            assertEquals(401, call(event).get("statusCode").asInt(), sample);
            ((ObjectNode) event.get("headers")).put("authorization", "Bearer not-a-token-of-anyone-0000");
            assertEquals(401, call(event).get("statusCode").asInt(), sample);
        }
    }

    @Test
    void handleRequest_whenTheOperatorPausesAndResumes_expectTheKillSwitchItemTheFetchersRead() throws Exception {
        DynamoDbFetchSwitch fetchers = new DynamoDbFetchSwitch(TestStack.aws().dynamoDb(),
                TestStack.resources().sitesTable(), Clock.systemUTC(), Duration.ZERO);
        ObjectNode pause = Events.load("api-put-admin-fetching.json").put("body", "{\"paused\":true}");
        try {
            JsonNode paused = ok(pause);

            assertTrue(paused.get("paused").asBoolean());
            assertEquals("PT5S", paused.get("appliesWithin").asText());
            assertTrue(fetchers.paused(), "the item the fetchers read");
            assertTrue(ok(Events.load("api-get-admin-fetching.json")).get("paused").asBoolean());
        } finally {
            assertFalse(ok(Events.load("api-put-admin-fetching.json")).get("paused").asBoolean());
        }
        assertFalse(fetchers.paused());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "[]", "{}", "{\"paused\":\"yes\"}", "{\"paused\":1}", "not json",
            "{\"paused\":true,\"extra\":1}"})
    void handleRequest_whenTheSwitchBodyIsBad_expect400SayingWhatItMustBe(String body) throws Exception {
        ObjectNode event = Events.load("api-put-admin-fetching.json").put("body", body);

        assertEquals("body must be {\"paused\":true} or {\"paused\":false}", error(event, 400));
    }

    @Test
    void handleRequest_whenTheOperatorOptsASiteOutAndIn_expectTheOneListToShowItBesideTheFile() throws Exception {
        ObjectNode put = Events.load("api-put-admin-opt-out.json");
        JsonNode added = ok(put);

        assertEquals("opted-out.example", added.get("site").asText());
        assertEquals("api", added.get("source").asText());
        List<String> listed = new ArrayList<>();
        ok(Events.load("api-get-admin-opt-outs.json")).get("sites").forEach(s -> listed.add(s.get("site").asText()
                + " " + s.get("source").asText()));
        assertTrue(listed.contains("opted-out.example api"), listed.toString());
        assertTrue(listed.contains(TestStack.FILED_OPT_OUT + " file"), listed.toString());

        assertTrue(ok(Events.load("api-delete-admin-opt-out.json")).get("removed").asBoolean());
        assertEquals("site opted-out.example is not opted out over the API",
                error(Events.load("api-delete-admin-opt-out.json"), 404));
    }

    @Test
    void handleRequest_whenDeletingASiteTheFileLists_expect409NamingTheFile() throws Exception {
        ObjectNode event = site(Events.load("api-delete-admin-opt-out.json"), TestStack.FILED_OPT_OUT);

        String error = error(event, 409);

        assertTrue(error.contains("spiderling.fetch.opt-out-file"), error);
    }

    @Test
    void handleRequest_whenTheSiteIsNoSiteKey_expect400NamingItsSiteKey() throws Exception {
        ObjectNode event = site(Events.load("api-put-admin-opt-out.json"), "www.example.com");

        assertEquals("site: 'www.example.com' is not a site key; its site key is 'example.com'", error(event, 400));
    }

    @Test
    void handleRequest_whenTheOperatorSetsAQuota_expectItWithTodaysUseAndResetTime() throws Exception {
        var store = new DynamoDbQuotaStore(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable());
        String client = "quota-shown";
        store.charge(client, Quota.day(Instant.now()), 3, 100);
        ObjectNode put = client(Events.load("api-put-admin-quota.json"), client).put("body", "{\"urlsPerDay\":50}");

        JsonNode set = ok(put);
        JsonNode shown = ok(client(Events.load("api-get-admin-quota.json"), client));

        assertEquals(set, shown);
        assertEquals(client, shown.get("client").asText());
        assertEquals(50, shown.get("urlsPerDay").asLong());
        assertEquals("client", shown.get("source").asText());
        assertEquals(3, shown.get("used").asLong());
        assertEquals(Quota.resetAt(Instant.now()).toString(), shown.get("resetAt").asText());
        assertEquals(Optional.of(50L), store.limit(client));
        assertEquals("default", ok(client(Events.load("api-get-admin-quota.json"), "never-set")).get("source")
                .asText());
    }

    @Test
    void handleRequest_whenTheClientIsAnIamRoleArn_expectItPercentDecoded() throws Exception {
        String role = "arn:aws:iam::123456789012:role/crawler";
        ObjectNode event = client(Events.load("api-put-admin-quota.json"), "arn:aws:iam::123456789012:role%2Fcrawler");

        assertEquals(role, ok(event).get("client").asText());
    }

    @Test
    void handleRequest_whenTheClientIsNotPercentEncodedWell_expect400() throws Exception {
        assertEquals("client: not a percent-encoded path segment",
                error(client(Events.load("api-get-admin-quota.json"), "bad%zz"), 400));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{}", "{\"urlsPerDay\":-1}", "{\"urlsPerDay\":1.5}", "{\"urlsPerDay\":\"10\"}",
            "{\"urlsPerDay\":10,\"x\":1}"})
    void handleRequest_whenTheQuotaBodyIsBad_expect400SayingWhatItMustBe(String body) throws Exception {
        ObjectNode event = Events.load("api-put-admin-quota.json").put("body", body);

        assertEquals("body must be {\"urlsPerDay\":N}, N a whole number >= 0 (0: unlimited)", error(event, 400));
    }

    private static ObjectNode site(ObjectNode event, String site) {
        event.put("rawPath", event.get("rawPath").asText().replace("opted-out.example", site));
        ((ObjectNode) event.get("pathParameters")).put("site", site);
        return event;
    }

    private static ObjectNode client(ObjectNode event, String client) {
        event.put("rawPath", "/admin/quotas/" + client);
        ((ObjectNode) event.get("pathParameters")).put("client", client);
        return event;
    }

    private static String error(ObjectNode event, int status) throws Exception {
        JsonNode response = call(event);
        assertEquals(status, response.get("statusCode").asInt(), response.toString());
        return Events.JSON.readTree(response.get("body").asText()).get("error").asText();
    }

    private static JsonNode ok(ObjectNode event) throws Exception {
        JsonNode response = call(event);
        assertEquals(200, response.get("statusCode").asInt(), response.toString());
        return Events.JSON.readTree(response.get("body").asText());
    }

    private static JsonNode call(ObjectNode event) throws Exception {
        return Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
    }
}
