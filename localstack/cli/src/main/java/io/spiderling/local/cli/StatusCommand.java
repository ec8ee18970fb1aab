package io.spiderling.local.cli;

import java.time.ZoneId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code spiderling status BATCH}: where a batch stands, and what it waits on. */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Show a batch's counts and what it waits on.")
final class StatusCommand implements Callable<Integer> {

    @ParentCommand
    SpiderlingCli parent;

    @Parameters(index = "0", paramLabel = "BATCH", description = "The batch id that fetch printed.")
    String batchId;

    @Option(names = "--json", description = "Print the API's JSON as it is.")
    boolean json;

    @Mixin
    ApiOptions api;

    @Override
    public Integer call() {
        var io = parent.io();
        try (Target target = QueryCommands.open(api, io)) {
            ApiClient.Response status = target.api().get("/batches/" + batchId)
                    .expect("GET /batches/" + batchId, "no batch " + batchId + " on " + target.describe());
            if (json) {
                io.out().println(status.body().toPrettyString());
                return ExitCode.OK.code();
            }
            BatchSnapshot s = BatchSnapshot.of(status.body());
            io.out().printf("Batch %s: %s, %s%n", batchId, s.done() ? "done" : "running",
                    ProgressLine.counts(s, java.time.Duration.ZERO));
            ProgressLine.waiting(s, ZoneId.systemDefault()).ifPresent(w -> io.out().println("  " + w));
            s.waiting().stream().skip(ProgressLine.WAITING_SHOWN)
                    .forEach(w -> io.out().println("  also " + w.describe(ZoneId.systemDefault())));
            return ExitCode.OK.code();
        }
    }
}
