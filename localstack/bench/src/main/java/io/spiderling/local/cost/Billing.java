package io.spiderling.local.cost;

import java.util.Set;

/**
 * How SQS, S3 and Lambda count what they bill, as pure functions. DynamoDB's rules are in {@link CapacityUnits}.
 */
public final class Billing {

    /** SQS bills each 64 KB chunk of a request's payload as one request (aws.amazon.com/sqs/features/). */
    public static final int SQS_CHUNK_BYTES = 64 * 1024;

    /**
     * What Lambda writes to the function's log for every invocation, whatever the code logs: the START, END and
     * REPORT lines ("How CloudWatch structures logs", docs.aws.amazon.com/lambda/latest/operatorguide/
     * log-structure.html). Their bytes, from the format of the Lambda developer guide's example (a request id is 36
     * characters; the REPORT line with typical numbers and no Init Duration, which only a cold start has).
     */
    public static final int LAMBDA_PLATFORM_LOG_BYTES = bytes(
            "START RequestId: 8f507cfc-xmpl-4697-b07a-ac58fc914c95 Version: $LATEST\n",
            "END RequestId: 8f507cfc-xmpl-4697-b07a-ac58fc914c95\n",
            "REPORT RequestId: 8f507cfc-xmpl-4697-b07a-ac58fc914c95\tDuration: 123.45 ms\tBilled Duration: 124 ms"
                    + "\tMemory Size: 512 MB\tMax Memory Used: 180 MB\t\n");

    /** S3 requests billed at the PUT rate; DELETE is free; everything else (GET, HEAD, …) at the GET rate. */
    private static final Set<String> S3_PUT_CLASS = Set.of("PutObject", "CopyObject", "PostObject",
            "CreateMultipartUpload", "UploadPart", "UploadPartCopy", "CompleteMultipartUpload", "ListObjects",
            "ListObjectsV2", "ListObjectVersions", "ListBuckets", "ListMultipartUploads", "ListParts", "CreateBucket");
    private static final Set<String> S3_FREE = Set.of("DeleteObject", "DeleteObjects", "AbortMultipartUpload");

    private Billing() {}

    /** The requests SQS bills for a call whose payload (message bodies and attributes) is {@code bytes}. */
    public static long sqsRequests(long payloadBytes) {
        return Math.max(1, (payloadBytes + SQS_CHUNK_BYTES - 1) / SQS_CHUNK_BYTES);
    }

    /** The S3 price class of an operation, as the SDK names it. */
    public static S3Class s3Class(String operation) {
        return S3_FREE.contains(operation) ? S3Class.FREE
                : S3_PUT_CLASS.contains(operation) ? S3Class.PUT : S3Class.GET;
    }

    public enum S3Class { PUT, GET, FREE }

    /** Lambda bills duration in whole milliseconds, rounded up (aws.amazon.com/lambda/pricing/). */
    public static long lambdaBilledMillis(long nanos) {
        return Math.max(1, (nanos + 999_999) / 1_000_000);
    }

    /** GB-seconds of an invocation billed {@code millis} at {@code memoryMb} (1,024 MB to a GB, as Lambda counts). */
    public static double gbSeconds(long millis, int memoryMb) {
        return millis / 1000.0 * memoryMb / 1024.0;
    }

    private static int bytes(String... lines) {
        int sum = 0;
        for (String line : lines) {
            sum += line.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        return sum;
    }
}
