package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.politeness.FetchOutcome;
import io.spiderling.core.politeness.PauseCause;
import io.spiderling.core.politeness.RateDecision;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.port.RateStoreContract;
import io.spiderling.core.pipeline.fetch.SitePoliteness;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.StackResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The port's contract ({@link RateStoreContract}) and what is the adapter's own: the condition it sends, the item
 * layout of a pause's cause and how it reads items it cannot fully understand, and a race of real handlers.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbRateStoreTest extends RateStoreContract {

    private final EmbeddedAws aws;
    private final DynamoDbClient dynamo;
    private final String table;

    DynamoDbRateStoreTest(EmbeddedAws aws, StackResources res) {
        this.aws = aws;
        this.dynamo = aws.dynamoDb();
        this.table = res.sitesTable();
    }

    @Override
    protected RateStore createStore() {
        return new DynamoDbRateStore(dynamo, table, Clock.systemUTC());
    }

    @Test
    void save_whenWritten_isConditionalOnTheVersionRead() {
        assertEquals("(attribute_not_exists(pk) OR version = :read) OR writer = :writer", DynamoDbRateStore.NO_STATE);
        assertEquals("(version = :read) OR writer = :writer", DynamoDbRateStore.AT_VERSION);
    }

    /**
     * The save that took a slot landed and its answer was lost: the SDK's retry must find it saved. Read as a conflict,
     * its caller would decide again on the state it wrote itself and take a second slot, with the first left in flight
     * until its lease lapsed (two such, and the site waited two minutes: FaultThrottleTest met it).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // case,               answer
            "first-save-answered-500, 500, InternalServerError",
            "next-save-answered-500,  500, InternalServerError",
            "next-save-throttled,     400, ThrottlingException",
    })
    void save_whenItLandedButItsAnswerWasLost_theSdksRetryFindsItSaved(String name, int status, String type) {
        SiteKey site = new SiteKey(name + "-" + UUID.randomUUID() + ".example");
        RateLimiter limiter = RateLimiter.create();
        Instant now = Instant.parse("2026-11-24T15:00:00Z");
        long read = 0;
        SiteRate state = SiteRate.initial(Duration.ofSeconds(1));
        if (name.startsWith("next")) {
            RateDecision.Granted first = (RateDecision.Granted) limiter.acquire(state, now, 1);
            assertInstanceOf(RateStore.Written.Saved.class, store.save(site, first.next(), 0));
            read = first.next().version();
            state = limiter.release(first.next(), first.slots().getFirst());
        }
        RateDecision.Granted granted = (RateDecision.Granted) limiter.acquire(state, now.plusSeconds(2), 1);
        FaultInjector faults = FaultInjector.create().add(new FaultInjector.Rule("save answered " + status,
                FaultInjector.Call.dynamoDb("PutItem"), FaultInjector.When.matches(1),
                FaultInjector.dynamoDbReply(status, type)));

        RateStore.Written written;
        try (DynamoDbClient flaky = aws.dynamoDb(faults)) {
            written = new DynamoDbRateStore(flaky, table, Clock.systemUTC()).save(site, granted.next(), read);
        }

        assertEquals(2, faults.matched("save answered " + status), "the save landed, the SDK sent it again");
        assertInstanceOf(RateStore.Written.Saved.class, written);
        assertEquals(granted.next().inFlight(), store.find(site).orElseThrow().inFlight(), "one slot in flight");
        assertInstanceOf(RateStore.Written.Conflict.class, store.save(site, granted.next(), read),
                "and another writer at the version read is still refused");
    }

    /** The cause goes in the same item as the pause, so the one conditional write that sets the pause sets it. */
    @Test
    void save_whenLimiterPausedTheSite_storesTheCauseInTheRateItem() {
        RateLimiter limiter = RateLimiter.create();
        Instant now = Instant.parse("2026-11-24T22:40:00Z");
        SiteRate start = SiteRate.initial(Duration.ofSeconds(1));
        SiteKey throttled = new SiteKey("paused-by-429.example");
        SiteKey failing = new SiteKey("paused-by-failures.example");
        SiteKey noRetryAfter = new SiteKey("paused-by-503-bad-retry-after.example");
        SiteRate byFailures = start;
        for (String url : List.of("a", "b", "c")) {
            byFailures = limiter.onFailure(byFailures, url.repeat(64), FetchOutcome.TIMEOUT, now, 0.0);
        }

        store.save(throttled, limiter.onThrottled(start, now, 429, Optional.of(Duration.ofSeconds(120)), 0.0), 0);
        store.save(failing, byFailures, 0);
        store.save(noRetryAfter, limiter.onThrottled(start, now, 503, Optional.empty(), 0.0), 0);

        assertEquals(Map.of("kind", AttributeValue.fromS("throttled"), "status", AttributeValue.fromN("429"),
                "retryAfterMs", AttributeValue.fromN("120000")), item(throttled).get("pauseCause").m());
        assertEquals(Map.of("kind", AttributeValue.fromS("failures"), "urls", AttributeValue.fromN("3"),
                "last", AttributeValue.fromS("timeout")), item(failing).get("pauseCause").m());
        assertFalse(item(noRetryAfter).get("pauseCause").m().containsKey("retryAfterMs"));
    }

    /**
     * Every attribute this adapter always writes is read as required: an item without one was never written by it,
     * and reading it as a default would hide the bug that made it. A pause is always written with its cause.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"lastSlot", "intervalMs", "baseIntervalMs", "pausedUntil", "throttles", "successes", "responseTimeMs",
            "version", "pauseCause"})
    void find_whenItemLacksAnAttributeItIsAlwaysWrittenWith_throwsIllegalStateException(String missing) {
        SiteKey site = new SiteKey("without-" + missing.toLowerCase(java.util.Locale.ROOT) + ".example");
        Map<String, AttributeValue> item = new HashMap<>(DynamoDbRateStore.key(site));
        item.put("lastSlot", AttributeValue.fromN("1764024000000"));
        item.put("intervalMs", AttributeValue.fromN("2000"));
        item.put("baseIntervalMs", AttributeValue.fromN("1000"));
        item.put("pausedUntil", AttributeValue.fromN("1764024120000"));
        item.put("pauseCause", DynamoDbRateStore.pauseCause(new PauseCause.Throttled(429, Optional.empty())));
        item.put("throttles", AttributeValue.fromN("1"));
        item.put("successes", AttributeValue.fromN("0"));
        item.put("responseTimeMs", AttributeValue.fromN("0"));
        item.put("version", AttributeValue.fromN("4"));
        item.remove(missing);
        dynamo.putItem(b -> b.tableName(table).item(item));

        assertThrows(IllegalStateException.class, () -> store.find(site));
    }

    /** A cause this version cannot read (a newer kind, a field missing) is no reason to fail the read. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // rule,                  kind,      status, urls, last
            "kind-unknown-here,       blocked,   403,    ,     ",
            "throttle-without-status, throttled, ,       ,     ",
            "failures-of-no-urls,     failures,  ,       0,    timeout",
            "failures-unknown-last,   failures,  ,       3,    gremlins",
            "no-kind,                 ,          429,    ,     ",
    })
    void pauseCause_whenStoredCauseIsUnreadable_readsAsUnknown(String rule, String kind, Long status, Long urls,
            String last) {
        Map<String, AttributeValue> m = new HashMap<>();
        Optional.ofNullable(kind).ifPresent(v -> m.put("kind", AttributeValue.fromS(v)));
        Optional.ofNullable(status).ifPresent(v -> m.put("status", AttributeValue.fromN(v.toString())));
        Optional.ofNullable(urls).ifPresent(v -> m.put("urls", AttributeValue.fromN(v.toString())));
        Optional.ofNullable(last).ifPresent(v -> m.put("last", AttributeValue.fromS(v)));

        assertEquals(Optional.empty(), DynamoDbRateStore.pauseCause(m), rule);
    }

    private Map<String, AttributeValue> item(SiteKey site) {
        return dynamo.getItem(b -> b.tableName(table).key(DynamoDbRateStore.key(site)).consistentRead(true)).item();
    }

    /**
     * Four "fetch handlers" on four threads take slots of one site at 5 requests per second through DynamoDB Local,
     * each holding its slot 50 ms (a fetch) and then giving it back. Whatever the interleaving, no two granted slots
     * are closer than the interval, and the handlers never started closer either.
     */
    @Test
    void acquire_whenHandlersRaceOnOneSite_neverGrantSlotsCloserThanTheInterval() throws Exception {
        SiteKey site = new SiteKey("parallel-handlers.example");
        Duration interval = Duration.ofMillis(200);
        SitePoliteness politeness = SitePoliteness.builder().robotsStore(null)
                .limiter(RateLimiter.create()).rates(store).overrides(RateOverrides.parse(site.value() + " 5"))
                .fetcher(request -> {
                    throw new AssertionError("this test takes slots and fetches nothing");
                }).clock(Clock.systemUTC()).pause(DynamoDbRateStoreTest::sleepUntil).jitter(() -> 0.5).build();
        List<Instant> slots = Collections.synchronizedList(new ArrayList<>());
        List<Instant> started = Collections.synchronizedList(new ArrayList<>());
        ExecutorService handlers = Executors.newFixedThreadPool(4);
        List<Future<?>> running = new ArrayList<>();
        for (int h = 0; h < 4; h++) {
            running.add(handlers.submit(() -> {
                int granted = 0;
                // Each handler is an invocation of its own: it knows only what it read and wrote.
                SitePoliteness.Session session = politeness.session();
                while (granted < 5) {
                    switch (session.acquire(site, Optional.empty())) {
                        case SitePoliteness.Gate.Go go -> {
                            started.add(Instant.now());
                            slots.add(go.slot());
                            sleepUntil(Instant.now().plusMillis(50));
                            session.done(go, FetchResult.Response.builder().status(200).headers(Map.of())
                                    .body(new byte[0]).truncated(false).finalUrl("https://" + site.value() + "/")
                                    .timeToFirstByte(Duration.ofMillis(10)).total(Duration.ofMillis(50)).build(),
                                    "b".repeat(64));
                            granted++;
                        }
                        case SitePoliteness.Gate.Wait wait -> sleepUntil(wait.until());
                        default -> throw new IllegalStateException("unexpected gate");
                    }
                }
                session.close();
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        handlers.shutdown();

        assertEquals(20, slots.size());
        List<Instant> sortedSlots = slots.stream().sorted().toList();
        for (int i = 1; i < sortedSlots.size(); i++) {
            assertTrue(Duration.between(sortedSlots.get(i - 1), sortedSlots.get(i)).compareTo(interval) >= 0,
                    "slots " + sortedSlots.get(i - 1) + " and " + sortedSlots.get(i));
        }
        List<Instant> sortedStarts = started.stream().sorted().toList();
        for (int i = 1; i < sortedStarts.size(); i++) {
            // A thread wakes at its slot or after it, never before; on two busy cores one may wake late while the
            // next wakes on time, so the starts get a scheduling tolerance the slots above do not need.
            Duration gap = Duration.between(sortedStarts.get(i - 1), sortedStarts.get(i));
            assertTrue(gap.compareTo(interval.minusMillis(100)) >= 0, "starts " + gap + " apart");
        }
    }

    private static void sleepUntil(Instant when) {
        long millis = Duration.between(Instant.now(), when).toMillis();
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
