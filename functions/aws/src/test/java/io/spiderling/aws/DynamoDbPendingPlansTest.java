package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.port.PendingPlans.Pending;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbPendingPlansTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    @Test
    void waitingSince_whenKeysWatched_listsThoseOfThePrefixWatchedBeforeTheCutoffOldestFirst(EmbeddedAws aws,
            StackResources res) {
        DynamoDbPendingPlans plans = new DynamoDbPendingPlans(aws.dynamoDb(), res.batchesTable());
        plans.expect("manifests/b.txt", T0.plusSeconds(20));
        plans.expect("manifests/a.txt", T0.plusSeconds(10));
        plans.expect("manifests/late.txt", T0.plusSeconds(90));
        plans.expect("uploads/u.jsonl", T0);

        assertEquals(List.of(new Pending("manifests/a.txt", T0.plusSeconds(10)),
                new Pending("manifests/b.txt", T0.plusSeconds(20))),
                plans.waitingSince("manifests/", T0.plusSeconds(60), 10));
        assertEquals(List.of(new Pending("manifests/a.txt", T0.plusSeconds(10))),
                plans.waitingSince("manifests/", T0.plusSeconds(60), 1));
        assertEquals(List.of(new Pending("uploads/u.jsonl", T0)), plans.waitingSince("uploads/", T0.plusSeconds(1),
                10));
    }

    @Test
    void planned_whenKeyWatched_stopsWatchingItAndExpectAgainMovesItsTime(EmbeddedAws aws, StackResources res) {
        DynamoDbPendingPlans plans = new DynamoDbPendingPlans(aws.dynamoDb(), res.batchesTable());
        plans.expect("uploads/x.txt", T0);
        plans.expect("uploads/y.txt", T0);
        plans.planned("uploads/x.txt");
        plans.planned("uploads/never-watched.txt");
        plans.expect("uploads/y.txt", T0.plusSeconds(30));

        assertEquals(List.of(new Pending("uploads/y.txt", T0.plusSeconds(30))),
                plans.waitingSince("uploads/", T0.plusSeconds(31), 10));
        assertEquals(List.of(), plans.waitingSince("uploads/", T0.plusSeconds(30), 10), "cutoff is exclusive");
    }
}
