package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.FaultInjector.Call;
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
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Scenario 1: the fetch path's invocation dies right after each of its writes, in turn: the body (S3), the URL's row,
 * the batch item's end, the frontier entry's done. A crash is an exception thrown once the write applied; the
 * message comes back after the fetch queue's visibility (lowered to {@link FaultChecks#VISIBILITY} here).
 */
@Isolated
@ExtendWith(EmbeddedAwsExtension.class)
class FaultCrashTest {

    @Test
    void batch_whenTheInvocationDiesAfterEachWriteOfTheFetchPath_expectEveryUrlEndedOnceAndNothingCountedTwice(
            EmbeddedAws aws, @TempDir Path dir) throws Exception {
        StackResources r = FaultChecks.resources(aws, "crash", FaultChecks.VISIBILITY);
        FaultInjector faults = FaultInjector.create()
                .add(new Rule("after body", bodyPut(), When.matches(2, 6), FaultInjector.crash()))
                .add(new Rule("after row", rowWrite(r), When.matches(3, 7), FaultInjector.crash()))
                .add(new Rule("after item", itemEnd(), When.matches(4, 8), FaultInjector.crash()))
                .add(new Rule("after frontier", frontierDone(r), When.matches(3, 5), FaultInjector.crash()));
        try (FaultChecks.Farm farm = FaultChecks.farm(3, 8, dir);
                LocalSpiderling local = FaultChecks.start(aws, r, farm, faults, UnaryOperator.identity())) {
            String batchId = FaultChecks.submit(local, faults, farm.urls());
            JsonNode status = FaultChecks.awaitDone(local, batchId, Duration.ofSeconds(60));

            // A crash after the body and before the row loses the fetch's result: its retry asks the site again.
            Map<String, String> repeats = FaultChecks.lostResults(faults, farm, rule -> rule.equals("after body"));
            String report = FaultChecks.verify(local, faults, batchId, farm, status, repeats);
            System.out.println("[faults] crash: " + report);
            assertTrue(faults.injected("after frontier") == 2, report);
        }
    }

    /** The page's body under its content key. */
    static Call bodyPut() {
        return Call.s3("PutObject").keyPrefix("content/");
    }

    /** The URL's row: the update conditioned on the stored fetch being older. */
    static Call rowWrite(StackResources r) {
        return Call.dynamoDb("UpdateItem").onTable(r.urlsTable()).and(q -> q instanceof UpdateItemRequest u
                && u.conditionExpression() != null && u.conditionExpression().contains("fetchedAt <= :fetchedAt"),
                " recording a fetch");
    }

    /** The batch item's terminal state with its counter. */
    static Call itemEnd() {
        return Call.dynamoDb("TransactWriteItems").and(q -> q instanceof TransactWriteItemsRequest t
                && t.transactItems().stream().anyMatch(i -> i.update() != null
                        && i.update().updateExpression().startsWith("SET #state = :state, reason = :reason, endedAt")),
                " ending an item");
    }

    /** The frontier entry's done: a transaction deleting a released entry. */
    static Call frontierDone(StackResources r) {
        return Call.dynamoDb("TransactWriteItems").onTable(r.sitesTable()).and(q -> q instanceof TransactWriteItemsRequest t
                && t.transactItems().stream().anyMatch(i -> i.delete() != null
                        && i.delete().key().get("sk").s().startsWith("E#")), " freeing a released entry");
    }
}
