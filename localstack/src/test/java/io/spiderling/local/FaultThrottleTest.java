package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.FaultInjector.Call;
import io.spiderling.testkit.FaultInjector.Fault;
import io.spiderling.testkit.FaultInjector.Rule;
import io.spiderling.testkit.FaultInjector.When;
import io.spiderling.testkit.StackResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenarios 4 and 5: DynamoDB throttles and 500s, then S3 500s and SlowDown, on random calls from seeded sequences.
 * Each kind comes twice: as an HTTP answer the SDK's retry policy sees (and usually absorbs, after the request
 * applied), and as an exception the code itself gets, refused before it was sent.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class FaultThrottleTest {

    @Test
    void batch_whenDynamoDbThrottlesAndFailsRandomCalls_expectEveryUrlEndedOnce(EmbeddedAws aws, @TempDir Path dir)
            throws Exception {
        StackResources r = FaultChecks.resources(aws, "ddb", FaultChecks.VISIBILITY);
        Call any = Call.anyDynamoDb();
        FaultInjector faults = FaultInjector.create()
                .add(new Rule("throughput exceeded, to the SDK", any, When.randomly(0.10, 41, 10),
                        FaultInjector.dynamoDbReply(400, "ProvisionedThroughputExceededException")))
                .add(new Rule("throttling, to the SDK", any, When.randomly(0.05, 42, 5),
                        FaultInjector.dynamoDbReply(400, "ThrottlingException")))
                .add(new Rule("500, to the SDK", any, When.randomly(0.05, 43, 5),
                        FaultInjector.dynamoDbReply(500, "InternalServerError")))
                .add(new Rule("throughput exceeded, to the code", any, When.randomly(0.02, 44, 3),
                        new Fault.Refused(FaultInjector::throughputExceeded)))
                .add(new Rule("throttling, to the code", any, When.randomly(0.02, 45, 3),
                        new Fault.Refused(FaultInjector::throttling)))
                .add(new Rule("500, to the code", any, When.randomly(0.02, 46, 3),
                        new Fault.Refused(FaultInjector::dynamoDbInternalError)));
        run(aws, r, faults, dir, "dynamodb");
    }

    @Test
    void batch_whenS3Answers500AndSlowDown_expectEveryUrlEndedOnce(EmbeddedAws aws, @TempDir Path dir)
            throws Exception {
        StackResources r = FaultChecks.resources(aws, "s3", FaultChecks.VISIBILITY);
        Call puts = Call.s3("PutObject");
        FaultInjector faults = FaultInjector.create()
                .add(new Rule("500, to the SDK", puts, When.randomly(0.1, 51, 10),
                        FaultInjector.s3Reply(500, "InternalError")))
                .add(new Rule("SlowDown, to the SDK", puts, When.randomly(0.1, 52, 10),
                        FaultInjector.s3Reply(503, "SlowDown")))
                .add(new Rule("SlowDown, to the code", FaultCrashTest.bodyPut(), When.matches(3),
                        new Fault.Refused(FaultInjector::s3SlowDown)))
                .add(new Rule("500 after the body landed, to the code", FaultCrashTest.bodyPut(), When.matches(6),
                        new Fault.ReplyLost(FaultInjector::s3InternalError)));
        run(aws, r, faults, dir, "s3");
    }

    private static void run(EmbeddedAws aws, StackResources r, FaultInjector faults, Path dir, String name)
            throws Exception {
        try (FaultChecks.Farm farm = FaultChecks.farm(3, 5, dir);
                LocalSpiderling local = FaultChecks.start(aws, r, farm, faults, UnaryOperator.identity())) {
            String batchId = FaultChecks.submit(local, faults, farm.urls());
            JsonNode status = FaultChecks.awaitDone(local, batchId, Duration.ofSeconds(60));
            // A body or row not stored (or stored with its answer lost) loses the fetch: its retry asks again.
            Map<String, String> repeats = FaultChecks.lostResults(faults, farm, rule -> rule.endsWith("to the code"),
                    rule -> rule.endsWith("to the SDK"));
            System.out.println("[faults] " + name + ": "
                    + FaultChecks.verify(local, faults, batchId, farm, status, repeats));
        }
    }
}
