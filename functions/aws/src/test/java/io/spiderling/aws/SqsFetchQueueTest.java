package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * Runs against a FIFO queue of its own per test, created with the provisioned fetch queue's FIFO and deduplication
 * settings: the tests count messages, and SQS deduplication ids outlive a purge, so a shared queue would couple them.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class SqsFetchQueueTest {

    private static final List<String> SITES = List.of("alpha.example", "beta.example", "gamma.example:8080");

    private final SqsClient sqs;
    private final StackResources res;
    private String queueUrl;
    private SqsFetchQueue queue;

    SqsFetchQueueTest(EmbeddedAws aws, StackResources res) {
        this.sqs = aws.sqs();
        this.res = res;
    }

    @BeforeEach
    void createQueueForTest(TestInfo test) {
        Map<QueueAttributeName, String> provisioned = sqs.getQueueAttributes(b -> b.queueUrl(res.fetchQueueUrl())
                .attributeNames(QueueAttributeName.FIFO_QUEUE, QueueAttributeName.CONTENT_BASED_DEDUPLICATION))
                .attributes();
        String name = res.prefix() + "-" + Math.abs(test.getDisplayName().hashCode()) + ".fifo";
        queueUrl = sqs.createQueue(b -> b.queueName(name).attributes(provisioned)).queueUrl();
        queue = new SqsFetchQueue(sqs, queueUrl);
    }

    @Test
    void enqueue_whenJobsOfSeveralSites_sendsOneDecodableMessagePerJobGroupedBySite() {
        List<FetchJob> jobs = jobs("batch-1", 25, 1);

        queue.enqueue(jobs);

        List<Message> messages = drain();
        assertEquals(25, messages.size());
        Map<String, List<FetchJob>> receivedByGroup = new LinkedHashMap<>();
        for (Message m : messages) {
            receivedByGroup.computeIfAbsent(m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID),
                    g -> new ArrayList<>()).add(FetchJobCodec.decode(m.body()));
        }
        // Each site is one group, and within it SQS hands the jobs out in the order they were given.
        Map<String, List<FetchJob>> sentByGroup = jobs.stream().collect(Collectors.groupingBy(
                job -> job.siteKey().messageGroupId(), LinkedHashMap::new, Collectors.toList()));
        assertEquals(3, sentByGroup.size());
        assertEquals(sentByGroup, receivedByGroup);
        messages.forEach(m -> assertEquals(FetchJobCodec.decode(m.body()).deduplicationId(),
                m.attributes().get(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID)));
    }

    @Test
    void enqueue_whenSameJobsAgainWithinDedupWindow_addsNoMessages() {
        List<FetchJob> jobs = jobs("batch-1", 25, 1);
        queue.enqueue(jobs);

        queue.enqueue(jobs);

        assertEquals(25, messagesOnQueue());
        assertEquals(25, drain().size());
    }

    @Test
    void enqueue_whenJobIsANewAttempt_isNotDropped() {
        List<FetchJob> jobs = jobs("batch-1", 25, 1);
        queue.enqueue(jobs);
        FetchJob retry = new FetchJob("batch-1", jobs.get(7).url(), 2);

        queue.enqueue(List.of(retry));

        assertEquals(26, messagesOnQueue());
        List<FetchJob> received = drain().stream().map(m -> FetchJobCodec.decode(m.body())).toList();
        assertTrue(received.contains(retry), "the second attempt should be on the queue");
        assertTrue(received.contains(jobs.get(7)), "the first attempt should be on the queue");
    }

    @Test
    void enqueue_whenSameUrlInAnotherBatch_isNotDropped() {
        queue.enqueue(jobs("batch-1", 5, 1));

        queue.enqueue(jobs("batch-2", 5, 1));

        assertEquals(10, messagesOnQueue());
    }

    @Test
    void enqueue_whenEmpty_sendsNothing() {
        queue.enqueue(List.of());

        assertEquals(0, messagesOnQueue());
    }

    @Test
    void enqueue_whenQueueDoesNotExist_throws() {
        String missing = queueUrl.replace(".fifo", "-missing.fifo");
        SqsFetchQueue broken = new SqsFetchQueue(sqs, missing);

        assertThrows(QueueDoesNotExistException.class, () -> broken.enqueue(jobs("batch-1", 3, 1)));
    }

    private static List<FetchJob> jobs(String batchId, int count, int attempt) {
        return IntStream.range(0, count)
                .mapToObj(i -> new FetchJob(batchId,
                        NormalizedUrl.parse("https://" + SITES.get(i % SITES.size()) + "/page/" + i), attempt))
                .toList();
    }

    private int messagesOnQueue() {
        Map<QueueAttributeName, String> attributes = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
        return Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                + Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    /** Receives and deletes until the queue is empty; a FIFO group's next message shows once the last is deleted. */
    private List<Message> drain() {
        List<Message> all = new ArrayList<>();
        for (int round = 0; round < 100; round++) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10)
                    .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
            if (batch.isEmpty()) {
                return all;
            }
            all.addAll(batch);
            batch.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(m.receiptHandle())));
        }
        throw new AssertionError("queue did not drain in 100 rounds");
    }
}
