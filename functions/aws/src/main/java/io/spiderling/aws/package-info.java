/**
 * AWS SDK v2 adapters of the core ports. They use the low-level DynamoDB client with explicit attribute maps and
 * Jackson's tree model, so native images need no reflection metadata for them. Endpoints come from
 * {@link io.spiderling.aws.AwsClients}: the same code talks to AWS, LocalStack or the embedded stack.
 */
package io.spiderling.aws;
