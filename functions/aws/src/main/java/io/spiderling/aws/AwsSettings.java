package io.spiderling.aws;

import java.net.URI;
import java.util.Optional;

/**
 * Where the AWS APIs are. On AWS every endpoint is empty and credentials come from the Lambda environment; locally
 * the endpoints point at LocalStack or the embedded stack and static credentials are given.
 */
public record AwsSettings(String region, Optional<URI> sqsEndpoint, Optional<URI> dynamoDbEndpoint,
        Optional<URI> s3Endpoint, Optional<StaticCredentials> credentials) {

    public record StaticCredentials(String accessKeyId, String secretAccessKey) {}

    /** One endpoint for all three services, as LocalStack serves them. */
    public static AwsSettings local(String region, URI sqs, URI dynamoDb, URI s3, String accessKey, String secretKey) {
        return new AwsSettings(region, Optional.of(sqs), Optional.of(dynamoDb), Optional.of(s3),
                Optional.of(new StaticCredentials(accessKey, secretKey)));
    }
}
