package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Optional;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.model.Message;

/** The adapters' own client construction, as the Lambdas use it locally, against the embedded endpoints. */
@ExtendWith(EmbeddedAwsExtension.class)
class AwsClientsTest {

    @Test
    void create_whenLocalSettings_buildsClientsTheAdaptersCanUse(EmbeddedAws aws, StackResources res) {
        List<AwsService> asked = new ArrayList<>();
        Map<AwsService, URI> endpoints = Map.of(AwsService.SQS, aws.sqsEndpoint(), AwsService.DYNAMODB,
                aws.dynamoDbEndpoint(), AwsService.S3, aws.s3Endpoint(), AwsService.SECRETS_MANAGER,
                aws.secretsManagerEndpoint());

        try (AwsClients clients = AwsClients.create(EmbeddedAws.REGION, Optional.of(new AwsClients.StaticCredentials(
                EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY)), service -> {
                    asked.add(service);
                    return Optional.of(endpoints.get(service));
                })) {
            assertEquals(List.of(), asked, "no endpoint is needed before a client is");
            // S3, path-style against the emulator.
            new S3BlobStore(clients.s3(), clients.s3Presigner(), res.bucket()).put("clients/check", new byte[] {1, 2, 3}, "application/octet-stream",
                    Map.of("k", "v"));
            assertArrayEquals(new byte[] {1, 2, 3}, aws.s3().getObjectAsBytes(b -> b.bucket(res.bucket())
                    .key("clients/check")).asByteArray());
            // DynamoDB.
            BatchHeader header = BatchHeader.builder().batchId("clients-check").total(1).source(BatchSource.HTTP)
                    .createdAt(Instant.parse("2025-03-01T10:00:00Z")).build();
            new DynamoDbBatchStore(clients.dynamoDb(), res.batchesTable()).createBatch(header);
            assertEquals(header, new DynamoDbBatchStore(aws.dynamoDb(), res.batchesTable())
                    .status("clients-check").orElseThrow().header());
            // SQS.
            FetchJob job = new FetchJob("clients-check", NormalizedUrl.parse("https://example.com/"), 1);
            new SqsFetchQueue(clients.sqs(), res.fetchQueueUrl()).enqueue(List.of(job));
            List<Message> received = aws.sqs().receiveMessage(b -> b.queueUrl(res.fetchQueueUrl())).messages();
            assertEquals(List.of(job), received.stream().map(m -> FetchJobCodec.decode(m.body())).toList());

            // Secrets Manager.
            String arn = res.secret(io.spiderling.catalog.Secret.CLIENTS);
            aws.secretsManager().putSecretValue(b -> b.secretId(arn).secretString("acme tok whsec"));
            assertEquals("acme tok whsec", new SecretsManagerText(clients.secretsManager(), arn).get());

            clients.s3();
            clients.sqs();
            assertEquals(List.of(AwsService.S3, AwsService.S3, AwsService.DYNAMODB, AwsService.SQS,
                    AwsService.SECRETS_MANAGER), asked, "each endpoint asked once per client built, and only then");
        }
    }

    @Test
    void create_whenInterceptorsAreGiven_expectEveryClientToCallThem(EmbeddedAws aws, StackResources res) {
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        software.amazon.awssdk.core.interceptor.ExecutionInterceptor recording =
                new software.amazon.awssdk.core.interceptor.ExecutionInterceptor() {
                    @Override
                    public void beforeExecution(software.amazon.awssdk.core.interceptor.Context.BeforeExecution c,
                            software.amazon.awssdk.core.interceptor.ExecutionAttributes a) {
                        seen.add(a.getAttribute(software.amazon.awssdk.core.interceptor.SdkExecutionAttribute
                                .OPERATION_NAME));
                    }
                };
        Map<AwsService, URI> endpoints = Map.of(AwsService.SQS, aws.sqsEndpoint(), AwsService.DYNAMODB,
                aws.dynamoDbEndpoint(), AwsService.S3, aws.s3Endpoint());
        try (AwsClients clients = AwsClients.create(EmbeddedAws.REGION, Optional.of(new AwsClients.StaticCredentials(
                EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY)), service -> Optional.of(endpoints.get(service)),
                List.of(recording))) {
            clients.s3().headBucket(b -> b.bucket(res.bucket()));
            clients.dynamoDb().describeTable(b -> b.tableName(res.batchesTable()));
            clients.sqs().getQueueAttributes(b -> b.queueUrl(res.fetchQueueUrl()));
        }
        assertEquals(List.of("HeadBucket", "DescribeTable", "GetQueueAttributes"), seen);
    }
}
