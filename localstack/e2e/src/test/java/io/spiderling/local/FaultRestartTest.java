package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.testkit.DataFolder;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.FaultInjector;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.RecordedRequest;
import io.spiderling.testkit.StackResources;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.url.NormalizedUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenario 6: the emulators stop mid-batch under a running pipeline (their calls fail, connections refused), then
 * the whole embedded stack starts again on the same data folder and the local runner resumes the batch. The
 * emulators cannot be restarted one at a time ({@link EmbeddedAws} starts and stops them together), so the stack is.
 */
@Isolated
class FaultRestartTest {

    private static final String PREFIX = "faults-restart";

    @Test
    void batch_whenTheEmulatorsStopMidBatchAndTheStackRestartsOnItsData_expectTheBatchResumedAndEveryUrlEndedOnce(
            @TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        FaultInjector none = FaultInjector.create();
        try (FaultChecks.Farm farm = FaultChecks.farm(3, 6, dir)) {
            String batchId;
            int endedAtStop;
            DataFolder folder = DataFolder.lock(data);
            EmbeddedAws aws = EmbeddedAws.start(folder);
            LocalSpiderling first = FaultChecks.start(aws, aws.provision(PREFIX), farm, none, UnaryOperator.identity());
            try {
                batchId = FaultChecks.submit(first, none, farm.urls());
                endedAtStop = awaitEnded(first, batchId, 6);
                aws.close(); // the emulators go away under the running pipeline
                Thread.sleep(1_500); // its pollers and fetchers meet refused connections meanwhile
            } finally {
                first.close();
                folder.close();
            }
            assertTrue(endedAtStop > 0 && endedAtStop < farm.expected().size(), "stopped mid-batch at "
                    + endedAtStop);
            // Until here the first pipeline may still have asked a site (its slot was taken before the stop).
            Instant restartedAt = Instant.now();

            try (DataFolder again = DataFolder.lock(data); EmbeddedAws restarted = EmbeddedAws.start(again)) {
                StackResources r = restarted.provision(PREFIX);
                // What the stopped stack had recorded: none of these may be asked again.
                DynamoDbUrlStore rows = new DynamoDbUrlStore(restarted.dynamoDb(), r.urlsTable());
                Set<String> recorded = farm.urls().stream().filter(url -> rows.find(NormalizedUrl.parse(url).urlHash())
                        .flatMap(UrlStore.UrlRecord::fetch).isPresent())
                        .map(FaultChecks::page).collect(Collectors.toSet());
                try (LocalSpiderling local = FaultChecks.start(restarted, r, farm, none, UnaryOperator.identity())) {
                    assertTrue(local.resumed().isPresent(), "the start resumed the dead stack's work");
                    JsonNode status = FaultChecks.awaitDone(local, batchId, Duration.ofSeconds(60));
                    // A page asked before the stop whose outcome was not recorded is asked again after the restart.
                    Map<String, String> repeats = new HashMap<>();
                    for (LocalSite site : farm.sites().sites()) {
                        List<RecordedRequest> log = site.requests();
                        for (RecordedRequest before : log) {
                            boolean straddles = !recorded.contains(site.host() + before.path())
                                    && before.receivedAt().isBefore(restartedAt) && log.stream().anyMatch(
                                    later -> later.path().equals(before.path())
                                            && later.receivedAt().isAfter(restartedAt));
                            if (straddles) {
                                repeats.put(site.host() + before.path(), "asked by the stopped stack, its outcome not recorded");
                            }
                        }
                    }
                    System.out.println("[faults] restart: stopped at " + endedAtStop + " ended, " + recorded.size()
                            + " recorded, resumed "
                            + local.resumed().get() + "; "
                            + FaultChecks.verify(local, none, batchId, farm, status, repeats));
                }
            }
        }
    }

    /** Waits until at least {@code ended} items ended; returns how many had. */
    private static int awaitEnded(LocalSpiderling local, String batchId, int ended) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode counts = LocalApi.get(local, "/batches/" + batchId).get("counts");
            int sum = 0;
            for (var it = counts.fields(); it.hasNext(); ) {
                var e = it.next();
                if (!e.getKey().equals("queued")) {
                    sum += e.getValue().asInt();
                }
            }
            if (sum >= ended) {
                return sum;
            }
            Thread.sleep(100);
        }
        return 0;
    }
}
