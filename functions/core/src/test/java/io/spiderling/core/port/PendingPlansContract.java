package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.port.PendingPlans.Pending;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What {@link PendingPlans}' javadoc promises, run against every implementation. Implementations may share one
 * table between the tests of a class, so each test watches keys under a prefix named after the test.
 */
public abstract class PendingPlansContract {

    // Millisecond precision: stores may keep instants as epoch milliseconds.
    protected static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    protected PendingPlans plans;
    private String prefix;

    /** The watch list for one test; it may hold other tests' keys. */
    protected abstract PendingPlans createPlans();

    @BeforeEach
    void createPlansAndNameKeys(TestInfo test) {
        plans = createPlans();
        prefix = Contracts.nameOf(test) + "/";
    }

    @Test
    void waitingSince_whenKeysWatched_listsThoseOfThePrefixWatchedBeforeTheCutoffOldestFirst() {
        plans.expect(key("manifests/b.txt"), T0.plusSeconds(20));
        plans.expect(key("manifests/a.txt"), T0.plusSeconds(10));
        plans.expect(key("manifests/late.txt"), T0.plusSeconds(90));
        plans.expect(key("uploads/u.jsonl"), T0);

        assertEquals(List.of(new Pending(key("manifests/a.txt"), T0.plusSeconds(10)),
                new Pending(key("manifests/b.txt"), T0.plusSeconds(20))),
                plans.waitingSince(key("manifests/"), T0.plusSeconds(60), 10));
        assertEquals(List.of(new Pending(key("manifests/a.txt"), T0.plusSeconds(10))),
                plans.waitingSince(key("manifests/"), T0.plusSeconds(60), 1));
        assertEquals(List.of(new Pending(key("uploads/u.jsonl"), T0)),
                plans.waitingSince(key("uploads/"), T0.plusSeconds(1), 10));
    }

    @Test
    void waitingSince_whenKeysSortInAnotherOrderThanTheirTimes_returnsTheOldestUpToTheLimit() {
        plans.expect(key("a.txt"), T0.plusSeconds(30));
        plans.expect(key("b.txt"), T0.plusSeconds(20));
        plans.expect(key("c.txt"), T0.plusSeconds(10));

        assertEquals(List.of(new Pending(key("c.txt"), T0.plusSeconds(10)), new Pending(key("b.txt"),
                T0.plusSeconds(20))), plans.waitingSince(key(""), T0.plusSeconds(60), 2));
    }

    @Test
    void planned_whenKeyWatched_stopsWatchingItAndExpectAgainMovesItsTime() {
        plans.expect(key("uploads/x.txt"), T0);
        plans.expect(key("uploads/y.txt"), T0);
        plans.planned(key("uploads/x.txt"));
        plans.planned(key("uploads/never-watched.txt"));
        plans.expect(key("uploads/y.txt"), T0.plusSeconds(30));

        assertEquals(List.of(new Pending(key("uploads/y.txt"), T0.plusSeconds(30))),
                plans.waitingSince(key("uploads/"), T0.plusSeconds(31), 10));
        assertEquals(List.of(), plans.waitingSince(key("uploads/"), T0.plusSeconds(30), 10), "cutoff is exclusive");
    }

    private String key(String name) {
        return prefix + name;
    }
}
