package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.aws.DynamoDbFrontierStore;
import io.spiderling.aws.DynamoDbRateStore;
import io.spiderling.aws.DynamoDbRobotsStore;
import io.spiderling.aws.SqsFetchQueue;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What a local stack undoes at start of what its dead process held. */
@ExtendWith(EmbeddedAwsExtension.class)
class LocalResumeTest {

    private static final Instant NOW = Instant.parse("2026-11-24T06:00:00Z");

    @Test
    void resume_whenTheDeadProcessHeldARobotsFetchClaim_releasesItSoTheOriginIsFetchedAtOnce(EmbeddedAws aws,
            StackResources resources) {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        DynamoDbRobotsStore robots = new DynamoDbRobotsStore(aws.dynamoDb(), resources.sitesTable());
        RobotsOrigin fetching = RobotsOrigin.of("http://127.0.0.4:8080/");
        assertTrue(robots.claimFetch(fetching, NOW.minusSeconds(5), NOW.plusSeconds(40)), "the dead process's");
        assertFalse(robots.claimFetch(fetching, NOW, NOW.plusSeconds(45)), "held for 40 s more");
        aws.sqs().sendMessage(b -> b.queueUrl(resources.fetchQueueUrl()).messageBody("a job the frontier re-sends")
                .messageGroupId("127.0.0.4").messageDeduplicationId("stale-copy"));
        Frontier frontier = new Frontier(new DynamoDbFrontierStore(aws.dynamoDb(), resources.sitesTable()),
                new SqsFetchQueue(aws.sqs(), resources.fetchQueueUrl()), clock, Frontier.Settings.DEFAULTS);

        LocalResume.Resumed resumed = LocalResume.resume(new LocalResume.Parts(aws.sqs(),
                resources.fetchQueueUrl(), frontier, new DynamoDbRateStore(aws.dynamoDb(), resources.sitesTable(), clock),
                robots), NOW);

        assertEquals(new LocalResume.Resumed(1, 0, 0, 1), resumed);
        assertTrue(robots.claimFetch(fetching, NOW, NOW.plusSeconds(45)), "free at once, not in 40 s");
    }
}
