package io.spiderling.aws;

import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The three SDK clients and the S3 presigner, built once from {@link AwsSettings}. The url-connection HTTP client is chosen explicitly:
 * it starts fastest and needs no native-image configuration, which matters more for Lambda than connection pooling.
 */
public final class AwsClients implements AutoCloseable {

    private final SdkHttpClient http;
    private final SqsClient sqs;
    private final DynamoDbClient dynamoDb;
    private final S3Client s3;
    private final S3Presigner presigner;

    private AwsClients(AwsSettings settings) {
        this.http = UrlConnectionHttpClient.create();
        AwsCredentialsProvider credentials = settings.credentials()
                .<AwsCredentialsProvider>map(c -> StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey())))
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
        Region region = Region.of(settings.region());
        this.sqs = configure(SqsClient.builder(), region, credentials, settings.sqsEndpoint())
                .httpClient(http).build();
        this.dynamoDb = configure(DynamoDbClient.builder(), region, credentials, settings.dynamoDbEndpoint())
                .httpClient(http).build();
        this.s3 = configure(S3Client.builder(), region, credentials, settings.s3Endpoint())
                // Path-style only where an endpoint is overridden: emulators do not serve virtual-host buckets.
                .forcePathStyle(settings.s3Endpoint().isPresent())
                .httpClient(http).build();
        S3Presigner.Builder presign = S3Presigner.builder().region(region).credentialsProvider(credentials)
                .serviceConfiguration(S3Configuration.builder()
                        .pathStyleAccessEnabled(settings.s3Endpoint().isPresent()).build());
        settings.s3Endpoint().ifPresent(presign::endpointOverride);
        this.presigner = presign.build();
    }

    public static AwsClients create(AwsSettings settings) {
        return new AwsClients(settings);
    }

    private static <B extends AwsClientBuilder<B, ?>> B configure(B builder, Region region,
            AwsCredentialsProvider credentials, Optional<URI> endpoint) {
        builder.region(region).credentialsProvider(credentials);
        endpoint.ifPresent(builder::endpointOverride);
        return builder;
    }

    public SqsClient sqs() {
        return sqs;
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    public S3Client s3() {
        return s3;
    }

    /** Signs URLs for S3 requests made by others (a client uploading its manifest). */
    public S3Presigner s3Presigner() {
        return presigner;
    }

    @Override
    public void close() {
        sqs.close();
        dynamoDb.close();
        s3.close();
        presigner.close();
        http.close();
    }
}
