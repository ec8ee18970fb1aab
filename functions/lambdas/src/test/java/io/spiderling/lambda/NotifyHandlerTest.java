package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.notify.WebhookSignature;
import io.spiderling.testkit.SampleClients;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(HandlerProfiles.Notify.class)
@QuarkusTestResource(TestStack.class)
class NotifyHandlerTest {

    private final DynamoDbBatchStore batches =
            new DynamoDbBatchStore(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable());

    private record Received(Map<String, String> headers, byte[] body) {}

    @Test
    void handleRequest_whenSampleCompletionMessage_expectOneSignedPostAndTheDeliveryRecorded() throws Exception {
        ObjectNode event = Events.load("sqs-notify.json");
        String batchId = Events.JSON.readTree(event.at("/Records/0/body").asText()).get("batchId").asText();
        List<Received> received = Collections.synchronizedList(new ArrayList<>());
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, v.getFirst()));
            received.add(new Received(headers, exchange.getRequestBody().readAllBytes()));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try {
            String hook = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
            batches.createBatch(BatchHeader.builder().batchId(batchId).total(0).source(BatchSource.HTTP)
                    .createdAt(Instant.now())
                    .options(BatchOptions.builder().callbackUrl(hook).build())
                    .client(SampleClients.CLIENT_A).build());
            batches.markCompleted(batchId, Instant.now());

            JsonNode first = Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());
            JsonNode duplicate = Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());

            assertEquals(0, first.get("batchItemFailures").size());
            assertEquals(0, duplicate.get("batchItemFailures").size());
            assertEquals(1, received.size(), "a duplicate message posts nothing");
            var verified = WebhookSignature.verify(received.getFirst().headers(), received.getFirst().body(),
                    SampleClients.SECRET_A, Instant.now(), Duration.ofMinutes(5));
            assertEquals(batchId + ":completed",
                    assertInstanceOf(WebhookSignature.Verification.Valid.class, verified).eventId());
            assertEquals(1, batches.status(batchId).orElseThrow().callback().attempts());
        } finally {
            receiver.stop(0);
        }
    }
}
