package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.pipeline.fetch.FetchPage;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.StackResources;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Scenario 7: eight threads run the fetch use case for one site at once, each job in an invocation of its own, as
 * eight Lambda invocations would if the site's jobs reached them together (its {@code site#k} message groups, or a
 * mis-set event source mapping; FIFO alone never does). Against the real DynamoDB adapters and a local site: the
 * site's rate item is the only thing keeping them apart. No queue poller runs; the threads take the batch's jobs from
 * a shared list, and a job the site's rate sends back to wait is taken again once its time comes.
 */
@Isolated
@ExtendWith(EmbeddedAwsExtension.class)
class FaultConcurrentFetchTest {

    private static final int THREADS = 8;

    @Test
    void fetch_whenEightInvocationsRunOneSitesJobsAtOnce_expectTheSiteAskedNoFasterThanItsRateAndEachPageOnce(
            EmbeddedAws aws, @TempDir Path dir) throws Exception {
        StackResources r = FaultChecks.resources(aws, "eight", FaultChecks.VISIBILITY);
        FaultInjector none = FaultInjector.create();
        try (FaultChecks.Farm farm = FaultChecks.farm(1, 12, dir);
                LocalSpiderling local = FaultChecks.start(aws, r, farm, none, o -> o.withFetchConcurrency(0))) {
            String batchId = FaultChecks.submit(local, none, farm.urls());
            awaitPlanned(aws, r);
            FetchPage fetch = local.pipeline().fetchPage();
            ConcurrentLinkedQueue<FetchJob> jobs = new ConcurrentLinkedQueue<>();
            farm.urls().forEach(url -> jobs.add(new FetchJob(batchId, NormalizedUrl.parse(url), 1, 1)));
            AtomicInteger running = new AtomicInteger();
            AtomicInteger mostAtOnce = new AtomicInteger();
            AtomicInteger waits = new AtomicInteger();
            AtomicInteger left = new AtomicInteger(jobs.size());
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                threads.add(Thread.ofPlatform().name("fetch-" + t).start(() -> {
                    while (left.get() > 0 && failures.isEmpty()) {
                        FetchJob job = jobs.poll();
                        if (job == null) {
                            sleep(Duration.ofMillis(20));
                            continue;
                        }
                        mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                        try {
                            // As fetch's invocations, so the call recorder holds them to fetch's role.
                            switch (local.asInvocationOf(FunctionNames.FETCH, () -> fetch.process(job))) {
                                case FetchPage.Outcome.Requeued wait -> {
                                    waits.incrementAndGet();
                                    sleep(Duration.between(Instant.now(), wait.until()));
                                    jobs.add(job);
                                }
                                case FetchPage.Outcome outcome -> left.decrementAndGet();
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        } finally {
                            running.decrementAndGet();
                        }
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(60));
            }
            assertEquals(List.of(), failures);
            assertEquals(0, left.get(), "every job handled");
            assertTrue(mostAtOnce.get() >= 4, "the jobs ran side by side: at most " + mostAtOnce.get() + " at once");
            assertTrue(waits.get() > 0, "the rate sent jobs back to wait, so the invocations contended for slots");

            JsonNode status = FaultChecks.awaitDone(local, batchId, Duration.ofSeconds(30));
            System.out.println("[faults] eight at once: at most " + mostAtOnce.get() + " invocations at once, "
                    + waits.get() + " sent back to wait; " + FaultChecks.verify(local, none, batchId, farm, status,
                    FaultChecks.noRepeats()));
        }
    }

    /** The batch's items exist once planning released its first jobs into the fetch queue (which nobody reads here). */
    private static void awaitPlanned(EmbeddedAws aws, StackResources r) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            Map<QueueAttributeName, String> a = aws.sqs().getQueueAttributes(b -> b.queueUrl(r.fetchQueueUrl())
                    .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes();
            if (Integer.parseInt(a.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)) > 0) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the batch was never planned");
    }

    private static void sleep(Duration d) {
        if (d.isNegative() || d.isZero()) {
            return;
        }
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
