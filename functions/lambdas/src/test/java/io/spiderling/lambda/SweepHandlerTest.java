package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.spiderling.aws.DynamoDbFrontierStore;
import io.spiderling.aws.FetchJobCodec;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

@QuarkusTest
@TestProfile(HandlerProfiles.Sweep.class)
@QuarkusTestResource(TestStack.class)
class SweepHandlerTest {

    @Test
    void handleRequest_whenSampleScheduleFires_expectParkedEntriesReleasedToTheFetchQueue() {
        var store = new DynamoDbFrontierStore(TestStack.aws().dynamoDb(), TestStack.resources().sitesTable());
        NormalizedUrl url = NormalizedUrl.parse("https://sweep-test.example/parked");
        store.park(new FrontierEntry("sweep-batch", url, 1, 0, Instant.now().minusSeconds(1)));

        assertEquals("1", Events.invoke(Events.load("eventbridge-sweep.json")).statusCode(200).extract().asString());

        var sqs = TestStack.aws().sqs();
        String queue = TestStack.resources().fetchQueueUrl();
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10).waitTimeSeconds(1))
                .messages();
        messages.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle())));
        assertEquals(List.of(url), messages.stream().map(m -> FetchJobCodec.decode(m.body()).url()).toList());
        assertEquals(1, store.released(url.siteKey()));
    }
}
