package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.quota.Quota;
import io.spiderling.lambda.ingest.IngestQueueHandler;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.SampleClients;
import io.spiderling.testkit.StackResources;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 end to end, over the local HTTP API as an operator would call it: the kill switch holds a batch and lets
 * it go; an opted-out site is never contacted while another site is fetched; a quota answers 429 with its reset time,
 * and an SQS message over its quota becomes a refused batch that says why.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class OperatorControlsEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration DONE_WITHIN = Duration.ofSeconds(30);

    @Test
    void operator_whenPausingOptingOutAndSettingQuotas_expectEachToApplyOverTheApi(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(2);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults())
                                .withConfig("spiderling.fetch.rate-overrides-file",
                                        sites.rateOverrides(dir, 20).toString())
                                // The sweep releases what the switch held as soon as it is on again.
                                .withSweepEvery(Duration.ofMillis(200)))) {
            LocalSite kept = sites.site(0);
            LocalSite optedOut = sites.site(1);
            List.of("/p1", "/p2", "/p3").forEach(p -> kept.page(p, "<title>kept " + p + "</title>"));
            optedOut.page("/never", "<title>never</title>");

            // A client that is no admin is refused, and changes nothing.
            HttpResponse<String> refused = send(local, "PUT", "/admin/fetching", "{\"paused\":true}",
                    SampleClients.TOKEN_A);
            assertEquals(403, refused.statusCode(), refused.body());
            assertTrue(JSON.readTree(refused.body()).get("error").asText().startsWith("admin only"));

            // Paused: a batch waits, the switch named as the reason, and no site is asked anything.
            assertEquals(200, admin(local, "PUT", "/admin/fetching", "{\"paused\":true}").statusCode());
            String held = LocalApi.submit(local, List.of(kept.url("/p1")));
            JsonNode waiting = awaitWaitingOnTheSwitch(local, held, DONE_WITHIN);
            assertFalse(waiting.get("done").asBoolean(), waiting.toString());
            assertEquals(0, kept.requestCount("/p1"), "nothing fetched while paused");

            // Resumed: it goes on where it stopped.
            assertEquals(200, admin(local, "PUT", "/admin/fetching", "{\"paused\":false}").statusCode());
            JsonNode resumed = LocalApi.awaitDone(local, held, DONE_WITHIN);
            assertEquals(1, resumed.at("/counts/fetched").asInt(), resumed.toString());

            // Opted out over the API: its URLs end disallowed(opt-out), never requested; the other site is fetched.
            HttpResponse<String> optOut = admin(local, "PUT", "/admin/opt-outs/" + optedOut.host(), null);
            assertEquals(200, optOut.statusCode(), optOut.body());
            String mixed = LocalApi.submit(local, List.of(optedOut.url("/never"), kept.url("/p2")));
            JsonNode done = LocalApi.awaitDone(local, mixed, DONE_WITHIN);
            assertEquals(1, done.at("/counts/fetched").asInt(), done.toString());
            assertEquals(1, done.at("/counts/disallowed").asInt(), done.toString());
            JsonNode disallowed = LocalApi.get(local, "/batches/" + mixed + "/urls?state=disallowed").at("/items/0");
            assertEquals(optedOut.url("/never"), disallowed.get("url").asText(), disallowed.toString());
            assertEquals("opt-out", disallowed.get("reason").asText(), disallowed.toString());
            assertEquals(0, optedOut.requestCount("/never"), "an opted-out site is never contacted");
            assertEquals(0, optedOut.requestCount("/robots.txt"), "not even for its robots.txt");
            JsonNode listed = JSON.readTree(admin(local, "GET", "/admin/opt-outs", null).body());
            assertEquals(optedOut.host(), listed.at("/sites/0/site").asText(), listed.toString());
            assertEquals("api", listed.at("/sites/0/source").asText());
            HttpResponse<String> optIn = admin(local, "DELETE", "/admin/opt-outs/" + optedOut.host(), null);
            assertTrue(optIn.statusCode() / 100 == 2, optIn.statusCode() + ": " + optIn.body());
            assertEquals(0, JSON.readTree(admin(local, "GET", "/admin/opt-outs", null).body()).get("sites").size(),
                    "removed over the API: the list is empty again");

            // A quota: client A's day holds what it used plus one more URL; a batch of two is refused with 429.
            long used = JSON.readTree(admin(local, "GET", "/admin/quotas/" + SampleClients.CLIENT_A, null).body())
                    .get("used").asLong();
            assertEquals(200, admin(local, "PUT", "/admin/quotas/" + SampleClients.CLIENT_A,
                    "{\"urlsPerDay\":" + (used + 1) + "}").statusCode());
            HttpResponse<String> over = send(local, "POST", "/batches", "{\"urls\":[\"" + kept.url("/p3") + "\",\""
                    + kept.url("/p4") + "\"]}", SampleClients.TOKEN_A);
            assertEquals(429, over.statusCode(), over.body());
            JsonNode overBody = JSON.readTree(over.body());
            Instant resetAt = Instant.parse(overBody.get("resetAt").asText());
            assertEquals(Quota.resetAt(Instant.now()), resetAt, overBody.toString());
            long retryAfter = Long.parseLong(over.headers().firstValue("retry-after").orElseThrow());
            assertTrue(retryAfter > 0 && retryAfter <= Duration.between(Instant.now(), resetAt).toSeconds() + 1,
                    retryAfter + " s");
            assertEquals(used + 1, overBody.get("urlsPerDay").asLong());
            assertEquals(202, send(local, "POST", "/batches", "{\"urls\":[\"" + kept.url("/p3") + "\"]}",
                    SampleClients.TOKEN_A).statusCode(), "one more URL still fits");

            // The SQS ingest queue's client over its quota: the message's batch is refused, saying why, and ends.
            assertEquals(200, admin(local, "PUT", "/admin/quotas/" + IngestQueueHandler.CLIENT,
                    "{\"urlsPerDay\":1}").statusCode());
            String messageId = aws.sqs().sendMessage(b -> b.queueUrl(resources.ingestQueueUrl())
                    .messageBody("{\"urls\":[\"" + kept.url("/q1") + "\",\"" + kept.url("/q2") + "\"]}"))
                    .messageId();
            BatchStatus queued = awaitBatch(new DynamoDbBatchStore(aws.dynamoDb(), resources.batchesTable()),
                    IngestQueueHandler.batchIdFor(messageId), DONE_WITHIN);
            assertTrue(queued.done(), "a refused batch ends at once");
            assertEquals(0, queued.header().total());
            String reason = queued.header().rejected().get(0).reason();
            assertTrue(reason.startsWith("quota exceeded: 2 URLs asked, 1 of 1 left today (UTC); resets at "), reason);
            assertEquals(0, kept.requestCount("/q1") + kept.requestCount("/q2"));
        }
    }

    private static JsonNode awaitWaitingOnTheSwitch(LocalSpiderling local, String batchId, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode status = LocalApi.get(local, "/batches/" + batchId);
            for (JsonNode w : status.get("waiting")) {
                if (w.get("reason").asText().equals("fetching-paused") && status.path("planned").asBoolean(true)) {
                    return status;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("never waited on the kill switch: " + status);
            }
            Thread.sleep(100);
        }
    }

    private static BatchStatus awaitBatch(DynamoDbBatchStore batches, String batchId, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<BatchStatus> status = batches.status(batchId).filter(BatchStatus::done);
            if (status.isPresent()) {
                return status.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no ended batch " + batchId);
            }
            Thread.sleep(100);
        }
    }

    private static HttpResponse<String> admin(LocalSpiderling local, String method, String path, String body)
            throws Exception {
        return send(local, method, path, body, SampleClients.TOKEN_OPERATOR);
    }

    private static HttpResponse<String> send(LocalSpiderling local, String method, String path, String body,
            String token) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(local.apiUri().resolve(path))
                .header("authorization", "Bearer " + token)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
