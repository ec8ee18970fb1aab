package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsFetchOutcome;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.robots.RobotsVerdict;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbRobotsStoreTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    private final DynamoDbRobotsStore store;

    DynamoDbRobotsStoreTest(EmbeddedAws aws, StackResources res) {
        this.store = new DynamoDbRobotsStore(aws.dynamoDb(), res.sitesTable());
    }

    @Test
    void claimFetch_whenAnotherFetcherHoldsIt_refusesUntilItLapsesAndLeavesTheCachedRulesAlone() {
        assertEquals("attribute_not_exists(pk) OR #until <= :now OR claimant = :claimant",
                DynamoDbRobotsStore.CLAIM_CONDITION);
        RobotsOrigin origin = RobotsOrigin.of("https://claimed.example/");

        assertTrue(store.claimFetch(origin, NOW, NOW.plusSeconds(45)));
        assertFalse(store.claimFetch(origin, NOW.plusSeconds(1), NOW.plusSeconds(46)), "held by the first");
        assertTrue(store.claimFetch(origin, NOW.plusSeconds(45), NOW.plusSeconds(90)), "lapsed");
        assertEquals(Optional.empty(), store.find(origin), "a claim is no cached copy");
    }

    @Test
    void claimFetch_whenTheClaimLandedButItsAnswerWasA500_theSdksRetryFindsItsOwnClaimGranted(EmbeddedAws aws,
            StackResources res) {
        io.spiderling.testkit.FaultInjector faults = io.spiderling.testkit.FaultInjector.create().add(
                new io.spiderling.testkit.FaultInjector.Rule("claim answered 500",
                        io.spiderling.testkit.FaultInjector.Call.dynamoDb("PutItem"),
                        io.spiderling.testkit.FaultInjector.When.matches(1),
                        io.spiderling.testkit.FaultInjector.dynamoDbReply(500, "InternalServerError")));
        RobotsOrigin origin = RobotsOrigin.of("https://answer-lost.example/");
        try (software.amazon.awssdk.services.dynamodb.DynamoDbClient dynamo =
                software.amazon.awssdk.services.dynamodb.DynamoDbClient.builder()
                        .endpointOverride(aws.dynamoDbEndpoint()).region(software.amazon.awssdk.regions.Region.US_EAST_1)
                        .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                                software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                                        EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY)))
                        .overrideConfiguration(c -> c.addExecutionInterceptor(faults)).build()) {
            DynamoDbRobotsStore flaky = new DynamoDbRobotsStore(dynamo, res.sitesTable());

            assertTrue(flaky.claimFetch(origin, NOW, NOW.plusSeconds(45)), "its own claim, found by the retry");
        }
        assertEquals(2, faults.matched("claim answered 500"), "the claim landed, its answer was lost, the SDK sent it again");
        assertFalse(store.claimFetch(origin, NOW.plusSeconds(1), NOW.plusSeconds(46)), "and it holds against others");
    }

    @Test
    void releaseFetch_whenTheHolderGivesItUp_anotherClaimsAtOnce() {
        RobotsOrigin origin = RobotsOrigin.of("https://given-back.example/");
        assertTrue(store.claimFetch(origin, NOW, NOW.plusSeconds(45)));

        store.releaseFetch(origin);

        assertTrue(store.claimFetch(origin, NOW.plusSeconds(1), NOW.plusSeconds(46)), "free at once, not in 44 s");
        assertEquals(Optional.empty(), store.find(origin));
    }

    @Test
    void releaseFetchClaims_whenClaimsHeldAndLapsed_endsTheHeldOnesAndLeavesTheCachedRulesAlone() {
        assertEquals("sk = :fetching AND #until > :now", DynamoDbRobotsStore.HELD_CLAIMS);
        Instant later = NOW.plus(Duration.ofDays(1)); // every other test's claim has lapsed by then
        RobotsOrigin held = RobotsOrigin.of("https://held.example/");
        RobotsOrigin alsoHeld = RobotsOrigin.of("http://held.example:8080/");
        RobotsOrigin lapsed = RobotsOrigin.of("https://lapsed.example/");
        RobotsCacheEntry rules = RobotsPolicy.create().onFetched(held, RobotsFetchOutcome.Response.of(200,
                "User-agent: *\nDisallow: /private\n"), Optional.empty(), later.minusSeconds(3600), 0.0);
        store.save(rules);
        assertTrue(store.claimFetch(lapsed, later.minusSeconds(60), later.minusSeconds(15)));
        assertTrue(store.claimFetch(held, later.minusSeconds(5), later.plusSeconds(40)));
        assertTrue(store.claimFetch(alsoHeld, later.minusSeconds(5), later.plusSeconds(40)));

        assertEquals(2, store.releaseFetchClaims(later), "the two held; the lapsed one holds nothing");

        assertEquals(0, store.releaseFetchClaims(later), "none left");
        assertTrue(store.claimFetch(held, later, later.plusSeconds(45)), "free at once, not in 40 s");
        assertTrue(store.claimFetch(alsoHeld, later, later.plusSeconds(45)));
        assertEquals(Optional.of(rules), store.find(held), "the cached rules are another item");
    }

    @Test
    void save_whenRulesStored_readsBackAnEntryThatDecidesTheSame() {
        RobotsPolicy policy = RobotsPolicy.create();
        RobotsOrigin origin = RobotsOrigin.of("https://round-trip.example/");
        RobotsCacheEntry entry = policy.onFetched(origin, RobotsFetchOutcome.Response.of(200,
                "User-agent: *\nDisallow: /private\nCrawl-delay: 3\n"), Optional.empty(), NOW, 0.0);

        store.save(entry);
        Optional<RobotsCacheEntry> read = store.find(origin);

        assertEquals(Optional.of(entry), read);
        assertTrue(policy.decide(read, "https://round-trip.example/private/x", NOW)
                instanceof RobotsVerdict.Disallowed);
        assertEquals(new RobotsVerdict.Allowed(Duration.ofSeconds(3)),
                policy.decide(read, "https://round-trip.example/public", NOW));
    }

    @Test
    void save_whenOutageRecorded_keepsTheFailureCountAndRetryTime() {
        RobotsPolicy policy = RobotsPolicy.create();
        RobotsOrigin origin = RobotsOrigin.of("http://outage.example:8080/");
        RobotsCacheEntry failed = policy.onFetched(origin, new RobotsFetchOutcome.Failure(FailureKind.CONNECT, 0),
                Optional.empty(), NOW, 0.0);

        store.save(failed);

        RobotsCacheEntry read = store.find(origin).orElseThrow();
        assertEquals(failed, read);
        assertEquals(1, read.consecutiveFailures());
        assertFalse(read.hasCopy());
        assertEquals(Optional.empty(), store.find(RobotsOrigin.of("http://outage.example/")), "another origin");
    }
}
