package io.spiderling.local.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.local.TestJvm;
import io.spiderling.testkit.DataFolder;
import io.spiderling.testkit.DataFolderInUseException;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.SiteLatency;
import io.spiderling.testkit.StackResources;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local runner on a data folder, killed with SIGKILL mid-batch and run again with the same command: it resumes
 * the same batch, sends the jobs the dead process had released again at once (not after the sweep's 15 minutes),
 * ends every URL once, and asks no site again for a URL whose outcome was already recorded. Then a run of the same
 * input after the batch finished submits a new batch that fetches nothing still fresh.
 */
@Order(3) // started early: one of the longest (junit-platform.properties)
@org.junit.jupiter.api.parallel.ResourceLock(io.spiderling.local.PersistentStacks.POOL)
class KillAndResumeTest {

    private static final String PREFIX = "spiderling";
    private static final int PAGES_PER_SITE = 8;
    /** A progress line: {@code [5s] 12/24 ended (fetched 12) · …}. */
    private static final Pattern FINISHED = Pattern.compile("^\\[\\S+\\] (\\d+)/(\\d+) ended.*$");
    private static final Pattern BATCH_ID = Pattern.compile("(?m)^Batch (\\S+)$");

    @TempDir
    Path work;

    @Test
    void run_whenKilledMidBatchAndRunAgain_resumesTheSameBatchAndFetchesNothingRecordedTwice() throws Exception {
        Path data = work.resolve("data");
        try (LocalSites sites = LocalSites.start(3).latency(SiteLatency.of(250, 10))) {
            List<String> urls = new ArrayList<>();
            for (LocalSite site : sites.sites()) {
                for (int p = 1; p <= PAGES_PER_SITE; p++) {
                    site.page("/p/" + p, "<title>" + site.host() + " " + p + "</title>");
                    urls.add(site.url("/p/" + p));
                }
            }
            Path input = work.resolve("urls.txt");
            Files.write(input, urls);

            // 1. The first run, killed once some URLs have finished and others have not.
            Child first = Child.start(runnerCommand(data, input), work);
            int finishedAtKill = first.awaitFinished(3);
            DataFolderInUseException refused = assertThrowsInUse(data);
            assertEquals(first.process.pid(), refused.holderPid().orElseThrow(), refused.getMessage());
            first.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            assertTrue(finishedAtKill < urls.size(), "killed mid-batch, at " + finishedAtKill);
            String batchId = first.batchId();

            // What the dead process had recorded, read from the stored state.
            Set<String> recorded;
            try (DataFolder folder = DataFolder.lock(data); EmbeddedAws aws = EmbeddedAws.start(folder)) {
                StackResources r = aws.provision(PREFIX);
                DynamoDbUrlStore store = new DynamoDbUrlStore(aws.dynamoDb(), r.urlsTable());
                recorded = urls.stream().filter(u -> store.find(NormalizedUrl.parse(u).urlHash())
                        .flatMap(row -> row.fetch()).isPresent()).collect(Collectors.toSet());
            }
            assertTrue(!recorded.isEmpty() && recorded.size() < urls.size(), "recorded before the kill: " + recorded);

            // 2. The same command again: it resumes and finishes long before the sweep's 15 minutes would have.
            Child second = Child.start(runnerCommand(data, input), work);
            assertTrue(second.process.waitFor(120, TimeUnit.SECONDS), "the resumed run ends");
            String out = second.output();
            assertEquals(0, second.process.exitValue(), out);
            assertEquals(batchId, second.batchId(), "the same batch, by the journal's Idempotency-Key");
            assertTrue(out.contains("resuming its batch"), out);
            assertTrue(out.contains("fetch jobs sent again at start"), out);

            for (String url : recorded) {
                assertEquals(1, requests(sites, url), url + " was recorded before the kill: never asked again");
            }
            for (String url : urls) {
                assertTrue(requests(sites, url) >= 1, url + " was fetched");
            }
            try (DataFolder folder = DataFolder.lock(data); EmbeddedAws aws = EmbeddedAws.start(folder)) {
                StackResources r = aws.provision(PREFIX);
                DynamoDbBatchStore batches = new DynamoDbBatchStore(aws.dynamoDb(), r.batchesTable());
                var status = batches.status(batchId).orElseThrow();
                assertTrue(status.done(), status.toString());
                assertEquals(urls.size(), status.terminalCounts().values().stream().mapToInt(Integer::intValue)
                        .sum(), "each URL counted in exactly one terminal state");
                List<BatchItem> items = items(batches, batchId);
                assertEquals(urls.size(), items.size());
                assertEquals(Set.copyOf(urls.stream().map(u -> NormalizedUrl.parse(u).value()).toList()),
                        items.stream().map(BatchItem::url).collect(Collectors.toSet()));
                items.forEach(item -> assertEquals(ItemState.FETCHED, item.state(), item.toString()));
            }

            // 3. The same input once more, after its batch finished: a new batch, and every URL still fresh.
            int asked = sites.allRequests().size();
            CliRun third = CliRun.of("fetch", "--data", data.toString(), "--progress", "none", "--out",
                    work.resolve("third").toString(), input.toString());
            assertEquals(0, third.code(), third.toString());
            Matcher id = BATCH_ID.matcher(third.out());
            assertTrue(id.find(), third.toString());
            assertNotEquals(batchId, id.group(1), "a finished run's input submits a new batch");
            assertEquals(asked, sites.allRequests().size(), "nothing still fresh is fetched again");
            assertTrue(third.out().matches("(?s).*By state:\\n  skipped\\s+" + urls.size() + "\\n.*"),
                    third.toString());
            try (DataFolder folder = DataFolder.lock(data); EmbeddedAws aws = EmbeddedAws.start(folder)) {
                StackResources r = aws.provision(PREFIX);
                DynamoDbBatchStore batches = new DynamoDbBatchStore(aws.dynamoDb(), r.batchesTable());
                items(batches, id.group(1)).forEach(item -> assertEquals(ItemState.SKIPPED, item.state(),
                        item.toString()));
            }
        }
    }

    /**
     * The command that runs the local runner in a child JVM, from this test's class path: the one place that names the
     * runner's main class and arguments.
     */
    static List<String> runnerCommand(Path data, Path input) {
        return TestJvm.command(List.of("-Xmx512m"), SpiderlingCli.class.getName(), List.of("fetch", "--data",
                data.toString(), "--timeout", "100", "--progress", "lines", input.toString()));
    }

    private static DataFolderInUseException assertThrowsInUse(Path data) {
        return org.junit.jupiter.api.Assertions.assertThrows(DataFolderInUseException.class,
                () -> DataFolder.lock(data).close());
    }

    private static long requests(LocalSites sites, String url) {
        for (LocalSite site : sites.sites()) {
            if (url.startsWith(site.baseUrl())) {
                return site.requestCount(url.substring(site.baseUrl().length()));
            }
        }
        throw new IllegalArgumentException("no site serves " + url);
    }

    private static List<BatchItem> items(DynamoDbBatchStore batches, String batchId) {
        List<BatchItem> all = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
            var page = batches.items(batchId, Optional.empty(), cursor, 100);
            all.addAll(page.items());
            cursor = page.cursor();
        } while (cursor.isPresent());
        return all;
    }

    /** A child JVM whose output is read as it comes. */
    private static final class Child {
        final Process process;
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final Object changed = new Object();

        private Child(Process process) {
            this.process = process;
            Thread.ofPlatform().daemon().name("child-output").start(() -> {
                try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        lines.add(line);
                        synchronized (changed) {
                            changed.notifyAll();
                        }
                    }
                } catch (IOException ignored) {
                    // The process died: its output ends.
                }
            });
        }

        static Child start(List<String> command, Path directory) throws IOException {
            // Its own working folder: the runner writes .spiderling/local-token there.
            return new Child(new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .start());
        }

        /** Waits until at least {@code count} URLs are reported finished; returns how many were. */
        int awaitFinished(int count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (System.nanoTime() < deadline && process.isAlive()) {
                synchronized (lines) {
                    for (String line : lines) {
                        Matcher m = FINISHED.matcher(line);
                        if (m.matches() && Integer.parseInt(m.group(1)) >= count) {
                            return Integer.parseInt(m.group(1));
                        }
                    }
                }
                synchronized (changed) {
                    changed.wait(200);
                }
            }
            throw new AssertionError("no " + count + " URLs finished:\n" + output());
        }

        String batchId() {
            Matcher m = BATCH_ID.matcher(output());
            if (!m.find()) {
                throw new AssertionError("no batch id in:\n" + output());
            }
            return m.group(1);
        }

        String output() {
            synchronized (lines) {
                return String.join("\n", lines);
            }
        }
    }
}
