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
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenario 2: writes that applied but whose reply was lost (the caller sees a 500 after the write landed), next to
 * transactions cancelled for a TransactionConflict and a send to the fetch queue refused before it landed.
 */
@Isolated
@ExtendWith(EmbeddedAwsExtension.class)
class FaultReplyLostTest {

    @Test
    void batch_whenWritesApplyButTheirRepliesAreLostAndTransactionsConflict_expectEveryUrlEndedOnce(
            EmbeddedAws aws, @TempDir Path dir) throws Exception {
        StackResources r = FaultChecks.resources(aws, "lost", FaultChecks.VISIBILITY);
        FaultInjector faults = FaultInjector.create()
                .add(new Rule("body reply lost", FaultCrashTest.bodyPut(), When.matches(4),
                        new Fault.ReplyLost(FaultInjector::s3InternalError)))
                .add(new Rule("row reply lost", FaultCrashTest.rowWrite(r), When.matches(3),
                        new Fault.ReplyLost(FaultInjector::dynamoDbInternalError)))
                .add(new Rule("item reply lost", FaultCrashTest.itemEnd(), When.matches(2, 9),
                        new Fault.ReplyLost(FaultInjector::dynamoDbInternalError)))
                .add(new Rule("item conflict", FaultCrashTest.itemEnd(), When.matches(1, 6, 7),
                        new Fault.Refused(FaultInjector::transactionConflict)))
                .add(new Rule("frontier reply lost", FaultCrashTest.frontierDone(r), When.matches(2),
                        new Fault.ReplyLost(FaultInjector::dynamoDbInternalError)))
                .add(new Rule("frontier conflict", FaultCrashTest.frontierDone(r), When.matches(1, 4),
                        new Fault.Refused(FaultInjector::transactionConflict)))
                .add(new Rule("send reply lost", Call.sqs("SendMessageBatch").onQueue(r.fetchQueueUrl()),
                        When.matches(3), new Fault.ReplyLost(FaultInjector::sqsInternalError)))
                .add(new Rule("send refused", Call.sqs("SendMessageBatch").onQueue(r.fetchQueueUrl()),
                        When.matches(4), new Fault.Refused(FaultInjector::sqsInternalError)));
        try (FaultChecks.Farm farm = FaultChecks.farm(3, 8, dir);
                LocalSpiderling local = FaultChecks.start(aws, r, farm, faults, UnaryOperator.identity())) {
            String batchId = FaultChecks.submit(local, faults, farm.urls());
            JsonNode status = FaultChecks.awaitDone(local, batchId, Duration.ofSeconds(60));

            Map<String, String> repeats = FaultChecks.lostResults(faults, farm, rule -> rule.equals("body reply lost"));
            System.out.println("[faults] reply lost: "
                    + FaultChecks.verify(local, faults, batchId, farm, status, repeats));
        }
    }
}
