package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

@ExtendWith(EmbeddedAwsExtension.class)
class EmbeddedAwsTest {

    @Test
    void extension_whenStackResolvedTwice_givesTheSameStackOnLoopback(EmbeddedAws aws, EmbeddedAws again) {
        assertSame(aws, again);
        List<URI> endpoints = List.of(aws.sqsEndpoint(), aws.dynamoDbEndpoint(), aws.s3Endpoint());
        endpoints.forEach(endpoint -> assertEquals("127.0.0.1", endpoint.getHost(), endpoint.toString()));
        assertEquals(3, endpoints.stream().map(URI::getPort).distinct().count());
    }

    @Test
    void start_whenClosed_stopsListeningOnAllEndpoints() {
        List<URI> endpoints;
        try (EmbeddedAws aws = EmbeddedAws.start()) {
            endpoints = List.of(aws.sqsEndpoint(), aws.dynamoDbEndpoint(), aws.s3Endpoint());
            endpoints.forEach(endpoint -> assertTrue(accepts(endpoint), endpoint + " should accept connections"));
        }
        endpoints.forEach(endpoint -> assertFalse(accepts(endpoint), endpoint + " should be closed"));
    }

    @Test
    void provision_whenCalled_createsBucketTablesAndQueuesNamedAfterPrefix(EmbeddedAws aws, StackResources res) {
        String p = res.prefix();
        assertEquals(p + "-content", res.bucket());
        aws.s3().headBucket(b -> b.bucket(res.bucket()));

        TableDescription urls = aws.dynamoDb().describeTable(b -> b.tableName(p + "-urls")).table();
        assertEquals(List.of(key("urlHash", KeyType.HASH)), urls.keySchema());
        assertEquals(BillingMode.PAY_PER_REQUEST, urls.billingModeSummary().billingMode());
        assertEquals("ttl", aws.dynamoDb().describeTimeToLive(b -> b.tableName(p + "-sites")).timeToLiveDescription()
                .attributeName(), "idle sites' rate and robots.txt items expire");
        TableDescription batches = aws.dynamoDb().describeTable(b -> b.tableName(p + "-batches")).table();
        assertEquals(List.of(key("pk", KeyType.HASH), key("sk", KeyType.RANGE)), batches.keySchema());
        TableDescription links = aws.dynamoDb().describeTable(b -> b.tableName(p + "-links")).table();
        assertEquals(p + "-links", res.linksTable());
        assertEquals(List.of(key("target", KeyType.HASH), key("source", KeyType.RANGE)), links.keySchema());
        assertEquals(BillingMode.PAY_PER_REQUEST, links.billingModeSummary().billingMode());

        Set<String> queueNames = aws.sqs().listQueues(b -> b.queueNamePrefix(p + "-")).queueUrls().stream()
                .map(url -> url.substring(url.lastIndexOf('/') + 1))
                .collect(Collectors.toSet());
        assertEquals(Set.of(p + "-ingest", p + "-ingest-dlq", p + "-fetch.fifo", p + "-fetch-dlq.fifo", p + "-plan",
                p + "-plan-dlq", p + "-notify", p + "-notify-dlq", p + "-events", p + "-wake"), queueNames);
        assertTrue(res.notifyQueueUrl().endsWith("/" + p + "-notify"), res.notifyQueueUrl());
        assertTrue(res.fetchQueueUrl().endsWith("/" + p + "-fetch.fifo"), res.fetchQueueUrl());
    }

    @Test
    void provision_whenFetchQueueCreated_isFifoAndRedrivesToFifoDeadLetterQueue(EmbeddedAws aws, StackResources res) {
        Map<QueueAttributeName, String> fetch = attributes(aws, res.fetchQueueUrl());
        assertEquals("true", fetch.get(QueueAttributeName.FIFO_QUEUE));
        assertEquals("false", fetch.get(QueueAttributeName.CONTENT_BASED_DEDUPLICATION));
        assertEquals("360", fetch.get(QueueAttributeName.VISIBILITY_TIMEOUT));
        String fetchDlqArn = attributes(aws, res.fetchDlqUrl()).get(QueueAttributeName.QUEUE_ARN);
        assertTrue(fetchDlqArn.endsWith(":" + res.prefix() + "-fetch-dlq.fifo"), fetchDlqArn);
        assertRedrivesTo(fetchDlqArn, fetch.get(QueueAttributeName.REDRIVE_POLICY), 3);
        assertEquals("true", attributes(aws, res.fetchDlqUrl()).get(QueueAttributeName.FIFO_QUEUE));
    }

