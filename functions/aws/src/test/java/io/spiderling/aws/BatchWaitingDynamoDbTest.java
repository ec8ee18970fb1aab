package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Waiting;
import io.spiderling.core.batch.WaitingReasons;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.pipeline.batch.BatchWaiting;
import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.FetchSwitch;
import io.spiderling.core.robots.AccessResult;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@link BatchWaiting} on the DynamoDB adapters: what it reads, and how many calls a status costs. */
@ExtendWith(EmbeddedAwsExtension.class)
class BatchWaitingDynamoDbTest {

    private static final Instant NOW = Instant.parse("2026-11-24T22:40:00Z");
    private static final PauseCause BY_429 = new PauseCause.Throttled(429, Optional.of(Duration.ofSeconds(120)));

    /** Counts the calls made through {@link #dynamo}, by operation. */
    private final Map<String, Integer> calls = new TreeMap<>();
    private final DynamoDbClient dynamo;
    private final DynamoDbBatchStore batches;
    private final DynamoDbBatchOriginStore origins;
    private final DynamoDbFrontierStore frontier;
    private final DynamoDbRateStore rates;
    private final DynamoDbRobotsStore robots;

    BatchWaitingDynamoDbTest(EmbeddedAws aws, StackResources res) {
        ExecutionInterceptor counter = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                synchronized (calls) {
                    calls.merge(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), 1, Integer::sum);
                }
            }
        };
        this.dynamo = aws.dynamoDb(counter);
        this.batches = new DynamoDbBatchStore(dynamo, res.batchesTable());
        this.origins = new DynamoDbBatchOriginStore(dynamo, res.batchesTable());
        this.frontier = new DynamoDbFrontierStore(dynamo, res.sitesTable());
        this.rates = new DynamoDbRateStore(dynamo, res.sitesTable(), Clock.fixed(NOW, ZoneOffset.UTC));
        this.robots = new DynamoDbRobotsStore(dynamo, res.sitesTable());
    }

    @Test
    void of_whenOneSiteRobotsFailsAndAnotherIsPaused_namesBothInEightCalls() {
        String batchId = "w-" + UUID.randomUUID();
        // Sites of their own per run: the table is shared by the class's tests.
        String a = "10.4." + (int) (Math.random() * 250) + ".1";
        String b = "10.5." + (int) (Math.random() * 250) + ".1";
        RobotsOrigin originA = RobotsOrigin.of("http://" + a + ":8080/");
        batches.createBatch(BatchHeader.builder().batchId(batchId).total(5).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        origins.addOrigins(batchId, List.of(originA, RobotsOrigin.of("http://" + b + ":8080/")));
        List<FrontierEntry> entries = new ArrayList<>();
        IntStream.range(0, 3).forEach(i -> entries.add(entry(batchId, "http://" + a + ":8080/p" + i)));
        IntStream.range(0, 2).forEach(i -> entries.add(entry(batchId, "http://" + b + ":8080/p" + i)));
        entries.add(entry("another-batch", "http://" + b + ":8080/other")); // not this batch's
        frontier.parkAll(entries);
        robots.save(RobotsCacheEntry.builder().origin(originA).lastResult(AccessResult.UNREACHABLE)
                .lastStatus(Optional.of(503)).attemptedAt(NOW.minusSeconds(5)).fetchedAt(Optional.empty())
                .freshUntil(Optional.empty()).expiresAt(NOW.plus(Duration.ofDays(7))).robotsGzip(new byte[0])
                .truncated(false).consecutiveFailures(1).firstFailureAt(Optional.of(NOW.minusSeconds(5)))
                .nextRetryAt(Optional.of(NOW.plusSeconds(55))).crawlDelay(Optional.empty()).build());
        SiteRate paused = SiteRate.initial(Duration.ofSeconds(1)).next(c -> c.lastSlot(NOW.minusSeconds(3))
                .interval(Duration.ofSeconds(2)).pause(NOW.plusSeconds(120), BY_429).throttles(1));
        rates.save(new SiteKey(b), paused, 0);
        BatchStatus status = batches.status(batchId).orElseThrow();
        BatchWaiting waiting = new BatchWaiting(new BatchWaiting.Stores(origins, frontier, rates, robots,
                FetchSwitch.ALWAYS_ON), new WaitingReasons(RobotsPolicy.create(), RateLimiter.create()),
                Clock.fixed(NOW, ZoneOffset.UTC));
        calls.clear();

        BatchWaiting.Report report = waiting.of(status);

        assertEquals(List.of(
                Waiting.RobotsUnreachable.builder().siteKey(new SiteKey(a)).origin(originA).status(Optional.of(503))
                        .failures(1).nextTry(NOW.plusSeconds(55)).urls(3).build(),
                new Waiting.Paused(new SiteKey(b), NOW.plusSeconds(120), 1, Optional.of(BY_429), 2)),
                report.waiting(), "the pause with its stored cause");
        assertEquals(0, report.more());
        assertFalse(report.partial());
        // The origin list, one batched read each of rate items and robots entries; per site, its frontier counter
        // (which names its partitions) and a query of each partition, here one.
        assertEquals(Map.of("GetItem", 3, "BatchGetItem", 2, "Query", 2), calls);
    }

    @Test
    void of_whenBatchDone_readsNothing() {
        String batchId = "w-" + UUID.randomUUID();
        batches.createBatch(BatchHeader.builder().batchId(batchId).total(1).source(BatchSource.HTTP).createdAt(NOW)
                .build());
        origins.addOrigins(batchId, List.of(RobotsOrigin.of("http://10.6.0.1/")));
        BatchStatus done = new BatchStatus(batches.status(batchId).orElseThrow().header(),
                Map.of(ItemState.FETCHED, 1), Optional.of(NOW));
        BatchWaiting waiting = new BatchWaiting(new BatchWaiting.Stores(origins, frontier, rates, robots,
                () -> true), new WaitingReasons(RobotsPolicy.create(), RateLimiter.create()),
                Clock.fixed(NOW, ZoneOffset.UTC));
        calls.clear();

        assertEquals(BatchWaiting.Report.NONE, waiting.of(done));
        assertEquals(Map.of(), calls);
    }

    @Test
    void pendingOfBatch_givesTheBatchsPendingEntriesOnly() {
        SiteKey site = new SiteKey("10.7." + (int) (Math.random() * 250) + ".1");
        String url = "http://" + site.value() + "/";
        frontier.parkAll(List.of(entry("x1", url + "a"), entry("x1", url + "b"), entry("x1", url + "c"),
                entry("x10", url + "d")));
        FrontierEntry released = frontier.due(site, NOW, 10).stream()
                .filter(e -> e.url().value().endsWith("/c")).findFirst().orElseThrow();
        frontier.release(released, NOW, 10);

        assertEquals(Set.of(url + "a", url + "b"), frontier.pendingOfBatch(site, "x1", 100).stream()
                .map(e -> e.url().value()).collect(java.util.stream.Collectors.toSet()));
        assertEquals(1, frontier.pendingOfBatch(site, "x1", 1).size());
    }

    @Test
    void findAll_readsStoredRatesAndRobotsLeavingOutMissing() {
        SiteKey site = new SiteKey("10.8." + (int) (Math.random() * 250) + ".1");
        RobotsOrigin origin = RobotsOrigin.of("http://" + site.value() + "/");
        SiteRate rate = SiteRate.initial(Duration.ofSeconds(1)).next(c -> c.lastSlot(NOW));
        rates.save(site, rate, 0);
        RobotsCacheEntry entry = RobotsCacheEntry.builder().origin(origin).lastResult(AccessResult.UNAVAILABLE)
                .lastStatus(Optional.of(404)).attemptedAt(NOW).fetchedAt(Optional.of(NOW))
                .freshUntil(Optional.of(NOW.plusSeconds(3600))).expiresAt(NOW.plus(Duration.ofDays(7)))
                .robotsGzip(new byte[0]).truncated(false).consecutiveFailures(0).firstFailureAt(Optional.empty())
                .nextRetryAt(Optional.empty()).crawlDelay(Optional.empty()).build();
        robots.save(entry);

        assertEquals(Map.of(site, rate), rates.findAll(List.of(site, new SiteKey("10.9.9.9"))));
        assertEquals(Map.of(origin, entry), robots.findAll(List.of(origin, RobotsOrigin.of("http://10.9.9.9/"))));
    }

    private static FrontierEntry entry(String batchId, String url) {
        return new FrontierEntry(batchId, NormalizedUrl.parse(url), 1, NOW.toEpochMilli(), NOW);
    }
}
