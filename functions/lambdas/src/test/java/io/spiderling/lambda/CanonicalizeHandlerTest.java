package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.FetchJobCodec;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.lambda.plan.PlanHandler;
import software.amazon.awssdk.core.sync.RequestBody;
import io.spiderling.core.pipeline.ingest.Ingest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

@QuarkusTest
@TestProfile(HandlerProfiles.Canonicalize.class)
@QuarkusTestResource(TestStack.class)
class CanonicalizeHandlerTest {

    @Inject
    Pipeline pipeline;

    @Test
    void handleRequest_whenManifestCreatedTwice_expectOneFetchJobPerUrlGroupedBySite() {
        String batchId = "canonicalize-test";
        var accepted = (Ingest.Result.Accepted) pipeline.ingest().submit(batchId,
                List.of("https://a.example/1", "https://a.example/2", "https://b.example/1"), BatchSource.HTTP);
        ObjectNode event = Events.load("s3-manifest-created.json");
        ((ObjectNode) event.at("/Records/0/s3/object")).put("key", BucketKeys.manifest(batchId));

        assertEquals("3", Events.invoke(event).statusCode(200).extract().asString());
        // A duplicate S3 event re-sends the still-queued jobs with the same deduplication ids: SQS drops them.
        assertEquals("3", Events.invoke(event).statusCode(200).extract().asString());

        List<Message> messages = drainFetchQueue();
        assertEquals(3, messages.size());
        List<FetchJob> jobs = messages.stream().map(m -> FetchJobCodec.decode(m.body())).toList();
        // Each site's jobs are split over two message groups (site#k), so two invocations may fetch from it at once.
        for (int i = 0; i < messages.size(); i++) {
            String group = messages.get(i).attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID);
            assertEquals(jobs.get(i).messageGroupId(2), group);
            assertTrue(group.startsWith(jobs.get(i).siteKey().value() + "#"), group);
        }
        assertEquals(Set.copyOf(accepted.plan().urls()), jobs.stream().map(FetchJob::url).collect(Collectors.toSet()));
        assertEquals(3, pipeline.queries().batch(batchId).orElseThrow().queued());
    }

    @Inject
    PlanHandler planHandler;

    @Test
    void handleRequest_whenUploadCreated_expectOneChunkMessageEachWhichThePlanHandlerPlans() throws Exception {
        String batchId = "k-8a185fb71966494a15832f1071653d3b"; // the sample events' batch
        pipeline.ingest().startUpload(batchId, UploadFormat.JSONL, BatchSource.UPLOAD, BatchOptions.NONE);
        StringBuilder manifest = new StringBuilder();
        for (int i = 0; i < 3000; i++) { // about 110 KB: several chunks of the test profile's 16 KiB
            manifest.append(i % 2 == 0 ? "\"https://up-" + (i % 3) + ".example/p/" + i + "\"\n"
                    : "{\"url\": \"https://up-" + (i % 3) + ".example/p/" + i + "\"}\n");
        }
        manifest.append("\"ftp://up.example/not-fetchable\"\n\"https://up-0.example/p/0#again\"\n");
        TestStack.aws().s3().putObject(b -> b.bucket(TestStack.resources().bucket())
                .key("uploads/" + batchId + ".jsonl"), RequestBody.fromString(manifest.toString()));

        int chunks = Integer.parseInt(Events.invoke(Events.load("s3-upload-created.json"))
                .statusCode(200).extract().asString());

        assertEquals(io.spiderling.core.batch.ManifestChunks.chunkCount(
                manifest.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length, 16384), chunks);
        assertTrue(chunks > 3);
        List<Message> planMessages = drain(TestStack.resources().planQueueUrl());
        assertEquals(chunks, planMessages.size());
        // The sample plan event carries chunks 0 and 1; the other chunks come as the same message shape.
        SQSEvent sample = new SQSEvent();
        List<SQSEvent.SQSMessage> sampleRecords = new ArrayList<>();
        Events.load("sqs-plan.json").get("Records").forEach(r -> {
            SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
            record.setMessageId(r.get("messageId").asText());
            record.setBody(r.get("body").asText());
            sampleRecords.add(record);
        });
        sample.setRecords(sampleRecords);
        SQSEvent rest = new SQSEvent();
        rest.setRecords(planMessages.stream().map(m -> {
            SQSEvent.SQSMessage record = new SQSEvent.SQSMessage();
            record.setMessageId(m.messageId());
            record.setBody(m.body());
            return record;
        }).toList());
        assertEquals(Set.copyOf(sample.getRecords().stream().map(SQSEvent.SQSMessage::getBody).toList()),
                planMessages.stream().map(Message::body).filter(b -> b.endsWith(":0}") || b.endsWith(":1}"))
                        .collect(Collectors.toSet()));

        assertEquals(List.of(), planHandler.handleRequest(rest, null).getBatchItemFailures());
        assertEquals(List.of(), planHandler.handleRequest(sample, null).getBatchItemFailures(), "planned again");

        var status = pipeline.queries().batch(batchId).orElseThrow();
        assertEquals(3001, status.header().total(), "3,000 URLs and one invalid line");
        assertEquals(1, status.header().duplicates());
        assertEquals(1, status.terminalCounts().get(io.spiderling.core.batch.ItemState.INVALID));
        assertTrue(status.planned());
        drainFetchQueue();
    }

    private static List<Message> drain(String queue) {
        var sqs = TestStack.aws().sqs();
        List<Message> all = new ArrayList<>();
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1))
                    .messages();
            if (batch.isEmpty()) {
                return all;
            }
            all.addAll(batch);
            batch.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle())));
        }
    }

    /** Keys that are not valid URL-encoding, climb out of their prefix, or name no object: skipped, no error. */
    @Test
    void handleRequest_whenEveryRecordHasABadKey_expectNothingParkedAndNoError() {
        ObjectNode event = Events.load("s3-manifest-created.json");
        ObjectNode sample = (ObjectNode) event.get("Records").get(0);
        var records = Events.JSON.createArrayNode();
        for (String key : List.of("manifests/%zz.txt", "%", "manifests/..%2Fuploads%2Fx.txt", "uploads/%E0%A4%A",
                "uploads/../manifests/x.txt", "elsewhere/x.txt", "manifests/no-such-batch.txt")) {
            ObjectNode record = sample.deepCopy();
            ((ObjectNode) record.at("/s3/object")).put("key", key);
            records.add(record);
        }
        records.add(sample.deepCopy().putNull("s3"));
        event.set("Records", records);

        assertEquals("0", Events.invoke(event).statusCode(200).extract().asString());
    }

    private static List<Message> drainFetchQueue() {
        var sqs = TestStack.aws().sqs();
        String queue = TestStack.resources().fetchQueueUrl();
        List<Message> all = new ArrayList<>();
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
            if (batch.isEmpty()) {
                return all;
            }
            all.addAll(batch);
            batch.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle())));
        }
    }
}
