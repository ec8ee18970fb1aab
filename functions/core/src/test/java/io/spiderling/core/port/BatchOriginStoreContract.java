package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchOrigins;
import io.spiderling.core.robots.RobotsOrigin;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What {@link BatchOriginStore}'s javadoc promises, run against every implementation. */
public abstract class BatchOriginStoreContract extends BatchPortsContract {

    private BatchOriginStore origins() {
        return stores.origins();
    }

    @Test
    void origins_whenNoneAdded_returnsNone() {
        origins().addOrigins(batchId + "-other", List.of(RobotsOrigin.of("https://other.example/")));
        origins().addOrigins(batchId, List.of());

        assertEquals(BatchOrigins.NONE, origins().origins(batchId));
    }

    @Test
    void addOrigins_whenAddedInTurnsAndRepeated_listsEachOnceInValueOrder() {
        RobotsOrigin b = RobotsOrigin.of("https://b.example/");
        RobotsOrigin a = RobotsOrigin.of("https://a.example/");
        RobotsOrigin aOnAnotherPort = RobotsOrigin.of("http://a.example:8080/");

        origins().addOrigins(batchId, List.of(b, a));
        origins().addOrigins(batchId, List.of(a, aOnAnotherPort, a));

        assertEquals(new BatchOrigins(List.of(aOnAnotherPort, a, b), false), origins().origins(batchId));
    }

    @Test
    void addOrigins_pastTheMaximum_keepsTheFirstAndSaysThereAreMore() {
        List<RobotsOrigin> first = IntStream.range(0, BatchOrigins.MAX)
                .mapToObj(i -> RobotsOrigin.of("https://site-" + i + ".example/")).toList();
        origins().addOrigins(batchId, first.subList(0, 10));
        origins().addOrigins(batchId, first);
        origins().addOrigins(batchId, first.subList(5, 15)); // all listed already: no more

        assertEquals(new BatchOrigins(first.stream().sorted(Comparator.comparing(RobotsOrigin::value)).toList(),
                false), origins().origins(batchId));

        origins().addOrigins(batchId, List.of(RobotsOrigin.of("https://one-more.example/")));

        assertEquals(BatchOrigins.MAX, origins().origins(batchId).origins().size());
        assertTrue(origins().origins(batchId).more());
    }

    @Test
    void addOrigins_whenOneCallBringsMoreThanFit_listsTheMaximumAndSaysThereAreMore() {
        List<RobotsOrigin> many = IntStream.range(0, BatchOrigins.MAX + 5)
                .mapToObj(i -> RobotsOrigin.of("https://many-" + i + ".example/")).toList();

        origins().addOrigins(batchId, many);

        BatchOrigins listed = origins().origins(batchId);
        assertEquals(BatchOrigins.MAX, listed.origins().size());
        assertTrue(many.containsAll(listed.origins()));
        assertTrue(listed.more());
    }
}
