package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbQuotaStore;
import io.spiderling.core.quota.Quota;
import io.spiderling.testkit.SampleClients;
import jakarta.inject.Inject;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * POST /batches and POST /batches/uploads against a client's quota: 429 with Retry-After and resetAt, nothing stored.
 * Client B's quota is set here and lifted after each test, so the other ingest tests (client A) never meet one.
 */
@QuarkusTest
@TestProfile(HandlerProfiles.Ingest.class)
@QuarkusTestResource(TestStack.class)
class IngestQuotaTest {

    private final DynamoDbQuotaStore quotas =
            new DynamoDbQuotaStore(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable());

    @Inject
    Pipeline pipeline;

    @AfterEach
    void liftClientBsQuota() {
        quotas.setLimit(SampleClients.CLIENT_B, 0);
    }

    @Test
    void handleRequest_whenTheBatchGoesOverTheDaysQuota_expect429WithRetryAfterAndResetAtAndNothingStored()
            throws Exception {
        long used = quotas.used(SampleClients.CLIENT_B, Quota.day(Instant.now()));
        quotas.setLimit(SampleClients.CLIENT_B, used + 4);

        JsonNode first = call(asClientB(Events.load("api-post-batches.json"), "quota-first"));
        ObjectNode over = asClientB(Events.load("api-post-batches.json"), "quota-second");
        JsonNode second = call(over);

        assertEquals(202, first.get("statusCode").asInt(), first.toString());
        assertEquals(429, second.get("statusCode").asInt(), second.toString());
        JsonNode body = Events.JSON.readTree(second.get("body").asText());
        Instant resetAt = Quota.resetAt(Instant.now());
        assertEquals(resetAt.toString(), body.get("resetAt").asText());
        assertEquals(used + 4, body.get("urlsPerDay").asLong());
        assertEquals(used + 3, body.get("used").asLong(), "the first batch's three URLs");
        assertEquals(3, body.get("requested").asLong());
        long retryAfter = Long.parseLong(second.at("/headers/retry-after").asText());
        assertTrue(retryAfter > 0 && retryAfter <= 86_400, second.toString());
        assertTrue(body.get("error").asText().startsWith("quota exceeded: 3 URLs asked, 1 of "), body.toString());
        assertTrue(pipeline.queries().batch(batchId(over)).isEmpty(), "nothing stored");
    }

    @Test
    void handleRequest_whenARetryOfAnAcceptedBatchMeetsAFullQuota_expectTheBatchNot429() throws Exception {
        long used = quotas.used(SampleClients.CLIENT_B, Quota.day(Instant.now()));
        quotas.setLimit(SampleClients.CLIENT_B, used + 3);
        ObjectNode request = asClientB(Events.load("api-post-batches.json"), "quota-retried");

        JsonNode first = call(request);
        JsonNode retry = call(request);

        assertEquals(202, first.get("statusCode").asInt(), first.toString());
        assertEquals(202, retry.get("statusCode").asInt(), retry.toString());
        assertEquals(used + 3, quotas.used(SampleClients.CLIENT_B, Quota.day(Instant.now())), "charged once");
    }

    @Test
    void handleRequest_whenAnUploadStartsOnAUsedUpDay_expect429() throws Exception {
        long used = quotas.used(SampleClients.CLIENT_B, Quota.day(Instant.now()));
        quotas.setLimit(SampleClients.CLIENT_B, Math.max(used, 1));
        quotas.charge(SampleClients.CLIENT_B, Quota.day(Instant.now()), Math.max(used, 1) - used, Math.max(used, 1));

        JsonNode response = call(asClientB(Events.load("api-post-batches-uploads.json"), "quota-upload"));

        assertEquals(429, response.get("statusCode").asInt(), response.toString());
        assertTrue(response.at("/headers/retry-after").isTextual(), response.toString());
    }

    private static ObjectNode asClientB(ObjectNode event, String key) {
        ((ObjectNode) event.get("headers")).put("authorization", "Bearer " + SampleClients.TOKEN_B)
                .put("idempotency-key", key + "-" + System.nanoTime());
        return event;
    }

    /** The batch a request with an Idempotency-Key would be: the id derives from the client and the key. */
    private static String batchId(ObjectNode event) {
        return "k-" + io.spiderling.core.content.Hashing.sha256Hex(SampleClients.CLIENT_B + "\u0000"
                + event.at("/headers/idempotency-key").asText()).substring(0, 32);
    }

    private static JsonNode call(ObjectNode event) throws Exception {
        return Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
    }
}
