package io.spiderling.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.pipeline.SitePoliteness;
import io.spiderling.core.url.SiteKey;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.StackResources;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedAwsExtension.class)
class DynamoDbRateStoreTest {

    private final DynamoDbRateStore store;

    DynamoDbRateStoreTest(EmbeddedAws aws, StackResources res) {
        this.store = new DynamoDbRateStore(aws.dynamoDb(), res.sitesTable(), Clock.systemUTC());
    }

    @Test
    void save_whenVersionReadIsStale_refusesAndKeepsTheWinner() {
        SiteKey site = new SiteKey("stale-version.example");
        SiteRate first = new SiteRate(Instant.parse("2025-03-01T10:00:00Z"), Duration.ofSeconds(2),
                Duration.ofSeconds(1), Instant.EPOCH, 1, 0, Duration.ofMillis(120),
                List.of(Instant.parse("2025-03-01T10:00:00Z")), List.of("a".repeat(64)), 1);
        assertEquals("attribute_not_exists(pk) OR version = :read", DynamoDbRateStore.VERSION_CONDITION);

        assertEquals(new RateStore.Written.Saved(), store.save(site, first, 0));
        assertEquals(new RateStore.Written.Conflict(Optional.of(first)),
                store.save(site, SiteRate.initial(Duration.ofSeconds(1)), 0),
                "a second writer of a new site is refused and told the winner's state, with no read");

        assertEquals(Optional.of(first), store.find(site));
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
        SitePoliteness politeness = new SitePoliteness(new SitePoliteness.Parts(null, null, RateLimiter.create(),
                store, RateOverrides.parse(site.value() + " 5"), null, null), Clock.systemUTC(),
                DynamoDbRateStoreTest::sleepUntil, () -> 0.5);
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
                            session.done(go, new FetchResult.Response(200, Map.of(), new byte[0], false,
                                    "https://" + site.value() + "/", Duration.ofMillis(10), Duration.ofMillis(50)),
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