    @Test
    void provision_whenIngestQueueCreated_redrivesToItsDeadLetterQueue(EmbeddedAws aws, StackResources res) {
        Map<QueueAttributeName, String> ingest = attributes(aws, res.ingestQueueUrl());
        assertEquals("360", ingest.get(QueueAttributeName.VISIBILITY_TIMEOUT));
        String ingestDlqArn = attributes(aws, res.ingestDlqUrl()).get(QueueAttributeName.QUEUE_ARN);
        assertRedrivesTo(ingestDlqArn, ingest.get(QueueAttributeName.REDRIVE_POLICY), 5);
    }

    @Test
    void provision_whenPlanQueueCreated_hidesAChunkForAFullInvocationAndRedrivesToItsDeadLetterQueue(EmbeddedAws aws,
            StackResources res) {
        Map<QueueAttributeName, String> plan = attributes(aws, res.planQueueUrl());
        assertEquals("5400", plan.get(QueueAttributeName.VISIBILITY_TIMEOUT), "six times a 15-minute invocation");
        assertRedrivesTo(attributes(aws, res.planDlqUrl()).get(QueueAttributeName.QUEUE_ARN),
                plan.get(QueueAttributeName.REDRIVE_POLICY), 5);
    }

    @Test
    void provision_whenQueuesCreated_matchTheCatalogsDeclarations(EmbeddedAws aws, StackResources res) {
        for (io.spiderling.catalog.Queue queue : io.spiderling.catalog.Queue.values()) {
            Map<QueueAttributeName, String> attributes = attributes(aws, res.queueUrl(queue));
            assertEquals(String.valueOf(queue.visibility().toSeconds()),
                    attributes.get(QueueAttributeName.VISIBILITY_TIMEOUT), queue.name());
            // Retention is sent too, but ElasticMQ accepts it without reporting it back.
            assertEquals(queue.fifo(), "true".equals(attributes.get(QueueAttributeName.FIFO_QUEUE)), queue.name());
            queue.deadLetter().ifPresentOrElse(dl -> assertRedrivesTo(attributes(aws, res.queueUrl(dl.queue()))
                            .get(QueueAttributeName.QUEUE_ARN), attributes.get(QueueAttributeName.REDRIVE_POLICY),
                            dl.maxReceiveCount()),
                    () -> assertEquals(null, attributes.get(QueueAttributeName.REDRIVE_POLICY), queue.name()));
        }
    }

    @Test
    void provision_whenSecretsCreated_holdNoClientUntilTheClientsFileIsPut(EmbeddedAws aws, StackResources res) {
        String arn = res.secret(io.spiderling.catalog.Secret.CLIENTS);
        assertTrue(arn.startsWith("arn:aws:secretsmanager:us-east-1:000000000000:secret:" + res.prefix()
                + "/clients-"), arn);
        assertEquals(io.spiderling.catalog.Secret.CLIENTS.initialText(),
                aws.secretsManager().getSecretValue(b -> b.secretId(arn)).secretString());
        aws.secretsManager().putSecretValue(b -> b.secretId(arn).secretString("changed"));
        assertEquals("changed", aws.secretsManager().getSecretValue(b -> b.secretId(res.prefix() + "/clients"))
                .secretString(), "found by name as well as by ARN");
        assertThrows(software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException.class,
                () -> aws.secretsManager().getSecretValue(b -> b.secretId(res.prefix() + "/nothing")));
    }

    @Test
    void provision_whenPrefixProvisionedAgain_returnsTheSameResources(EmbeddedAws aws, StackResources res) {
        aws.s3().putObject(b -> b.bucket(res.bucket()).key("kept"), RequestBody.fromString("still here"));

        assertEquals(res, aws.provision(res.prefix()));
        assertEquals("still here", aws.s3().getObjectAsBytes(b -> b.bucket(res.bucket()).key("kept")).asUtf8String());
    }

