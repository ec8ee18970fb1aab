package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenarios 4 and 5: DynamoDB throttles and 500s, then S3 500s and SlowDown, on random calls from seeded sequences.
 * Each kind comes twice: as an HTTP answer the SDK's retry policy sees (and usually absorbs, after the request
 * applied), and as an exception the code itself gets, refused before it was sent.
 */
@Isolated
@ExtendWith(EmbeddedAwsExtension.class)
class FaultThrottleTest {

    /**
     * A run takes 10 to 15 s. The deadline leaves room for the slowest recovery a run may need: when both the save of
     * an origin's robots.txt rules and the release of its fetch claim fail, the origin waits out the claim (45 s) before
     * anyone fetches it again. One run in 40 of {@link #repeated_whenDynamoDbFaultsSeededAnewEachRun_expectEveryBatchDone}
     * met that, and took 51 s.
     */
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @Test
    void batch_whenDynamoDbThrottlesAndFailsRandomCalls_expectEveryUrlEndedOnce(EmbeddedAws aws, @TempDir Path dir)
            throws Exception {
        StackResources r = FaultChecks.resources(aws, "ddb", FaultChecks.VISIBILITY);
        run(aws, r, dynamoDbFaults(40), dir, "dynamodb");
    }

    /**
     * Not part of the suite: the DynamoDB scenario {@code fault.repeat} times, its faults seeded anew each run, counting
     * the runs whose batch was not done in time, with the stack's tables printed for each. Which call a seeded rule
     * hits depends on the order of concurrent calls, so a rare interleaving shows only over many runs; this is how
     * the leaked rate slot was found (2 runs in 25 before the fix, 0 in 40 after). About 15 s a run:
     * {@code ./mvnw -B -o test -pl localstack/e2e -Dtest=FaultThrottleTest#repeated* -Dfault.repeat=40}.
     */
    @Test
    @EnabledIfSystemProperty(named = "fault.repeat", matches = "[1-9][0-9]*")
    void repeated_whenDynamoDbFaultsSeededAnewEachRun_expectEveryBatchDone(EmbeddedAws aws, @TempDir Path dir)
            throws Exception {
        int runs = Integer.getInteger("fault.repeat");
        long seeds = System.nanoTime();
        List<String> stuck = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            long base = seeds + 10L * run;
            StackResources r = FaultChecks.resources(aws, "ddb", FaultChecks.VISIBILITY);
            FaultInjector faults = dynamoDbFaults(base);
            try (FaultChecks.Farm farm = FaultChecks.farm(3, 5, dir);
                    LocalSpiderling local = FaultChecks.start(aws, r, farm, faults, UnaryOperator.identity())) {
                String batchId = FaultChecks.submit(local, faults, farm.urls());
                long started = System.nanoTime();
                JsonNode status = FaultChecks.awaitDone(local, batchId, DEADLINE);
                boolean done = status != null && status.get("done").asBoolean() && status.has("completedAt");
                System.out.printf("[repeat] run %d, seeds from %d: %s in %d ms%n", run, base,
                        done ? "done" : "NOT DONE", (System.nanoTime() - started) / 1_000_000);
                if (!done) {
                    faults.disarm();
                    stuck.add("run " + run + " (seeds from " + base + ")");
                    System.out.println("[repeat] status " + status);
                    faults.injections().forEach(i -> System.out.println("[repeat] injected " + i.rule() + ": "
                            + i.request()));
                    for (String table : List.of(r.sitesTable(), r.urlsTable(), r.batchesTable())) {
                        aws.dynamoDb().scanPaginator(b -> b.tableName(table)).items()
                                .forEach(item -> System.out.println("[repeat] " + table + ": " + item));
                    }
                }
            }
        }
        assertEquals(List.of(), stuck, "runs whose batch was not done in " + DEADLINE + ", of " + runs);
    }

    /** The DynamoDB scenario's faults: six rules, each seeded from {@code base}. */
    private static FaultInjector dynamoDbFaults(long base) {
        Call any = Call.anyDynamoDb();
        return FaultInjector.create()
                .add(new Rule("throughput exceeded, to the SDK", any, When.randomly(0.10, base + 1, 10),
                        FaultInjector.dynamoDbReply(400, "ProvisionedThroughputExceededException")))
                .add(new Rule("throttling, to the SDK", any, When.randomly(0.05, base + 2, 5),
                        FaultInjector.dynamoDbReply(400, "ThrottlingException")))
                .add(new Rule("500, to the SDK", any, When.randomly(0.05, base + 3, 5),
                        FaultInjector.dynamoDbReply(500, "InternalServerError")))
                .add(new Rule("throughput exceeded, to the code", any, When.randomly(0.02, base + 4, 3),
                        new Fault.Refused(FaultInjector::throughputExceeded)))
                .add(new Rule("throttling, to the code", any, When.randomly(0.02, base + 5, 3),
                        new Fault.Refused(FaultInjector::throttling)))
                .add(new Rule("500, to the code", any, When.randomly(0.02, base + 6, 3),
                        new Fault.Refused(FaultInjector::dynamoDbInternalError)));
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
            JsonNode status = FaultChecks.awaitDone(local, batchId, DEADLINE);
            // A body or row not stored (or stored with its answer lost) loses the fetch: its retry asks again.
            Map<String, String> repeats = FaultChecks.lostResults(faults, farm, rule -> rule.endsWith("to the code"),
                    rule -> rule.endsWith("to the SDK"));
            System.out.println("[faults] " + name + ": "
                    + FaultChecks.verify(local, faults, batchId, farm, status, repeats));
        }
    }
}
