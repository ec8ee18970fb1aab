package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.notify.UrlChangedEvent;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.port.NotifyQueue.Kind;
import io.spiderling.core.port.NotifyQueue.Message;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The notify queue's body, both ways, with the sample events under {@code events/}; and one send to a queue. */
@ExtendWith(EmbeddedAwsExtension.class)
class SqsNotifyQueueTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UrlChangedEvent CHANGE = new UrlChangedEvent(NormalizedUrl.parse("https://example.com/a?b=1"),
            "ab".repeat(32), Instant.parse("2026-11-22T09:30:00.500Z"),
            ContentChange.of("d2", Optional.of("d1"), Optional.of(Instant.parse("2026-11-20T09:30:00Z"))));

    private final SqsClient sqs;

    SqsNotifyQueueTest(EmbeddedAws aws) {
        this.sqs = aws.sqs();
    }

    @Test
    void encode_whenCompletionOrProgress_writesTheBodyItAlwaysWrote() {
        assertEquals("{\"batchId\":\"b-1\",\"kind\":\"completed\",\"sequence\":0,\"attempt\":1}",
                SqsNotifyQueue.encode(Message.completed("b-1")));
        assertEquals("{\"batchId\":\"b-1\",\"kind\":\"progress\",\"sequence\":7,\"attempt\":2}",
                SqsNotifyQueue.encode(Message.progress("b-1", 7).nextAttempt()));
    }

    @Test
    void decode_whenEncoded_readsBackEachKind() {
        for (Message m : List.of(Message.completed("b-1"), Message.progress("b.2_x", 3).nextAttempt(),
                Message.changed("b-3", CHANGE), Message.changed("b-3", CHANGE).nextAttempt().nextAttempt())) {
            assertEquals(Optional.of(m), SqsNotifyQueue.decode(SqsNotifyQueue.encode(m)), m.toString());
        }
    }

    @Test
    void encode_whenAChange_carriesTheListenersEventAsItIs() throws IOException {
        JsonNode body = JSON.readTree(SqsNotifyQueue.encode(Message.changed("b-3", CHANGE)));

        assertEquals(JSON.readTree(CHANGE.toJson()), body.get("change"));
        assertEquals("changed", body.get("kind").asText());
    }

    @Test
    void encode_whenTheLongestUrl_staysFarBelowSqsLimit() {
        NormalizedUrl longest = NormalizedUrl.parse("https://example.com/" + "a".repeat(2048 - 20));
        UrlChangedEvent event = new UrlChangedEvent(longest, CHANGE.contentSha256(), CHANGE.fetchedAt(),
                CHANGE.change());

        int bytes = SqsNotifyQueue.encode(Message.changed("b-" + "x".repeat(126), event))
                .getBytes(StandardCharsets.UTF_8).length;

        assertTrue(bytes < 4 * 1024, bytes + " bytes");
    }

    @Test
    void decode_whenTheSampleEvents_readsTheirMessages() throws IOException {
        Message completed = SqsNotifyQueue.decode(sampleBody("sqs-notify.json")).orElseThrow();
        Message changed = SqsNotifyQueue.decode(sampleBody("sqs-notify-changed.json")).orElseThrow();

        assertEquals(Kind.COMPLETED, completed.kind());
        assertEquals(Kind.CHANGED, changed.kind());
        assertEquals(completed.batchId(), changed.batchId(), "both are about the native check's seeded batch");
        UrlChangedEvent event = changed.change().orElseThrow();
        assertEquals("https://example.com/", event.url().value());
        assertEquals(event.id(), JSON.readTree(sampleBody("sqs-notify-changed.json")).at("/change/eventId").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "not json",
        "{\"batchId\":\"b-1\",\"kind\":\"completed\",\"sequence\":0}",
        "{\"batchId\":\"b 1\",\"kind\":\"completed\",\"sequence\":0,\"attempt\":1}",
        "{\"batchId\":\"b-1\",\"kind\":\"finished\",\"sequence\":0,\"attempt\":1}",
        "{\"batchId\":\"b-1\",\"kind\":\"completed\",\"sequence\":-1,\"attempt\":1}",
        "{\"batchId\":\"b-1\",\"kind\":\"completed\",\"sequence\":0,\"attempt\":0}",
        "{\"batchId\":\"b-1\",\"kind\":\"completed\",\"sequence\":0,\"attempt\":1.5}",
        "{\"batchId\":\"b-1\",\"kind\":\"completed\",\"sequence\":0,\"attempt\":1,\"x\":1}",
        "{\"batchId\":\"b-1\",\"kind\":\"completed\",\"sequence\":0,\"attempt\":1} {}",
        "{\"batchId\":\"b-1\",\"kind\":\"changed\",\"sequence\":0,\"attempt\":1}",
        "{\"batchId\":\"b-1\",\"kind\":\"completed\",\"sequence\":0,\"attempt\":1,\"change\":CHANGE}",
        "{\"batchId\":\"b-1\",\"kind\":\"changed\",\"sequence\":0,\"attempt\":1,\"change\":{}}",
        "{\"batchId\":\"b-1\",\"kind\":\"changed\",\"sequence\":0,\"attempt\":1,\"change\":\"CHANGE\"}",
    })
    void decode_whenNotWhatEncodeWrites_isEmpty(String body) {
        String withChange = body.replace("CHANGE", new String(CHANGE.toJson(), StandardCharsets.UTF_8));

        assertEquals(Optional.empty(), SqsNotifyQueue.decode(withChange));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"eventId\":\"", "\"urlHash\":\"", "\"previousDigest\":\"d1\""})
    void decode_whenTheChangeWasAltered_isEmpty(String field) {
        String event = new String(CHANGE.toJson(), StandardCharsets.UTF_8);
        String altered = field.endsWith("\"d1\"") ? event.replace(field, "\"previousDigest\":\"d2\"")
                : event.replace(field, field + "0");
        String body = SqsNotifyQueue.encode(Message.changed("b-1", CHANGE)).replace(event, altered);

        assertEquals(Optional.empty(), SqsNotifyQueue.decode(body), altered);
    }

    @Test
    void message_whenKindAndChangeDisagree_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Message("b-1", Kind.CHANGED, 0, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new Message("b-1", Kind.COMPLETED, 0, 1, Optional.of(CHANGE)));
    }

    @Test
    void send_whenAChangeWithADelay_arrivesAsEncodedAfterTheDelay(TestInfo test) {
        String url = sqs.createQueue(b -> b.queueName("notify-" + Math.abs(test.getDisplayName().hashCode())))
                .queueUrl();
        NotifyQueue queue = new SqsNotifyQueue(sqs, url);

        queue.send(Message.changed("b-1", CHANGE), Duration.ofMillis(1200));

        assertEquals(List.of(), sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages(),
                "not visible before its delay");
        var messages = sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5).maxNumberOfMessages(10))
                .messages();
        assertEquals(1, messages.size());
        assertEquals(Optional.of(Message.changed("b-1", CHANGE)),
                SqsNotifyQueue.decode(messages.getFirst().body()));
    }

    /** The body of the first record of a sample event under {@code events/}. */
    private static String sampleBody(String name) throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve("events").resolve(name);
            if (Files.exists(file) && Files.exists(dir.resolve("mvnw"))) {
                return JSON.readTree(Files.readString(file)).at("/Records/0/body").asText();
            }
        }
        throw new IllegalStateException("events/" + name + " not found above " + Path.of("").toAbsolutePath());
    }
}
