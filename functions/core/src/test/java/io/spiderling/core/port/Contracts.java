package io.spiderling.core.port;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.TestInfo;

/** What the port contracts share: keys named after the test, and threads released together. */
public final class Contracts {

    private Contracts() {}

    /**
     * The test method's name, lower-case with dashes, at most 50 characters: a prefix for the keys a test writes, so
     * the tests of a class can share one table or bucket.
     */
    public static String nameOf(TestInfo test) {
        String name = test.getTestMethod().orElseThrow().getName().toLowerCase(Locale.ROOT).replace('_', '-');
        return name.substring(0, Math.min(name.length(), 50));
    }

    /** Runs the tasks on their own threads, released together, and returns their results in order. */
    public static <T> List<T> race(List<Callable<T>> tasks) throws Exception {
        CyclicBarrier start = new CyclicBarrier(tasks.size());
        try (ExecutorService pool = Executors.newFixedThreadPool(tasks.size())) {
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> task : tasks) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        }
    }
}
