package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Queue;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Choices the props refuse before anything is synthesized. */
class SpiderlingStackPropsTest {

    @Test
    void build_whenAQueueFunctionsNeedIsLeftOut_namesWhoNeedsIt() {
        assertProblem(b -> b.withoutQueue(Queue.NOTIFY), "NOTIFY cannot be left out: functions need its URL");
        assertProblem(b -> b.withoutQueue(Queue.PLAN), "PLAN cannot be left out: plan consumes it");
        assertProblem(b -> b.withoutQueue(Queue.FETCH_DLQ), "FETCH_DLQ cannot be left out: it is a dead-letter queue");
    }

    @Test
    void build_whenConcurrencyForAFunctionWithoutQueue_refusesIt() {
        assertProblem(b -> b.maxConcurrency(FunctionNames.API, 10),
                "maximum concurrency for api: not a queue-driven function");
        assertProblem(b -> b.maxConcurrency("crawl", 10), "maximum concurrency for crawl: not a queue-driven");
    }

    @Test
    void build_whenResourcePrefixUnfitForNames_refusesIt() {
        assertProblem(b -> b.resourcePrefix("Spider_Ling"), "resource prefix 'Spider_Ling' must be");
    }

    @Test
    void build_whenContentExpiryIsNotWholeDays_refusesIt() {
        assertProblem(b -> b.contentExpiry(java.time.Duration.ofHours(36)), "whole number of days");
    }

    @Test
    void build_whenSeveralProblems_listsThemAll() {
        var e = assertThrows(IllegalArgumentException.class, () -> base().throttle(0, 0).logRetentionDays(2)
                .build());
        assertTrue(e.getMessage().contains("API throttling needs a positive rate"), e.getMessage());
        assertTrue(e.getMessage().contains("log retention 2 days"), e.getMessage());
    }

    private static SpiderlingStackProps.Builder base() {
        return SpiderlingStackProps.builder().artifact(TestArtifacts.jvmZip()).auth(ApiAuth.iam());
    }

    private static void assertProblem(UnaryOperator<SpiderlingStackProps.Builder> change, String expected) {
        var e = assertThrows(IllegalArgumentException.class, () -> change.apply(base()).build());
        assertTrue(e.getMessage().contains(expected), () -> "expected \"" + expected + "\" in: " + e.getMessage());
    }
}
