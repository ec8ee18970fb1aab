package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/** Runs against a standard queue of its own per test, so that the messages it counts are its own. */
@ExtendWith(EmbeddedAwsExtension.class)
class SqsWakeQueueTest {

    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    private final SqsClient sqs;

    SqsWakeQueueTest(EmbeddedAws aws) {
        this.sqs = aws.sqs();
    }

    private String queue(TestInfo test) {
        return sqs.createQueue(b -> b.queueName("wake-" + Math.abs(test.getDisplayName().hashCode()))).queueUrl();
    }

    @Test
    void wake_whenDueNow_sendsTheSiteAtOnce(TestInfo test) {
        String url = queue(test);
        SqsWakeQueue wake = new SqsWakeQueue(sqs, url, Clock.fixed(NOW, ZoneOffset.UTC));

        wake.wake(new SiteKey("example.com"), NOW.minusMillis(5));

        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(1).maxNumberOfMessages(10))
                .messages();
        assertEquals(1, messages.size());
        assertEquals(new SiteKey("example.com"), SqsWakeQueue.site(messages.getFirst().body()));
    }

    @Test
    void wake_whenDueInABit_delaysTheMessageToTheSecondAfter(TestInfo test) {
        String url = queue(test);
        SqsWakeQueue wake = new SqsWakeQueue(sqs, url, Clock.fixed(NOW, ZoneOffset.UTC));

        wake.wake(new SiteKey("127.0.0.5"), NOW.plusMillis(1200));

        assertEquals(List.of(), sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages(),
                "not visible before its delay");
        List<Message> later = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5).maxNumberOfMessages(10)
                .messageSystemAttributeNames(MessageSystemAttributeName.SENT_TIMESTAMP)).messages();
        assertEquals(1, later.size(), "visible once the 2 s delay has passed");
    }

    @Test
    void wake_whenDueBeyondFifteenMinutes_sendsNothingAndLeavesItToTheSweep(TestInfo test) {
        String url = queue(test);
        SqsWakeQueue wake = new SqsWakeQueue(sqs, url, Clock.fixed(NOW, ZoneOffset.UTC));

        wake.wake(new SiteKey("example.com"), NOW.plusSeconds(901));

        assertEquals(List.of(), sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(1)).messages());
    }

    @ParameterizedTest
    @ValueSource(strings = {"example.com", "127.0.0.2", "[::1]:8080", "odd\"name"})
    void site_readsBackWhatBodyWrote(String site) {
        assertEquals(new SiteKey(site), SqsWakeQueue.site(SqsWakeQueue.body(new SiteKey(site))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{}", "{\"site\":\"\"}", "example.com", "{\"batchId\":\"b\"}"})
    void site_whenNotAWakeUp_saysSo(String body) {
        assertThrows(IllegalArgumentException.class, () -> SqsWakeQueue.site(body));
    }
}
