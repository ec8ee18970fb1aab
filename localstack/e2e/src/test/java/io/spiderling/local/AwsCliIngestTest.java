package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.Hashing;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import io.spiderling.testkit.StackResources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer tried against the local stack with a real client: the AWS CLI sends a batch to the local ingest queue,
 * with the command docs/deploy.md gives for a deployment plus {@code --endpoint-url} (what {@code ./spiderling serve}
 * prints), and the batch completes. The CLI must be installed ({@code .ci/run} installs Debian's {@code awscli} when
 * it is missing): without it the test fails rather than skips.
 */
@ExtendWith(EmbeddedAwsExtension.class)
class AwsCliIngestTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void sendMessage_whenTheAwsCliTargetsTheLocalIngestQueue_expectItsBatchFetchedAndDone(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (LocalSites sites = LocalSites.start(1);
                LocalSpiderling local = LocalSpiderling.start(aws, resources,
                        LocalApi.withSampleClients(LocalSpiderling.Options.defaults()))) {
            LocalSite site = sites.site(0);
            site.page("/news", "<title>News</title>");

            String messageId = sendMessage(dir, List.of("sqs", "send-message",
                    "--queue-url", resources.ingestQueueUrl(),
                    "--message-body", "{\"urls\":[\"" + site.url("/news") + "\"]}",
                    "--endpoint-url", aws.sqsEndpoint().toString()));

            // The ingest-queue function names the batch after the message (docs/api.md#the-sqs-ingest-queue).
            String batchId = "q-" + Hashing.sha256Hex(messageId).substring(0, 32);
            BatchStatus status = awaitDone(new DynamoDbBatchStore(aws.dynamoDb(), resources.batchesTable()),
                    batchId, Duration.ofSeconds(60));
            assertTrue(status.done(), status.toString());
            assertEquals(Map.of(ItemState.FETCHED, 1), status.terminalCounts(), status.toString());
            assertEquals(1, site.requestCount("/news"));
        }
    }

    /** Runs {@code aws} with throwaway credentials and no profile of the machine's; returns the message id. */
    private static String sendMessage(Path dir, List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("aws");
        command.addAll(arguments);
        command.addAll(List.of("--region", EmbeddedAws.REGION, "--output", "json"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(false);
        Map<String, String> env = builder.environment();
        env.put("AWS_ACCESS_KEY_ID", "local");
        env.put("AWS_SECRET_ACCESS_KEY", "local");
        env.put("AWS_CONFIG_FILE", dir.resolve("no-config").toString());
        env.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("no-credentials").toString());
        env.put("AWS_PAGER", "");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return fail("the AWS CLI (aws) is not installed; .ci/run installs Debian's awscli: " + e.getMessage());
        }
        process.getOutputStream().close();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return fail("aws sqs send-message did not end in 120 s");
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), "aws " + String.join(" ", arguments) + "\n" + out + err);
        return Optional.ofNullable(JSON.readTree(out).get("MessageId")).map(id -> id.asText())
                .orElseThrow(() -> new AssertionError("no MessageId in " + out));
    }

    private static BatchStatus awaitDone(DynamoDbBatchStore batches, String batchId, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<BatchStatus> status = Optional.empty();
        while (System.nanoTime() < deadline) {
            status = batches.status(batchId);
            if (status.filter(BatchStatus::done).isPresent()) {
                return status.get();
            }
            Thread.sleep(250);
        }
        return status.orElseThrow(() -> new AssertionError("no batch " + batchId + " after " + timeout));
    }
}
