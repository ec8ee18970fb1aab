package io.spiderling.local.cost;

import java.time.LocalDate;

/**
 * List prices in US East (N. Virginia), in dollars, as of {@link #AS_OF}: the first pricing tier of each, no free tier,
 * no Savings Plans. Prices change; this is the one table to update, with its date.
 *
 * <p>"GB" is 2³⁰ bytes throughout, as AWS bills storage and log data.
 */
public record AwsPrices(
        LocalDate asOf,
        // DynamoDB on-demand, Standard table class: aws.amazon.com/dynamodb/pricing/on-demand/ (halved on 2024-11-01
        // to $0.625 per million write request units and $0.125 per million read request units).
        double dynamoDbPerMillionWriteUnits,
        double dynamoDbPerMillionReadUnits,
        // S3 Standard: aws.amazon.com/s3/pricing/, "Requests & data retrievals": PUT, COPY, POST, LIST $0.005 per
        // 1,000; GET, SELECT and all other requests (HEAD among them) $0.0004 per 1,000; DELETE is free. Storage,
        // first 50 TB a month: $0.023 per GB-month.
        double s3PerThousandPutClass,
        double s3PerThousandGetClass,
        double s3PerGbMonth,
        // SQS: aws.amazon.com/sqs/pricing/, first 100 billion requests a month: standard $0.40, FIFO $0.50 per
        // million. Each 64 KB chunk of a payload is billed as one request (aws.amazon.com/sqs/features/).
        double sqsPerMillionStandard,
        double sqsPerMillionFifo,
        // Lambda: aws.amazon.com/lambda/pricing/, $0.20 per million requests; duration, first tier: x86 $0.0000166667,
        // Arm $0.0000133334 per GB-second, billed per millisecond.
        double lambdaPerMillionRequests,
        double lambdaPerGbSecondX86,
        double lambdaPerGbSecondArm,
        // CloudWatch Logs: aws.amazon.com/cloudwatch/pricing/, Standard log ingestion $0.50 per GB (Lambda's logs are
        // vended logs since 2025-05-01, from $0.50 per GB for the first 10 TB). Storage ($0.03 per GB-month) left out.
        double logsPerGbIngested,
        // API Gateway HTTP APIs: aws.amazon.com/api-gateway/pricing/, $1.00 per million requests (first 300 million).
        double apiGatewayPerMillionHttpRequests) {

    /** The date the numbers below were checked. */
    public static final LocalDate AS_OF = LocalDate.of(2026, 11, 24);

    /**
     * US East (N. Virginia). EventBridge's scheduled rule that runs the sweep is free (aws.amazon.com/eventbridge/
     * pricing/: no charge for scheduled rules on the default bus), so it has no line.
     */
    public static final AwsPrices US_EAST_1 = new AwsPrices(AS_OF,
            0.625, 0.125,
            0.005, 0.0004, 0.023,
            0.40, 0.50,
            0.20, 0.0000166667, 0.0000133334,
            0.50,
            1.00);

    public static final double GB = 1024.0 * 1024 * 1024;

    public double dynamoDb(double writeUnits, double readUnits) {
        return writeUnits * dynamoDbPerMillionWriteUnits / 1e6 + readUnits * dynamoDbPerMillionReadUnits / 1e6;
    }

    public double s3Requests(long putClass, long getClass) {
        return putClass * s3PerThousandPutClass / 1e3 + getClass * s3PerThousandGetClass / 1e3;
    }

    public double s3StoragePerMonth(long bytes) {
        return bytes / GB * s3PerGbMonth;
    }

    public double sqs(long standardRequests, long fifoRequests) {
        return standardRequests * sqsPerMillionStandard / 1e6 + fifoRequests * sqsPerMillionFifo / 1e6;
    }

    public double lambdaRequests(long invocations) {
        return invocations * lambdaPerMillionRequests / 1e6;
    }

    public double lambdaDuration(double gbSeconds, Architecture architecture) {
        return gbSeconds * (architecture == Architecture.ARM64 ? lambdaPerGbSecondArm : lambdaPerGbSecondX86);
    }

    public double logs(long bytes) {
        return bytes / GB * logsPerGbIngested;
    }

    public double apiGateway(long requests) {
        return requests * apiGatewayPerMillionHttpRequests / 1e6;
    }

    /** Lambda's instruction sets; the CDK stack deploys Arm (Graviton) unless told otherwise. */
    public enum Architecture { ARM64, X86_64 }
}
