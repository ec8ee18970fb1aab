package io.spiderling.aws;

/** The AWS APIs the functions call; each may have its own endpoint (an emulator's) in local runs. */
public enum AwsService {
    SQS,
    DYNAMODB,
    S3,
    SECRETS_MANAGER
}
