package io.spiderling.local;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.EmbeddedAwsExtension;
import io.spiderling.testkit.FarmOutcomes;
import io.spiderling.testkit.HostileFarm;
import io.spiderling.testkit.HostileFarm.Role;
import io.spiderling.testkit.PolitenessReport;
import io.spiderling.testkit.StackResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline against the {@link HostileFarm}, judged by the sites' own logs: one batch of every farm URL and
 * the farm's follow-up batches, run with the functions' own configuration (only the farm's rates per site set), until
 * every URL has ended but those waiting on the unreachable robots.txt. Then: no request robots.txt forbids (in the
 * spelling sent) or that came before it, no URL fetched again after a final answer (a redirect hop included), no site
 * ever asked more than its rate within a second, and each URL ended as the farm expects. The deadline is a safety
 * net, not an assertion.
 *
 * <p>The waits are shorter than deployed ({@link #SHORT_WAITS}), so the run takes about a minute of the real clock
 * instead of two: a failing page is retried after 1 s and 4 s rather than 5 s and 20 s, a site that failed three times
 * in a row pauses 5 s rather than 60 s, and a page that never answers is given up after 4 s of silence rather than
 * 10 s. Every rule is the same; only its intervals shrink. {@code ./spiderling bench-farm} runs the deployed waits.
 */
@ExtendWith(EmbeddedAwsExtension.class)
@Order(5) // started early: one of the longest (junit-platform.properties)
class HostileFarmTest {

    private static final Duration SAFETY_NET = Duration.ofMinutes(10);
    private static final java.util.Map<String, String> SHORT_WAITS = java.util.Map.of(
            "spiderling.fetch.retry-base", "1s",
            "spiderling.fetch.throttle-pause", "5s",
            "spiderling.fetch.first-byte-timeout", "4s");

    @Test
    void batch_whenSitesAreHostile_expectRobotsObeyedNoDuplicatesRateKeptAndEveryUrlEnded(EmbeddedAws aws,
            StackResources resources, @TempDir Path dir) throws Exception {
        try (HostileFarm farm = HostileFarm.start();
                LocalSpiderling local = LocalSpiderling.start(aws, resources, withShortWaits(FarmRun.options(farm, dir)))) {
            List<FarmRun.Submitted> batches = FarmRun.submitAll(local, farm);

            FarmOutcomes outcomes = FarmRun.awaitSettled(local, batches, SAFETY_NET);
            assertTrue(outcomes.settled(), () -> "still queued after " + SAFETY_NET + " (not waiting on robots.txt): "
                    + outcomes.notTerminal() + "\n" + farm.report().format(farm.names()));
            JsonNode big = FarmRun.url(local, farm.site(Role.OPEN).url("/big"));
            PolitenessReport report = farm.report();

            String log = "\n" + report.format(farm.names());
            System.out.println("Hostile farm, politeness from the sites' logs:" + log);
            assertAll(
                    () -> assertEquals(0, report.robotsViolations().size(), "robots violations" + log),
                    () -> assertEquals(0, report.duplicates().size(), "duplicate fetches (a redirect hop asked"
                            + " again included)" + log),
                    () -> assertEquals(0, farm.site(Role.QUERY_RULES).requests().stream()
                            .filter(r -> r.path().contains(HostileFarm.CLIENT_QUERY)).count(),
                            "requests for the query robots.txt disallows in the order written" + log),
                    () -> assertEquals(0, report.rateExcesses().size(), "sites over their rate in a second" + log),
                    // The unreachable robots.txt's URLs included: one that ended is a mismatch.
                    () -> assertEquals(0, outcomes.mismatches().size(), "URLs that ended otherwise than expected: "
                            + outcomes.mismatches()),
                    () -> assertEquals("fetched", big.get("state").asText(), big.toString()),
                    () -> assertTrue(big.get("truncated").asBoolean(), "the 64 MiB page is cut at the body limit: "
                            + big),
                    // spiderling.fetch.max-body-bytes, 10 MiB by default
                    () -> assertEquals(10 * 1024 * 1024, big.get("size").asInt(), big.toString()));
        }
    }

    private static LocalSpiderling.Options withShortWaits(LocalSpiderling.Options options) {
        LocalSpiderling.Options shorter = options;
        for (var wait : SHORT_WAITS.entrySet()) {
            shorter = shorter.withConfig(wait.getKey(), wait.getValue());
        }
        return shorter;
    }
}
