package io.spiderling.testkit;

import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
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
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.ResourceExistsException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Creates the bucket, tables, queues and secrets of one Spiderling deployment, as the catalog declares them
 * ({@link Table}, {@link Queue}, {@link Secret}; the CDK stack reads the same declarations), against any endpoint the
 * clients point at: the embedded stack, or another emulator the local runner uses.
 *
 * <p>Provisioning is idempotent, so a local runner can restart on a persistent stack. An existing bucket, table or
 * secret is kept as it is. SQS's CreateQueue already returns the existing queue when the attributes match; when they
 * differ it fails, rather than letting the run continue on a queue with other settings.
 */
public final class SpiderlingProvisioner {

    // "<prefix>-content" must fit S3's 63 characters; the longest queue name, "<prefix>-fetch-dlq.fifo", fits SQS's 80.
    private static final int MAX_PREFIX_LENGTH = 63 - "-content".length();
    private static final Pattern PREFIX = Pattern.compile("[a-z0-9](?:[a-z0-9-]*[a-z0-9])?");

    private SpiderlingProvisioner() {}

    /**
     * Creates (or finds) every resource named after {@code prefix}; secrets only when {@code secrets} is given.
     *
     * @throws IllegalArgumentException if {@code prefix} is not 1 to 55 lower-case letters, digits and hyphens that
     *     starts and ends with a letter or digit, as S3 bucket names require
     */
    public static StackResources provision(SqsClient sqs, DynamoDbClient dynamoDb, S3Client s3,
            SecretsManagerClient secrets, String prefix) {
        validate(prefix);
        String bucket = createBucket(s3, prefix + "-content");
        Map<Table, String> tables = new EnumMap<>(Table.class);
        for (Table table : Table.values()) {
            tables.put(table, createTable(dynamoDb, table, table.nameIn(prefix)));
        }
        try (DynamoDbWaiter waiter = dynamoDb.waiter()) {
            // DynamoDB Local creates tables ACTIVE; real DynamoDB takes a few seconds.
            tables.values().forEach(name -> waiter.waitUntilTableExists(b -> b.tableName(name)));
        }
        for (Table table : Table.values()) {
            table.timeToLive().ifPresent(ttl -> enableTtl(dynamoDb, tables.get(table), ttl.attribute()));
        }
        Map<Queue, String> queues = new EnumMap<>(Queue.class);
        for (Queue queue : Queue.values()) { // declared dead-letter queues first, so each redrive finds its target
            queues.put(queue, createQueue(sqs, queue, prefix, queues));
        }
        Map<Secret, String> secretArns = new EnumMap<>(Secret.class);
        for (Secret secret : Secret.values()) {
            secretArns.put(secret, createSecret(secrets, secret.nameIn(prefix), secret.initialText()));
        }
        return new StackResources(prefix, bucket, tables, queues, secretArns);
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

    private static String createTable(DynamoDbClient dynamoDb, Table table, String name) {
        List<AttributeDefinition> attributes = new ArrayList<>();
        List<KeySchemaElement> keys = new ArrayList<>();
        String partitionKey = table.keys().partitionKey();
        attributes.add(attribute(partitionKey, ScalarAttributeType.S));
        keys.add(key(partitionKey, KeyType.HASH));
        table.keys().sortKey().ifPresent(sortKey -> {
            attributes.add(attribute(sortKey, ScalarAttributeType.S));
            keys.add(key(sortKey, KeyType.RANGE));
        });
        List<LocalSecondaryIndex> indexes = new ArrayList<>();
        for (Table.LocalIndex index : table.localIndexes()) {
            attributes.add(attribute(index.sortKey(), ScalarAttributeType.N));
            indexes.add(LocalSecondaryIndex.builder().indexName(index.name())
                    .keySchema(key(partitionKey, KeyType.HASH), key(index.sortKey(), KeyType.RANGE))
                    .projection(p -> p.projectionType(ProjectionType.ALL))
                    .build());
        }
        try {
            dynamoDb.createTable(b -> b.tableName(name)
                    .attributeDefinitions(attributes)
                    .keySchema(keys)
                    .localSecondaryIndexes(indexes.isEmpty() ? null : indexes)
                    .billingMode(BillingMode.PAY_PER_REQUEST));
        } catch (ResourceInUseException alreadyThere) {
            // Idempotent: keep the table and its items.
        }
        return name;
    }

    /**
     * Items carrying the attribute (epoch seconds) expire. DynamoDB deletes expired items late (and DynamoDB Local
     * never), so readers check expiry themselves.
     */
    private static void enableTtl(DynamoDbClient dynamoDb, String table, String attribute) {
        var status = dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();
        if (status != null && attribute.equals(status.attributeName())) {
            return;
        }
        dynamoDb.updateTimeToLive(b -> b.tableName(table)
                .timeToLiveSpecification(t -> t.attributeName(attribute).enabled(true)));
    }

    private static KeySchemaElement key(String attribute, KeyType type) {
        return KeySchemaElement.builder().attributeName(attribute).keyType(type).build();
    }

    private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static String createQueue(SqsClient sqs, Queue queue, String prefix, Map<Queue, String> created) {
        Map<QueueAttributeName, String> attributes = new LinkedHashMap<>();
        if (queue.fifo()) {
            attributes.put(QueueAttributeName.FIFO_QUEUE, "true");
            // Senders give each message a deduplication id: with ids taken from the body, a URL queued again
            // within SQS's five-minute deduplication window would be dropped.
            attributes.put(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "false");
        }
        attributes.put(QueueAttributeName.VISIBILITY_TIMEOUT, String.valueOf(queue.visibility().toSeconds()));
        attributes.put(QueueAttributeName.MESSAGE_RETENTION_PERIOD, String.valueOf(queue.retention().toSeconds()));
        queue.deadLetter().ifPresent(dl -> attributes.put(QueueAttributeName.REDRIVE_POLICY,
                redrivePolicy(sqs, created.get(dl.queue()), dl.maxReceiveCount())));
        return sqs.createQueue(b -> b.queueName(queue.nameIn(prefix)).attributes(attributes)).queueUrl();
    }

    private static String redrivePolicy(SqsClient sqs, String deadLetterQueueUrl, int maxReceiveCount) {
        String arn = sqs.getQueueAttributes(
                        b -> b.queueUrl(deadLetterQueueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(QueueAttributeName.QUEUE_ARN);
        return "{\"deadLetterTargetArn\":\"" + arn + "\",\"maxReceiveCount\":\"" + maxReceiveCount + "\"}";
    }

    private static String createSecret(SecretsManagerClient secrets, String name, String initialText) {
        try {
            return secrets.createSecret(b -> b.name(name).secretString(initialText)).arn();
        } catch (ResourceExistsException alreadyThere) {
            return secrets.getSecretValue(b -> b.secretId(name)).arn();
        }
    }
}
