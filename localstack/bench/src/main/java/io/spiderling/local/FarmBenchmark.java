package io.spiderling.local;

import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.FarmOutcomes;
import io.spiderling.testkit.HostileFarm;
import io.spiderling.testkit.PolitenessReport;
import io.spiderling.testkit.StackResources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code ./spiderling bench-farm}: how long the {@link HostileFarm}'s batches take until every URL has ended but those
 * waiting on the unreachable robots.txt, with the functions' own configuration and each site allowing
 * {@value HostileFarm#REQUESTS_PER_SECOND} requests per second (one {@value HostileFarm#SLOW_REQUESTS_PER_SECOND});
 * then the politeness report from the sites' logs
 * (robots violations, duplicate fetches, each site's busiest second against its rate), each site's requests, the rate
 * it saw between its first and last request, and when its first and last requests came; with {@code --requests},
 * every request with its time and answer.
 *
 * <p>The farm's misbehaving pages set the time: retries after 5xx and timeouts, and pauses after 503 and 429, are
 * waits of the retry policy and the rate limiter, not work, so this measures those policies more than the machine.
 */
public final class FarmBenchmark {

    private FarmBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Duration deadline = Duration.ofMinutes(15);
        boolean requests = false;
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--deadline" -> deadline = Duration.parse(argv[++i]);
                case "--requests" -> requests = true;
                default -> {
                    System.err.println("Usage: ./spiderling bench-farm [--deadline PT15M] [--requests]");
                    System.exit(2);
                }
            }
        }
        Path dir = Files.createTempDirectory("spiderling-bench-farm");
        try (EmbeddedAws aws = EmbeddedAws.start(); HostileFarm farm = HostileFarm.start()) {
            StackResources resources = aws.provision("bench-farm");
            try (LocalSpiderling local = LocalSpiderling.start(aws, resources, FarmRun.options(farm, dir))) {
                Instant submitted = Instant.now();
                long start = System.nanoTime();
                List<FarmRun.Submitted> batches = FarmRun.submitAll(local, farm);
                FarmOutcomes outcomes = FarmRun.awaitSettled(local, batches, deadline);
                double seconds = (System.nanoTime() - start) / 1e9;
                Map<String, String> states = FarmRun.states(local, batches.getFirst().batchId());
                PolitenessReport report = farm.report();

                System.out.printf(Locale.ROOT, "%d URLs over %d sites at %d requests/s each (one at %d), then %d"
                        + " follow-up batches, at most %d fetch invocations%n", farm.urls().size(),
                        HostileFarm.Role.values().length, HostileFarm.REQUESTS_PER_SECOND,
                        HostileFarm.SLOW_REQUESTS_PER_SECOND, farm.followUps().size(),
                        LocalSpiderling.Options.DEFAULT_FETCH_CONCURRENCY);
                if (outcomes.settled()) {
                    System.out.printf(Locale.ROOT, "every URL ended but the %d waiting on the unreachable robots.txt:"
                            + " %.1f s%n", farm.waiting().size(), seconds);
                } else {
                    System.out.printf(Locale.ROOT, "NOT SETTLED after %.1f s; still queued: %s%n", seconds,
                            outcomes.notTerminal());
                }
                Map<String, Integer> byState = new TreeMap<>();
                states.values().forEach(state -> byState.merge(state, 1, Integer::sum));
                System.out.println("items of the first batch by state: " + byState);
                System.out.println("ended otherwise than expected: " + (outcomes.mismatches().isEmpty() ? "none"
                        : outcomes.mismatches()));
                System.out.print(report.format(farm.names()));
                System.out.println("first and last request to each site, after the batch was submitted:");
                Map<String, String> names = farm.names();
                report.load().values().forEach(l -> System.out.printf(Locale.ROOT, "  %-28s %9s %9s%n",
                        names.get(l.host()), after(submitted, l.first()), after(submitted, l.last())));
                if (requests) {
                    System.out.println("every request, after the batch was submitted:");
                    farm.exchanges().forEach(e -> System.out.printf(Locale.ROOT, "  %9s %-28s %-22s %s%n",
                            after(submitted, e.request().receivedAt()), names.get(e.request().host()),
                            e.request().path(), e.answer()));
                }
            }
        }
    }

    private static String after(Instant start, Instant at) {
        return at == null ? "none" : String.format(Locale.ROOT, "+%.1f s", Duration.between(start, at).toMillis()
                / 1000.0);
    }
}
