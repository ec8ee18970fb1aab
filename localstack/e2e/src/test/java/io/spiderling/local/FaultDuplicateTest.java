package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.FaultInjector.Call;
import io.spiderling.testkit.FaultInjector.Fault;
import io.spiderling.testkit.FaultInjector.Rule;
import io.spiderling.testkit.FaultInjector.When;
import io.spiderling.testkit.StackResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageResponse;

/**
 * Scenario 3: the same fetch message delivered two and three times. Deletes refused after a message was handled
 * bring it back once its visibility ends: one message's delete is refused twice (three deliveries), another once (two
 * deliveries). The receive counts SQS reports are the witness that the deliveries happened.
 */
@Isolated
@ExtendWith(EmbeddedAwsExtension.class)
class FaultDuplicateTest {

    @Test
    void batch_whenMessagesAreDeliveredTwiceAndThreeTimes_expectEachPageFetchedOnceAndEachItemCountedOnce(
            EmbeddedAws aws, @TempDir Path dir) throws Exception {
        StackResources r = FaultChecks.resources(aws, "dup", FaultChecks.VISIBILITY);
        AtomicReference<String> chosen = new AtomicReference<>();
        Call deletes = Call.sqs("DeleteMessageBatch").onQueue(r.fetchQueueUrl());
        FaultInjector faults = FaultInjector.create()
                .add(new Rule("delete refused twice", deletes.and(q -> {
                    List<String> ids = ((DeleteMessageBatchRequest) q).entries().stream().map(e -> e.id()).toList();
                    chosen.compareAndSet(null, ids.getFirst());
                    return ids.contains(chosen.get());
                }, " holding the first message deleted"), When.matches(1, 2),
                        new Fault.Refused(FaultInjector::sqsInternalError)))
                // Not the chosen message's calls: its second refusal may come third, and takes the call first.
                .add(new Rule("delete refused once", deletes.and(q -> chosen.get() != null
                        && ((DeleteMessageBatchRequest) q).entries().stream().map(e -> e.id())
                                .noneMatch(chosen.get()::equals), " not holding it"),
                        When.matches(1), new Fault.Refused(FaultInjector::sqsInternalError)));
        ReceiveCounts receives = new ReceiveCounts(r.fetchQueueUrl());
        try (FaultChecks.Farm farm = FaultChecks.farm(2, 8, dir);
                LocalSpiderling local = FaultChecks.start(aws, r, farm, faults,
                        o -> o.withInterceptors(List.of(faults, farm.slots(), receives)))) {
            String batchId = FaultChecks.submit(local, faults, farm.urls());
            JsonNode status = FaultChecks.awaitDone(local, batchId, Duration.ofSeconds(60));
            // The batch ends with the first delivery of each message; the copies come back after it.
            assertTrue(FaultChecks.awaitDrained(aws, r.fetchQueueUrl(), Duration.ofSeconds(40)), "fetch queue drained");

            System.out.println("[faults] duplicates: " + FaultChecks.verify(local, faults, batchId, farm, status,
                    FaultChecks.noRepeats()) + "; most receives of one message: " + receives.max());
            assertEquals(3, receives.counts().get(chosen.get()), "the chosen message was delivered three times");
            assertTrue(receives.counts().values().stream().filter(n -> n >= 2).count() >= 2,
                    "another message delivered at least twice: " + receives.counts());
        }
    }

    /** The receive count SQS reports for each fetch message, at its latest delivery. */
    static final class ReceiveCounts implements ExecutionInterceptor {
        private final String queueUrl;
        private final Map<String, Integer> counts = new ConcurrentHashMap<>();

        ReceiveCounts(String queueUrl) {
            this.queueUrl = queueUrl;
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (context.response() instanceof ReceiveMessageResponse received && context.request()
                    .getValueForField("QueueUrl", String.class).filter(queueUrl::equals).isPresent()) {
                for (Message m : received.messages()) {
                    String count = m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
                    if (count != null) {
                        counts.merge(m.messageId(), Integer.parseInt(count), Math::max);
                    }
                }
            }
        }

        Map<String, Integer> counts() {
            return Map.copyOf(counts);
        }

        int max() {
            return counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        }
    }
}
