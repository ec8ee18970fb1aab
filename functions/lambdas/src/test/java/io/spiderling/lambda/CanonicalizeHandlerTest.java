package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.pipeline.Ingest;
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
                List.of("https://a.example/1", "https://a.example/2", "https://b.example/1"), "http");
        ObjectNode event = Events.load("s3-manifest-created.json");
        ((ObjectNode) event.at("/Records/0/s3/object")).put("key", Ingest.manifestKey(batchId));

        assertEquals("3", Events.invoke(event).statusCode(200).extract().asString());
        // A duplicate S3 event re-sends the still-queued jobs with the same deduplication ids: SQS drops them.
        assertEquals("3", Events.invoke(event).statusCode(200).extract().asString());

        List<Message> messages = drainFetchQueue();
        assertEquals(3, messages.size());
        Set<String> groups = messages.stream()
                .map(m -> m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID))
                .collect(Collectors.toSet());
        assertEquals(Set.of("a.example", "b.example"), groups);
        List<FetchJob> jobs = messages.stream().map(m -> FetchJobCodec.decode(m.body())).toList();
        assertEquals(Set.copyOf(accepted.plan().accepted()), jobs.stream().map(FetchJob::url).collect(Collectors.toSet()));
        assertEquals(3, pipeline.queries().batch(batchId).orElseThrow().queued());
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
