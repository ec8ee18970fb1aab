package io.spiderling.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Each kind of fault on a real emulator: whether the call landed, what the caller saw, and what was counted. */
@ExtendWith(EmbeddedAwsExtension.class)
class FaultInjectorTest {

    @Test
    void replyLost_whenTheNthPutMatches_expectTheWriteAppliedAndTheCallerToSeeTheError(EmbeddedAws aws,
            StackResources r) {
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("second put",
                FaultInjector.Call.dynamoDb("PutItem").onTable(r.urlsTable()), FaultInjector.When.matches(2),
                FaultInjector.crash()));
        try (DynamoDbClient dynamo = dynamoDb(aws, faults)) {
            put(dynamo, r.urlsTable(), "lost-1");
            assertThrows(FaultInjector.SimulatedCrash.class, () -> put(dynamo, r.urlsTable(), "lost-2"));
            put(dynamo, r.urlsTable(), "lost-3");
        }
        assertTrue(exists(aws, r.urlsTable(), "lost-2"), "the write landed before its reply was lost");
        assertEquals(1, faults.injected("second put"));
        assertEquals(3, faults.matched("second put"));
    }

    @Test
    void refused_whenATransactionConflicts_expectNothingAppliedAndOneReasonPerItem(EmbeddedAws aws,
            StackResources r) {
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("conflict",
                FaultInjector.Call.dynamoDb("TransactWriteItems"), FaultInjector.When.matches(1),
                new FaultInjector.Fault.Refused(FaultInjector::transactionConflict)));
        try (DynamoDbClient dynamo = dynamoDb(aws, faults)) {
            TransactionCanceledException e = assertThrows(TransactionCanceledException.class, () ->
                    dynamo.transactWriteItems(b -> b.transactItems(putItem(r.urlsTable(), "tx-1"),
                            putItem(r.urlsTable(), "tx-2"))));
            assertEquals(List.of("TransactionConflict", "None"), e.cancellationReasons().stream()
                    .map(c -> c.code()).toList());
        }
        assertFalse(exists(aws, r.urlsTable(), "tx-1"), "refused before it was sent");
        faults.requireFired();
    }

    @Test
    void errorReply_whenThrottledTwice_expectTheSdkToRetryUntilTheThirdAttemptIsAnswered(EmbeddedAws aws,
            StackResources r) {
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("throttle",
                FaultInjector.Call.dynamoDb("PutItem"), FaultInjector.When.matches(1, 2),
                FaultInjector.dynamoDbReply(400, "ProvisionedThroughputExceededException")));
        try (DynamoDbClient dynamo = dynamoDb(aws, faults)) {
            put(dynamo, r.urlsTable(), "thr-1");
        }
        assertEquals(2, faults.injected("throttle"));
        assertEquals(3, faults.matched("throttle"), "three attempts of one call");
        assertTrue(exists(aws, r.urlsTable(), "thr-1"));
    }

    @Test
    void errorReply_whenS3AnswersSlowDownOnce_expectTheSdkRetryToSucceed(EmbeddedAws aws, StackResources r) {
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("slow down",
                FaultInjector.Call.s3("PutObject").keyPrefix("faults/"), FaultInjector.When.matches(1),
                FaultInjector.s3Reply(503, "SlowDown")));
        try (S3Client s3 = S3Client.builder().endpointOverride(aws.s3Endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).forcePathStyle(true)
                .overrideConfiguration(c -> c.addExecutionInterceptor(faults)).build()) {
            s3.putObject(b -> b.bucket(r.bucket()).key("faults/a"), RequestBody.fromString("a"));
        }
        assertEquals("a", aws.s3().getObjectAsBytes(b -> b.bucket(r.bucket()).key("faults/a")).asUtf8String());
        assertEquals(Map.of("slow down", 1), faults.injected());
    }

    @Test
    void refused_whenS3SaysSlowDown_expectThe503AndNoObject(EmbeddedAws aws, StackResources r) {
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("slow down",
                FaultInjector.Call.s3("PutObject"), FaultInjector.When.matches(1),
                new FaultInjector.Fault.Refused(FaultInjector::s3SlowDown)));
        try (S3Client s3 = S3Client.builder().endpointOverride(aws.s3Endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).forcePathStyle(true)
                .overrideConfiguration(c -> c.addExecutionInterceptor(faults)).build()) {
            S3Exception e = assertThrows(S3Exception.class, () -> s3.putObject(b -> b.bucket(r.bucket())
                    .key("faults/refused"), RequestBody.fromString("b")));
            assertEquals(503, e.statusCode());
            assertEquals("SlowDown", e.awsErrorDetails().errorCode());
        }
        assertTrue(aws.s3().listObjectsV2(b -> b.bucket(r.bucket()).prefix("faults/refused")).contents().isEmpty());
    }

    @Test
    void requireFired_whenARuleNeverMatched_expectAnAssertionError(EmbeddedAws aws, StackResources r) {
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("never",
                FaultInjector.Call.dynamoDb("DeleteTable"), FaultInjector.When.matches(1),
                new FaultInjector.Fault.Refused(FaultInjector::dynamoDbInternalError)));
        try (DynamoDbClient dynamo = dynamoDb(aws, faults)) {
            put(dynamo, r.urlsTable(), "never-1");
        }
        assertThrows(AssertionError.class, faults::requireFired);
        assertEquals(0, faults.matched("never"), "a PutItem is not a DeleteTable");
    }

    private static DynamoDbClient dynamoDb(EmbeddedAws aws, FaultInjector faults) {
        return DynamoDbClient.builder().endpointOverride(aws.dynamoDbEndpoint()).region(Region.US_EAST_1)
                .credentialsProvider(credentials()).overrideConfiguration(c -> c.addExecutionInterceptor(faults))
                .build();
    }

    private static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(EmbeddedAws.ACCESS_KEY,
                EmbeddedAws.SECRET_KEY));
    }

    private static void put(DynamoDbClient dynamo, String table, String hash) {
        dynamo.putItem(b -> b.tableName(table).item(Map.of("urlHash", AttributeValue.fromS(hash))));
    }

    private static TransactWriteItem putItem(String table, String hash) {
        return TransactWriteItem.builder().put(p -> p.tableName(table)
                .item(Map.of("urlHash", AttributeValue.fromS(hash)))).build();
    }

    private static boolean exists(EmbeddedAws aws, String table, String hash) {
        return aws.dynamoDb().getItem(b -> b.tableName(table).key(Map.of("urlHash", AttributeValue.fromS(hash))))
                .hasItem();
    }
}
