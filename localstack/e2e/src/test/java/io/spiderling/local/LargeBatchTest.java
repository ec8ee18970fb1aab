package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Accepting, planning and releasing a 10,000-URL batch (7,000 distinct over 70 sites, 3,000 respellings) stays within a
 * small fixed heap, emulators included: {@link LargeBatchScenario} in a child JVM given {@value LargeBatchScenario#HEAP}.
 * A child JVM rather than a surefire execution of its own, so the build's other end-to-end tests run beside it.
 */
@Order(1) // started early: one of the longest (junit-platform.properties)
class LargeBatchTest {

    private static final long MINUTES = 10;

    @Test
    void postBatches_whenTenThousandUrlsWithThirtyPercentRespelled_expectOneJobPerDistinctUrlAndExactCounts(
            @TempDir Path dir) throws IOException, InterruptedException {
        Path log = dir.resolve("large-batch.log");
        Process child = new ProcessBuilder(TestJvm.command(List.of(LargeBatchScenario.HEAP),
                LargeBatchScenario.class.getName(), List.of()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = child.waitFor(MINUTES, TimeUnit.MINUTES);
        if (!ended) {
            child.destroyForcibly().waitFor();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(ended, "the scenario did not end within " + MINUTES + " minutes:\n" + output);
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.contains("large batch: every check passed"), output);
    }
}
