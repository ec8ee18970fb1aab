package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
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
import io.spiderling.lambda.notify.NotifyDeadLetterHandler;
import io.spiderling.testkit.SampleClients;
import jakarta.inject.Inject;
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

    @Inject
    NotifyDeadLetterHandler deadLetters;

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

    @Test
    void handleRequest_whenSampleChangeMessage_expectTheListenersEventSignedWithTheBatchIdAndAGivenUpOneCounted()
            throws Exception {
        ObjectNode event = Events.load("sqs-notify-changed.json");
        JsonNode message = Events.JSON.readTree(event.at("/Records/0/body").asText());
        String batchId = "changes-" + message.get("batchId").asText();
        event.withArray("Records").forEach(r -> ((ObjectNode) r).put("body",
                ((ObjectNode) message.deepCopy()).put("batchId", batchId).toString()));
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
                    .options(BatchOptions.builder().callbackUrl(hook).notices(BatchOptions.Notice.CHANGES).build())
                    .client(SampleClients.CLIENT_A).build());

            JsonNode response = Events.JSON.readTree(Events.invoke(event).statusCode(200).extract().asString());

            assertEquals(0, response.get("batchItemFailures").size());
            assertEquals(1, received.size());
            String eventId = message.at("/change/eventId").asText();
            var verified = WebhookSignature.verify(received.getFirst().headers(), received.getFirst().body(),
                    SampleClients.SECRET_A, Instant.now(), Duration.ofMinutes(5));
            assertEquals(eventId, assertInstanceOf(WebhookSignature.Verification.Valid.class, verified).eventId(),
                    "the listeners' event id");
            JsonNode body = Events.JSON.readTree(received.getFirst().body());
            assertEquals("url.changed", body.get("type").asText());
            assertEquals(batchId, body.get("batchId").asText());
            assertEquals(message.at("/change/url").asText(), body.get("url").asText());

            SQSEvent deadLettered = new SQSEvent();
            SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
            record.setMessageId("dead-1");
            record.setBody(event.at("/Records/0/body").asText());
            deadLettered.setRecords(List.of(record));
            assertEquals(List.of(), deadLetters.handleRequest(deadLettered, null).getBatchItemFailures());
            var failures = batches.status(batchId).orElseThrow().noticeFailures();
            assertEquals(1, failures.count());
            assertTrue(failures.last().orElseThrow().contains(eventId), failures.toString());
        } finally {
            receiver.stop(0);
        }
    }
}
