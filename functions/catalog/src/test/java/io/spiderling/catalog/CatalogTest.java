package io.spiderling.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class CatalogTest {

    private static final Duration LOST_AFTER = Duration.ofMinutes(20);

    @Test
    void problems_whenTheCatalogAsDeclared_isEmpty() {
        assertEquals(List.of(), Catalog.problems(LOST_AFTER));
    }

    @Test
    void problems_whenLostAfterWithinTheFetchQueuesRetries_namesTheKey() {
        List<String> problems = Catalog.problems(Duration.ofMinutes(18));
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith("spiderling.frontier.lost-after (PT18M) must exceed"), problems.get(0));
    }

    @Test
    void problems_whenFifoSourceHasABatchingWindow_saysSo() {
        assertProblem(replacing(FunctionNames.FETCH, f -> f.source(EventSource.queue(Queue.FETCH)
                .batchingWindow(Duration.ofSeconds(1)))), "fetch: a FIFO source takes no batching window");
    }

    @Test
    void problems_whenFifoBatchOverTen_saysSo() {
        assertProblem(replacing(FunctionNames.FETCH, f -> f.source(EventSource.queue(Queue.FETCH).batchSize(11))),
                "fetch: batch size 11 is out of range for FETCH");
    }

    @Test
    void problems_whenConcurrencyOutsideTwoToAThousand_saysSo() {
        assertProblem(replacing(FunctionNames.FETCH, f -> f.source(EventSource.queue(Queue.FETCH).maxConcurrency(1))),
                "fetch: maximum concurrency 1 is outside 2-1000");
        assertProblem(replacing(FunctionNames.FETCH, f -> f.source(EventSource.queue(Queue.FETCH)
                .maxConcurrency(1001))), "fetch: maximum concurrency 1001 is outside 2-1000");
    }

    @Test
    void problems_whenVisibilityUnderSixTimesTheTimeout_saysSo() {
        assertProblem(replacing(FunctionNames.NOTIFY, f -> f.timeout(Duration.ofSeconds(61))),
                "notify: NOTIFY hides a message for PT6M, less than 6 x the function's timeout PT1M1S");
    }

    @Test
    void problems_whenTwoFunctionsOnOnePrefix_saysSo() {
        assertProblem(replacing(FunctionNames.EXTRACT, f -> f.source(EventSource.objectCreated(BucketPrefix.CONTENT,
                BucketPrefix.MANIFESTS))), "manifests/: notifies 2 functions; S3 allows one per prefix");
    }

    @Test
    void problems_whenARoutesFunctionIsNotHttp_saysSo() {
        assertProblem(replacing(FunctionNames.API, f -> f.source(EventSource.every(Duration.ofMinutes(1)))),
                "GET /batches/{id}: served by api, which is not an HTTP function");
    }

    @Test
    void configKeys_whenFunctionUsesResources_addsTheirNamesAndTheirApisEndpoints() {
        var extract = Catalog.function(FunctionNames.EXTRACT).configKeys();
        assertTrue(extract.containsAll(List.of(ConfigKeys.TABLES_URLS, ConfigKeys.TABLES_LINKS, ConfigKeys.BUCKET,
                ConfigKeys.QUEUES_EVENTS, ConfigKeys.AWS_REGION, ConfigKeys.AWS_ENDPOINT_DYNAMODB,
                ConfigKeys.AWS_ENDPOINT_S3, ConfigKeys.AWS_ENDPOINT_SQS)), extract::toString);
        assertTrue(!extract.contains(ConfigKeys.TABLES_BATCHES) && !extract.contains(ConfigKeys.QUEUES_FETCH),
                extract::toString);
    }

    @Test
    void queues_whenAFunctionConsumesOne_hideMessagesForSixTimesItsTimeout() {
        for (FunctionSpec f : Catalog.FUNCTIONS) {
            if (f.source() instanceof EventSource.QueueSource q) {
                assertTrue(q.queue().visibility().compareTo(f.timeout().multipliedBy(6)) >= 0, f.name());
            }
        }
    }

    private static void assertProblem(List<FunctionSpec> functions, String expected) {
        List<String> problems = Catalog.problems(functions, LOST_AFTER);
        assertTrue(problems.contains(expected), () -> "expected \"" + expected + "\" in " + problems);
    }

    /** The catalog with one entry rebuilt: its builder fed the original's properties, then {@code change}. */
    private static List<FunctionSpec> replacing(String name, UnaryOperator<FunctionSpec.Builder> change) {
        List<FunctionSpec> functions = new ArrayList<>();
        for (FunctionSpec f : Catalog.FUNCTIONS) {
            functions.add(f.name().equals(name) ? change.apply(copy(f)).build() : f);
        }
        return functions;
    }

    private static FunctionSpec.Builder copy(FunctionSpec f) {
        var b = FunctionSpec.named(f.name()).description(f.description()).source(f.source()).memoryMb(f.memoryMb())
                .timeout(f.timeout()).settings(f.settings().toArray(ConfigKey<?>[]::new))
                .sampleEvents(f.sampleEvents().toArray(String[]::new));
        return b.permissions(f.permissions()).wiredFor(w -> w.permissions(f.wiredOnly()));
    }
}
