package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Secret;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

class PersistentStackTest {

    @TempDir
    Path data;

    @Test
    void start_whenRestartedOnItsFolder_findsResourcesItemsObjectsAndMessages() {
        StackResources first;
        String inFlight;
        try (DataFolder folder = DataFolder.lock(data); EmbeddedAws aws = EmbeddedAws.start(folder)) {
            assertFalse(folder.usedBefore());
            first = aws.provision("p");
            aws.dynamoDb().putItem(b -> b.tableName(first.urlsTable())
                    .item(Map.of("urlHash", AttributeValue.fromS("h1"), "url", AttributeValue.fromS("u1"))));
            aws.s3().putObject(b -> b.bucket(first.bucket()).key("content/ab/abc"), RequestBody.fromString("body"));
            aws.sqs().sendMessage(b -> b.queueUrl(first.ingestQueueUrl()).messageBody("waiting"));
            aws.sqs().sendMessage(b -> b.queueUrl(first.ingestQueueUrl()).messageBody("received"));
            aws.sqs().sendMessage(b -> b.queueUrl(first.fetchQueueUrl()).messageBody("job")
                    .messageGroupId("site").messageDeduplicationId("job-1"));
            // Received and never deleted, as by a consumer that died: invisible for the queue's 360 s otherwise.
            List<Message> received = aws.sqs().receiveMessage(b -> b.queueUrl(first.ingestQueueUrl())
                    .maxNumberOfMessages(10)).messages();
            assertEquals(2, received.size());
            inFlight = received.get(0).body();
            aws.sqs().deleteMessage(b -> b.queueUrl(first.ingestQueueUrl())
                    .receiptHandle(received.get(1).receiptHandle()));
        }
        try (DataFolder folder = DataFolder.lock(data); EmbeddedAws aws = EmbeddedAws.start(folder)) {
            assertTrue(folder.usedBefore());
            StackResources again = aws.provision("p");
            assertEquals(first.queueUrls().keySet(), again.queueUrls().keySet());
            assertEquals(first.secret(Secret.CLIENTS), again.secret(Secret.CLIENTS), "the same secret, not a new one");
            assertEquals("u1", aws.dynamoDb().getItem(b -> b.tableName(again.urlsTable())
                    .key(Map.of("urlHash", AttributeValue.fromS("h1")))).item().get("url").s());
            assertEquals("body", aws.s3().getObjectAsBytes(b -> b.bucket(again.bucket()).key("content/ab/abc"))
                    .asUtf8String());
            Set<String> ingest = aws.sqs().receiveMessage(b -> b.queueUrl(again.ingestQueueUrl())
                    .maxNumberOfMessages(10)).messages().stream().map(Message::body).collect(Collectors.toSet());
            assertEquals(Set.of(inFlight), ingest, "the deleted message stays deleted; the in-flight one is back");
            List<Message> jobs = aws.sqs().receiveMessage(b -> b.queueUrl(again.fetchQueueUrl())
                    .maxNumberOfMessages(10)).messages();
            assertEquals(List.of("job"), jobs.stream().map(Message::body).toList());
        }
    }

    /**
     * ElasticMQ's storage hears of deletes but not of PurgeQueue, so purged messages come back on restart: a resume
     * that must empty a queue receives and deletes its messages instead (LocalSpiderling does so for the fetch queue).
     */
    @Test
    void purgeQueue_isNotKeptByTheStorage_soAPurgedMessageComesBackOnRestart() {
        try (DataFolder folder = DataFolder.lock(data); EmbeddedAws aws = EmbeddedAws.start(folder)) {
            StackResources r = aws.provision("p");
            aws.sqs().sendMessage(b -> b.queueUrl(r.fetchQueueUrl()).messageBody("job")
                    .messageGroupId("site").messageDeduplicationId("job-1"));
            aws.sqs().purgeQueue(b -> b.queueUrl(r.fetchQueueUrl()));
            assertEquals(List.of(), aws.sqs().receiveMessage(b -> b.queueUrl(r.fetchQueueUrl())).messages());
        }
        try (DataFolder folder = DataFolder.lock(data); EmbeddedAws aws = EmbeddedAws.start(folder)) {
            StackResources r = aws.provision("p");
            assertEquals(List.of("job"), aws.sqs().receiveMessage(b -> b.queueUrl(r.fetchQueueUrl())).messages()
                    .stream().map(Message::body).toList());
        }
    }

    @Test
    void lock_whenTheFolderIsHeld_failsAtOnceNamingFolderAndPid() {
        try (DataFolder held = DataFolder.lock(data)) {
            DataFolderInUseException e = assertThrows(DataFolderInUseException.class, () -> DataFolder.lock(data));
            assertEquals(ProcessHandle.current().pid(), e.holderPid().orElseThrow());
            assertEquals(held.root(), e.folder());
            assertTrue(e.getMessage().contains(data.toAbsolutePath().toString()), e.getMessage());
            assertTrue(e.getMessage().contains("process " + ProcessHandle.current().pid()), e.getMessage());
        }
        DataFolder.lock(data).close(); // released with the holder
    }
}
