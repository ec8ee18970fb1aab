package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Queue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueuesTest {

    @Test
    void queues_whenDeployed_oneEachWithTheCatalogsKindVisibilityAndRetention() {
        Synthesized jvm = Synth.jvmIam();
        // The catalog's queues, and the failure queue of S3 events.
        assertEquals(Queue.all().size() + 1, jvm.resources("AWS::SQS::Queue").size());
        for (Queue queue : Queue.all()) {
            Map<String, Object> properties = jvm.properties(jvm.queueId(queue));
            assertEquals(queue.visibility().toSeconds(), ((Number) properties.get("VisibilityTimeout")).longValue());
            assertEquals(queue.retention().toSeconds(),
                    ((Number) properties.get("MessageRetentionPeriod")).longValue());
            assertEquals(true, properties.get("SqsManagedSseEnabled"), queue.name());
            if (queue.fifo()) {
                assertEquals(true, properties.get("FifoQueue"), queue.name());
                assertEquals(false, properties.get("ContentBasedDeduplication"), queue.name());
            } else {
                assertFalse(properties.containsKey("FifoQueue"), queue.name());
            }
        }
    }

    @Test
    void fetchQueue_whenDeployed_isHighThroughputFifoAndItsDlqIsNot() {
        Synthesized jvm = Synth.jvmIam();
        Map<String, Object> fetch = jvm.properties(jvm.queueId(Queue.FETCH));
        assertEquals("messageGroup", fetch.get("DeduplicationScope"));
        assertEquals("perMessageGroupId", fetch.get("FifoThroughputLimit"));
        Map<String, Object> dlq = jvm.properties(jvm.queueId(Queue.FETCH_DLQ));
        assertFalse(dlq.containsKey("FifoThroughputLimit"));
    }

    @Test
    void queues_whenTheCatalogNamesADeadLetterQueue_redriveAfterItsReceiveCount() {
        Synthesized jvm = Synth.jvmIam();
        for (Queue queue : Queue.all()) {
            Object redrive = jvm.properties(jvm.queueId(queue)).get("RedrivePolicy");
            queue.deadLetter().ifPresentOrElse(dlq -> {
                @SuppressWarnings("unchecked")
                var policy = (Map<String, Object>) redrive;
                assertEquals(dlq.maxReceiveCount(), ((Number) policy.get("maxReceiveCount")).intValue());
                assertEquals(jvm.queueId(dlq.queue()), Synthesized.ref(policy.get("deadLetterTargetArn")));
            }, () -> assertEquals(null, redrive, queue.name()));
        }
    }

    @Test
    void queues_whenDeployed_refusePlainHttp() {
        Synthesized jvm = Synth.jvmIam();
        List<String> queues = new java.util.ArrayList<>(Queue.all().stream().map(jvm::queueId).toList());
        queues.add(jvm.objectEventFailuresId());
        for (String queue : queues) {
            assertTrue(jvm.resources("AWS::SQS::QueuePolicy").values().stream().map(Synthesized::properties)
                    .anyMatch(p -> ((List<?>) p.get("Queues")).stream().map(Synthesized::ref).toList().contains(queue)
                            && p.toString().contains("aws:SecureTransport=false")
                            && p.toString().contains("Effect=Deny")), queue);
        }
    }

    @Test
    void objectEventFailures_whenDeployed_encryptedAndKeptForFourteenDays() {
        Synthesized jvm = Synth.jvmIam();
        Map<String, Object> failed = jvm.properties(jvm.objectEventFailuresId());
        assertEquals(true, failed.get("SqsManagedSseEnabled"));
        assertEquals(Queue.DEAD_LETTER_RETENTION.toSeconds(), ((Number) failed.get("MessageRetentionPeriod")).longValue());
    }
}
