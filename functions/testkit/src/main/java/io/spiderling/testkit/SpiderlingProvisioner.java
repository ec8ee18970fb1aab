package io.spiderling.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates the S3 bucket, DynamoDB tables and SQS queues of one Spiderling deployment, against any endpoint the clients
 * point at: the embedded stack, or another emulator the local runner uses.
 *
 * <p>Provisioning is idempotent, so a local runner can restart on a persistent stack. An existing bucket or table is
 * kept as it is. SQS's CreateQueue already returns the existing queue when the attributes match; when they differ it
 * fails, rather than letting the run continue on a queue with other settings.
 */
public final class SpiderlingProvisioner {

    /** Receives before a message is dead-lettered: a poison message is retried a few times, not forever. */
    public static final int MAX_RECEIVE_COUNT = 5;
    /** Seconds a received message stays hidden; a Lambda SQS trigger needs more than the function's timeout. */
    public static final int VISIBILITY_TIMEOUT_SECONDS = 60;
    /** Planning one chunk of an uploaded manifest may use a Lambda invocation's full 15 minutes. */
    public static final int PLAN_VISIBILITY_TIMEOUT_SECONDS = 900;
    /**
     * The sites table's local index on {@code (pk, ord)}: only pending frontier entries carry {@code ord}, so it lists
     * a site's pending entries in release order. Local, not global, because only a local index allows consistent reads.
     */
    public static final String SITES_ORDER_INDEX = "byOrder";
    /** The sites table's TTL attribute. */
    public static final String TTL_ATTRIBUTE = "ttl";

    // "<prefix>-content" must fit S3's 63 characters; the longest queue name, "<prefix>-fetch-dlq.fifo", fits SQS's 80.
    private static final int MAX_PREFIX_LENGTH = 63 - "-content".length();
    private static final Pattern PREFIX = Pattern.compile("[a-z0-9](?:[a-z0-9-]*[a-z0-9])?");

    private SpiderlingProvisioner() {}

    /**
     * Creates (or finds) every resource named after {@code prefix}.
     *
     * @throws IllegalArgumentException if {@code prefix} is not 1 to 55 lower-case letters, digits and hyphens that
     *     starts and ends with a letter or digit, as S3 bucket names require
     */
    public static StackResources provision(SqsClient sqs, DynamoDbClient dynamoDb, S3Client s3, String prefix) {
        validate(prefix);
        String bucket = createBucket(s3, prefix + "-content");
        String urlsTable = prefix + "-urls";
        String batchesTable = prefix + "-batches";
        String sitesTable = prefix + "-sites";
        String linksTable = prefix + "-links";
        createTable(dynamoDb, urlsTable, "urlHash", null, null);
        createTable(dynamoDb, batchesTable, "pk", "sk", null);
        createTable(dynamoDb, sitesTable, "pk", "sk", new NumberIndex(SITES_ORDER_INDEX, "ord"));
        createTable(dynamoDb, linksTable, "target", "source", null);
        try (DynamoDbWaiter waiter = dynamoDb.waiter()) {
            // DynamoDB Local creates tables ACTIVE; real DynamoDB takes a few seconds.
            waiter.waitUntilTableExists(b -> b.tableName(urlsTable));
            waiter.waitUntilTableExists(b -> b.tableName(batchesTable));
            waiter.waitUntilTableExists(b -> b.tableName(sitesTable));
            waiter.waitUntilTableExists(b -> b.tableName(linksTable));
        }
        enableTtl(dynamoDb, sitesTable);

        String ingestDlq = createQueue(sqs, prefix + "-ingest-dlq", Map.of());
        String ingest = createQueue(sqs, prefix + "-ingest", Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, String.valueOf(VISIBILITY_TIMEOUT_SECONDS),
                QueueAttributeName.REDRIVE_POLICY, redrivePolicy(sqs, ingestDlq)));
        // A FIFO queue can only dead-letter into a FIFO queue.
        String fetchDlq = createQueue(sqs, prefix + "-fetch-dlq.fifo", Map.of(QueueAttributeName.FIFO_QUEUE, "true"));
        String fetch = createQueue(sqs, prefix + "-fetch.fifo", Map.of(
                QueueAttributeName.FIFO_QUEUE, "true",
                // Senders give each message a deduplication id: with ids taken from the body, a URL queued again
                // within SQS's five-minute deduplication window would be dropped.
                QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "false",
                QueueAttributeName.VISIBILITY_TIMEOUT, String.valueOf(VISIBILITY_TIMEOUT_SECONDS),
                QueueAttributeName.REDRIVE_POLICY, redrivePolicy(sqs, fetchDlq)));

