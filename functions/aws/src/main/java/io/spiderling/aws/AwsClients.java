package io.spiderling.aws;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The SDK clients, each built on first use. A function builds only the clients of the APIs it calls, and asks for an
 * API's endpoint only then, so its configuration holds only what it uses. The url-connection HTTP client is chosen
 * explicitly: it starts fastest and needs no native-image configuration, which matters more for Lambda than
 * connection pooling. One instance is shared by the whole function; thread-safe.
 */
public final class AwsClients implements AutoCloseable {

    /** Static credentials, for emulators only; on AWS the function's role is used. */
    public record StaticCredentials(String accessKeyId, String secretAccessKey) {}

    private final Region region;
    private final AwsCredentialsProvider credentials;
    private final Function<AwsService, Optional<URI>> endpoints;
    private final List<ExecutionInterceptor> interceptors;
    private final SdkHttpClient http = UrlConnectionHttpClient.create();
    private final List<AutoCloseable> built = new ArrayList<>();
    private SqsClient sqs;
    private DynamoDbClient dynamoDb;
    private S3Client s3;
    private S3Presigner presigner;
    private SecretsManagerClient secretsManager;

    private AwsClients(String region, Optional<StaticCredentials> credentials,
            Function<AwsService, Optional<URI>> endpoints, List<ExecutionInterceptor> interceptors) {
        this.region = Region.of(region);
        this.credentials = credentials.<AwsCredentialsProvider>map(c -> StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey())))
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
        this.endpoints = endpoints;
        this.interceptors = List.copyOf(interceptors);
    }

    /**
     * @param endpoints an API's endpoint override, asked once, when its first client is built; empty on AWS
     */
    public static AwsClients create(String region, Optional<StaticCredentials> credentials,
            Function<AwsService, Optional<URI>> endpoints) {
        return create(region, credentials, endpoints, List.of());
    }

    /**
     * @param interceptors set on every client built (not the presigner, which sends nothing), in this order: where
     *     tests attach fault injection to every SDK call of a pipeline, its queue pollers' included
     */
    public static AwsClients create(String region, Optional<StaticCredentials> credentials,
            Function<AwsService, Optional<URI>> endpoints, List<ExecutionInterceptor> interceptors) {
        return new AwsClients(region, credentials, endpoints, interceptors);
    }

    public synchronized SqsClient sqs() {
        if (sqs == null) {
            sqs = keep(() -> configure(SqsClient.builder(), endpoints.apply(AwsService.SQS)).httpClient(http).build());
        }
        return sqs;
    }

    public synchronized DynamoDbClient dynamoDb() {
        if (dynamoDb == null) {
            dynamoDb = keep(() -> configure(DynamoDbClient.builder(), endpoints.apply(AwsService.DYNAMODB))
                    .httpClient(http).build());
        }
        return dynamoDb;
    }

    public synchronized S3Client s3() {
        if (s3 == null) {
            Optional<URI> endpoint = s3Endpoint();
            // Path-style only where an endpoint is overridden: emulators do not serve virtual-host buckets.
            s3 = keep(() -> configure(S3Client.builder(), endpoint).forcePathStyle(endpoint.isPresent())
                    .httpClient(http).build());
        }
        return s3;
    }

    /** Signs URLs for S3 requests made by others (a client uploading its manifest, or reading a body). */
    public synchronized S3Presigner s3Presigner() {
        if (presigner == null) {
            Optional<URI> endpoint = s3Endpoint();
            S3Presigner.Builder presign = S3Presigner.builder().region(region).credentialsProvider(credentials)
                    .serviceConfiguration(S3Configuration.builder()
                            .pathStyleAccessEnabled(endpoint.isPresent()).build());
            endpoint.ifPresent(presign::endpointOverride);
            presigner = keep(presign::build);
        }
        return presigner;
    }

    public synchronized SecretsManagerClient secretsManager() {
        if (secretsManager == null) {
            secretsManager = keep(() -> configure(SecretsManagerClient.builder(),
                    endpoints.apply(AwsService.SECRETS_MANAGER)).httpClient(http).build());
        }
        return secretsManager;
    }

    private Optional<URI> s3Endpoint() {
        return endpoints.apply(AwsService.S3);
    }

    private <T extends AutoCloseable> T keep(Supplier<T> build) {
        T client = build.get();
        built.add(client);
        return client;
    }

    private <B extends AwsClientBuilder<B, ?>> B configure(B builder, Optional<URI> endpoint) {
        builder.region(region).credentialsProvider(credentials);
        if (!interceptors.isEmpty()) {
            builder.overrideConfiguration(c -> interceptors.forEach(c::addExecutionInterceptor));
        }
        endpoint.ifPresent(builder::endpointOverride);
        return builder;
    }

    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        for (AutoCloseable client : built) {
            try {
                client.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing the AWS clients failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        built.clear();
        http.close();
        if (failure != null) {
            throw failure;
        }
    }
}
