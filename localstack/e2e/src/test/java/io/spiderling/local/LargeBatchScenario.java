package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.StackResources;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * {@link LargeBatchTest}'s scenario, run as the main class of a JVM whose heap that test fixes: a full-size batch,
 * planned and released through the frontier but not fetched (no fetch pollers run; the scenario takes the jobs off the
 * queue itself), with the emulators in the same heap. A failed check ends the JVM with the assertion's stack trace and
 * a non-zero status.
 */
final class LargeBatchScenario {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES, true);
    private static final int DISTINCT = 7_000;
    private static final int DUPLICATES = 3_000;
    private static final int HOSTS = 70;

    /** The heap {@link LargeBatchTest} gives this JVM, emulators included. */
    static final String HEAP = "-Xmx384m";

    private LargeBatchScenario() {}

    public static void main(String[] args) {
        // Whatever happens, the JVM ends: the emulators' non-daemon threads would keep it alive.
        try {
            assertTrue(Runtime.getRuntime().maxMemory() <= 400L * 1024 * 1024, "the scenario must run with " + HEAP);
            try (EmbeddedAws aws = EmbeddedAws.start()) {
                run(aws, aws.provision("large-batch"));
            }
            System.out.println("large batch: every check passed");
            System.exit(0);
        } catch (Throwable failed) {
            failed.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(EmbeddedAws aws, StackResources resources) throws Exception {
        List<String> distinct = new ArrayList<>();
        for (int i = 0; i < DISTINCT; i++) {
            distinct.add("https://site-" + (i % HOSTS) + ".example/page/" + i + "?utm_source=mail");
        }
        List<String> submitted = new ArrayList<>(distinct);
        Random random = new Random(42);
        for (int i = 0; i < DUPLICATES; i++) {
            String url = distinct.get(random.nextInt(DISTINCT));
            submitted.add(switch (i % 3) {
                case 0 -> url.replace("https://site-", "HTTPS://SITE-");
                case 1 -> url.replace(".example/", ".example:443/");
                default -> url + "#section";
            });
        }
        Collections.shuffle(submitted, random);

        try (LocalSpiderling local = LocalSpiderling.start(aws, resources,
                LocalApi.withSampleClients(new LocalSpiderling.Options(0, 0, Clock.systemUTC())))) {
            JsonNode accepted = JSON.readTree(local.http(post(submitted)).getBody());
            assertEquals(DISTINCT, accepted.get("accepted").asInt(), accepted.toString());
            assertEquals(DUPLICATES, accepted.get("duplicates").asInt());
            assertTrue(local.awaitS3Events(Duration.ofMinutes(10)), "planning did not finish");

            // Stand in for the fetchers: take what is queued, check no site ever has more than its cap in the queue,
            // and report each job finished so the frontier releases the next.
            Map<String, Set<String>> urlsBySite = new HashMap<>();
            int jobs = 0;
            int cap = local.pipeline().config().get(io.spiderling.catalog.ConfigKeys.FRONTIER_DEPTH_CAP);
            for (List<Message> queued = drain(aws, resources.fetchQueueUrl()); !queued.isEmpty();
                    queued = drain(aws, resources.fetchQueueUrl())) {
                Map<String, Integer> inQueue = new HashMap<>();
                for (Message m : queued) {
                    FetchJob job = FetchJobCodec.decode(m.body());
                    // One of the site's two message groups (site#k), chosen by the URL.
                    assertEquals(job.messageGroupId(2),
                            m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID));
                    assertTrue(inQueue.merge(job.siteKey().value(), 1, Integer::sum) <= cap, "over the site's cap");
                    assertTrue(urlsBySite.computeIfAbsent(job.siteKey().value(), k -> new HashSet<>())
                            .add(job.url().value()), "queued twice: " + job);
                    jobs++;
                }
                // As an invocation does: the places freed together, each site released once at the end.
                List<Message> taken = queued;
                local.asInvocationOf(FunctionNames.FETCH, () -> {
                    try (var releases = local.pipeline().frontier().releases()) {
                        taken.forEach(m -> releases.finished(FetchJobCodec.decode(m.body())));
                    }
                    return null;
                });
            }

            assertEquals(DISTINCT, jobs, "one fetch job per distinct URL");
            assertEquals(HOSTS, urlsBySite.size());
            String batchId = accepted.get("batchId").asText();
            JsonNode status = JSON.readTree(local.http(get("/batches/" + batchId)).getBody());
            assertEquals(DISTINCT, status.get("total").asInt());
            assertEquals(DISTINCT, status.at("/counts/queued").asInt());
            assertEquals(DUPLICATES, status.get("duplicates").asInt());
        }
    }

    /**
     * Everything queued now. The releases were sent before this is called, so the first receive waits up to a second
     * for them and the later ones do not wait: an empty answer after the round's messages ends the round.
     */
    private static List<Message> drain(EmbeddedAws aws, String queueUrl) {
        List<Message> all = new ArrayList<>();
        while (true) {
            int wait = all.isEmpty() ? 1 : 0;
            List<Message> batch = aws.sqs().receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10)
                    .waitTimeSeconds(wait).messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
            if (batch.isEmpty()) {
                return all;
            }
            all.addAll(batch);
            aws.sqs().deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(batch.stream()
                    .map(m -> DeleteMessageBatchRequestEntry.builder().id(m.messageId())
                            .receiptHandle(m.receiptHandle()).build())
                    .toList()));
        }
    }

    private static APIGatewayV2HTTPEvent post(List<String> urls) throws Exception {
        ObjectNode event = PipelineEndToEndTest.sample("api-post-batches.json");
        ((ObjectNode) event.get("headers")).put("idempotency-key", "large-batch");
        ArrayNode array = JSON.createArrayNode();
        urls.forEach(array::add);
        event.put("body", JSON.createObjectNode().set("urls", array).toString());
        return JSON.treeToValue(event, APIGatewayV2HTTPEvent.class);
    }

    private static APIGatewayV2HTTPEvent get(String path) throws Exception {
        ObjectNode event = PipelineEndToEndTest.sample("api-get-batch.json");
        event.put("rawPath", path);
        ((ObjectNode) event.at("/requestContext/http")).put("path", path);
        return JSON.treeToValue(event, APIGatewayV2HTTPEvent.class);
    }
}