    @Test
    void provision_whenPrefixIsNotBucketSafe_throwsIllegalArgumentException(EmbeddedAws aws) {
        Stream.of("", "Upper", "under_score", "-leading", "trailing-", "dot.ted", "a".repeat(56))
                .forEach(prefix -> {
                    var e = assertThrows(IllegalArgumentException.class, () -> aws.provision(prefix), prefix);
                    assertTrue(e.getMessage().contains("'" + prefix + "'"), e.getMessage());
                });
    }

    @Test
    void s3_whenObjectPut_returnsSameBytes(EmbeddedAws aws, StackResources res) {
        byte[] body = "<html>fetched</html>".getBytes(StandardCharsets.UTF_8);
        aws.s3().putObject(b -> b.bucket(res.bucket()).key("pages/1.html").contentType("text/html"),
                RequestBody.fromBytes(body));

        var object = aws.s3().getObjectAsBytes(b -> b.bucket(res.bucket()).key("pages/1.html"));
        assertArrayEquals(body, object.asByteArray());
        assertEquals("text/html", object.response().contentType());
    }

    @Test
    void dynamoDb_whenItemPut_returnsItByKey(EmbeddedAws aws, StackResources res) {
        Map<String, AttributeValue> item = Map.of(
                "pk", AttributeValue.fromS("batch#1"),
                "sk", AttributeValue.fromS("url#0001"),
                "status", AttributeValue.fromS("QUEUED"));
        aws.dynamoDb().putItem(b -> b.tableName(res.batchesTable()).item(item));

        var got = aws.dynamoDb().getItem(b -> b.tableName(res.batchesTable())
                .key(Map.of("pk", item.get("pk"), "sk", item.get("sk")))
                .consistentRead(true));
        assertEquals(item, got.item());
    }

    @Test
    void sqs_whenMessageSent_receivesIt(EmbeddedAws aws, StackResources res) {
        aws.sqs().sendMessage(b -> b.queueUrl(res.ingestQueueUrl()).messageBody("https://example.com/"));

        List<Message> received = aws.sqs().receiveMessage(b -> b.queueUrl(res.ingestQueueUrl()).waitTimeSeconds(5))
                .messages();
        assertEquals(List.of("https://example.com/"), received.stream().map(Message::body).toList());
    }

    @Test
    void sqs_whenFifoMessagesSentInOneGroup_receivesThemInOrder(EmbeddedAws aws, StackResources res) {
        for (String body : List.of("first", "second", "third")) {
            aws.sqs().sendMessage(b -> b.queueUrl(res.fetchQueueUrl())
                    .messageBody(body)
                    .messageGroupId("127.0.0.2")
                    .messageDeduplicationId(body));
        }

        List<Message> received = aws.sqs().receiveMessage(b -> b.queueUrl(res.fetchQueueUrl())
                        .maxNumberOfMessages(10)
                        .waitTimeSeconds(5)
                        .messageSystemAttributeNamesWithStrings("MessageGroupId"))
                .messages();
        assertEquals(List.of("first", "second", "third"), received.stream().map(Message::body).toList());
        received.forEach(m -> assertEquals("127.0.0.2", m.attributesAsStrings().get("MessageGroupId")));
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static Map<QueueAttributeName, String> attributes(EmbeddedAws aws, String queueUrl) {
        return aws.sqs().getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.ALL))
                .attributes();
    }

    private static void assertRedrivesTo(String deadLetterArn, String redrivePolicy, int maxReceiveCount) {
        assertTrue(redrivePolicy.contains("\"deadLetterTargetArn\":\"" + deadLetterArn + "\""), redrivePolicy);
        assertTrue(redrivePolicy.matches(".*\"maxReceiveCount\":\"?" + maxReceiveCount + "\"?.*"), redrivePolicy);
    }

    private static boolean accepts(URI endpoint) {
        try (Socket ignored = new Socket(endpoint.getHost(), endpoint.getPort())) {
            return true;
        } catch (ConnectException refused) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
