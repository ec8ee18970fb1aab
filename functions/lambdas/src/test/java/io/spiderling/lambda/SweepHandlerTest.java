package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbFrontierStore;
import io.spiderling.aws.DynamoDbPendingPlans;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.pipeline.ingest.Ingest;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.lambda.wake.WakeHandler;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

@QuarkusTest
@TestProfile(HandlerProfiles.Sweep.class)
@QuarkusTestResource(TestStack.class)
class SweepHandlerTest {

    @Inject
    Pipeline pipeline;

    @Test
    void handleRequest_whenSampleScheduleFires_expectParkedEntriesReleasedToTheFetchQueue() {
        var store = new DynamoDbFrontierStore(TestStack.aws().dynamoDb(), TestStack.resources().sitesTable());
        NormalizedUrl url = NormalizedUrl.parse("https://sweep-test.example/parked");
        store.park(new FrontierEntry("sweep-batch", url, 1, 0, Instant.now().minusSeconds(1)));
        // Parked and never released (a wake-up lost), the site's mark due now: the sweep's look releases it.
        store.schedule(url.siteKey(), Optional.empty(), Instant.now().truncatedTo(ChronoUnit.MILLIS));

        assertEquals("1", Events.invoke(Events.load("eventbridge-sweep.json")).statusCode(200).extract().asString());

        var sqs = TestStack.aws().sqs();
        String queue = TestStack.resources().fetchQueueUrl();
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1))
                .messages();
        messages.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle())));
        assertEquals(List.of(url), messages.stream().map(m -> FetchJobCodec.decode(m.body()).url()).toList());
        assertEquals(1, store.released(url.siteKey()));
    }

    @Test
    void handleRequest_whenAManifestsEventWasLost_plansTheBatchAndQueuesItsUrl() {
        String batchId = "sweep-stranded";
        assertInstanceOf(Ingest.Result.Accepted.class, pipeline.ingest().submit(batchId,
                List.of("https://stranded.example/only"), BatchSource.HTTP)); // the manifest's S3 event never comes
        String manifest = BucketKeys.manifest(batchId);
        new DynamoDbPendingPlans(TestStack.aws().dynamoDb(), TestStack.resources().batchesTable())
                .expect(manifest, Instant.now().minus(pipeline.unplannedAfter()).minus(Duration.ofMinutes(1)));

        assertEquals("1", Events.invoke(Events.load("eventbridge-sweep.json")).statusCode(200).extract().asString(),
                "one stranded manifest planned (planning releases its job itself)");

        assertEquals(1, pipeline.queries().batch(batchId).orElseThrow().queued());
        var sqs = TestStack.aws().sqs();
        String queue = TestStack.resources().fetchQueueUrl();
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1))
                .messages();
        messages.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle())));
        assertEquals(List.of(NormalizedUrl.parse("https://stranded.example/only")),
                messages.stream().map(m -> FetchJobCodec.decode(m.body()).url()).toList());
        assertEquals(List.of(), new DynamoDbPendingPlans(TestStack.aws().dynamoDb(),
                TestStack.resources().batchesTable()).waitingSince("manifests/", Instant.now(), 10));
    }

    @Test
    void wakeHandler_whenTheSampleWakeUpArrives_releasesTheSitesDueEntriesOnce() {
        var store = new DynamoDbFrontierStore(TestStack.aws().dynamoDb(), TestStack.resources().sitesTable());
        NormalizedUrl url = NormalizedUrl.parse("https://example.com/retried-page");
        store.park(new FrontierEntry("wake-batch", url, 2, 0, Instant.now().minusSeconds(1)));
        SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
        message.setMessageId("wake-1");
        message.setBody(Events.load("sqs-wake.json").at("/Records/0/body").asText());
        SQSEvent.SQSMessage again = new SQSEvent.SQSMessage();
        again.setMessageId("wake-2");
        again.setBody(message.getBody());
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(message, again));

        SQSBatchResponse response = new WakeHandler(pipeline).handleRequest(event, null);

        assertEquals(List.of(), response.getBatchItemFailures());
        var sqs = TestStack.aws().sqs();
        String queue = TestStack.resources().fetchQueueUrl();
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1))
                .messages();
        messages.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle())));
        assertEquals(List.of(url), messages.stream().map(m -> FetchJobCodec.decode(m.body()).url()).toList());
    }
}