        String planDlq = createQueue(sqs, prefix + "-plan-dlq", Map.of());
        String plan = createQueue(sqs, prefix + "-plan", Map.of(
                // A chunk of an uploaded manifest may take minutes to plan: the planning function's timeout.
                QueueAttributeName.VISIBILITY_TIMEOUT, String.valueOf(PLAN_VISIBILITY_TIMEOUT_SECONDS),
                QueueAttributeName.REDRIVE_POLICY, redrivePolicy(sqs, planDlq)));

        String notifyDlq = createQueue(sqs, prefix + "-notify-dlq", Map.of());
        String notify = createQueue(sqs, prefix + "-notify", Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, String.valueOf(NOTIFY_VISIBILITY_TIMEOUT_SECONDS),
                QueueAttributeName.REDRIVE_POLICY, redrivePolicy(sqs, notifyDlq)));
        String events = createQueue(sqs, prefix + "-events", Map.of());

        return new StackResources(prefix, bucket, urlsTable, batchesTable, sitesTable, linksTable, ingest, ingestDlq,
                fetch, fetchDlq, plan, planDlq, notify, notifyDlq, events);
    }

    private static void validate(String prefix) {
        if (prefix == null || prefix.length() > MAX_PREFIX_LENGTH || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("Invalid resource prefix '" + prefix + "': use 1 to " + MAX_PREFIX_LENGTH
                    + " lower-case letters, digits and hyphens, starting and ending with a letter or digit,"
                    + " because it names an S3 bucket");
        }
    }

    private static String createBucket(S3Client s3, String bucket) {
        try {
            s3.createBucket(b -> b.bucket(bucket));
        } catch (BucketAlreadyOwnedByYouException alreadyThere) {
            // Idempotent: keep the bucket and its content.
        }
        return bucket;
    }

    /** A local secondary index on the table's partition key and a number attribute, projecting every attribute. */
    private record NumberIndex(String name, String sortKey) {}

    private static void createTable(DynamoDbClient dynamoDb, String table, String partitionKey, String sortKey,
            NumberIndex index) {
        List<AttributeDefinition> attributes = new ArrayList<>();
        List<KeySchemaElement> keys = new ArrayList<>();
        attributes.add(stringAttribute(partitionKey));
        keys.add(key(partitionKey, KeyType.HASH));
        if (sortKey != null) {
            attributes.add(stringAttribute(sortKey));
            keys.add(key(sortKey, KeyType.RANGE));
        }
        List<LocalSecondaryIndex> indexes = new ArrayList<>();
        if (index != null) {
            attributes.add(AttributeDefinition.builder().attributeName(index.sortKey())
                    .attributeType(ScalarAttributeType.N).build());
            indexes.add(LocalSecondaryIndex.builder().indexName(index.name())
                    .keySchema(key(partitionKey, KeyType.HASH), key(index.sortKey(), KeyType.RANGE))
                    .projection(p -> p.projectionType(ProjectionType.ALL))
                    .build());
        }
        try {
            dynamoDb.createTable(b -> b.tableName(table)
                    .attributeDefinitions(attributes)
                    .keySchema(keys)
                    .localSecondaryIndexes(indexes.isEmpty() ? null : indexes)
                    .billingMode(BillingMode.PAY_PER_REQUEST));
        } catch (ResourceInUseException alreadyThere) {
            // Idempotent: keep the table and its items.
        }
    }

    /**
     * The rate items and robots.txt copies carry {@code ttl} (epoch seconds), so idle sites disappear. DynamoDB deletes
     * expired items late (and DynamoDB Local never), so readers check expiry themselves.
     */
    private static void enableTtl(DynamoDbClient dynamoDb, String table) {
        var status = dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();
        if (status != null && TTL_ATTRIBUTE.equals(status.attributeName())) {
            return;
        }
        dynamoDb.updateTimeToLive(b -> b.tableName(table)
                .timeToLiveSpecification(t -> t.attributeName(TTL_ATTRIBUTE).enabled(true)));
    }

    private static KeySchemaElement key(String attribute, KeyType type) {
        return KeySchemaElement.builder().attributeName(attribute).keyType(type).build();
    }

    private static AttributeDefinition stringAttribute(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    /** A delivery attempt takes at most two 10 s timeouts per address tried. */
    static final int NOTIFY_VISIBILITY_TIMEOUT_SECONDS = 60;

    private static String createQueue(SqsClient sqs, String name, Map<QueueAttributeName, String> attributes) {
        return sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
    }

    private static String redrivePolicy(SqsClient sqs, String deadLetterQueueUrl) {
        String arn = sqs.getQueueAttributes(
                        b -> b.queueUrl(deadLetterQueueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(QueueAttributeName.QUEUE_ARN);
        return "{\"deadLetterTargetArn\":\"" + arn + "\",\"maxReceiveCount\":\"" + MAX_RECEIVE_COUNT + "\"}";
    }
}
