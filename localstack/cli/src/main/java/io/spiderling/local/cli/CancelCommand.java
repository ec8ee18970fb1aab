package io.spiderling.local.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code spiderling cancel BATCH}: its URLs not yet started end as cancelled. */
@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = "Cancel a batch: its URLs not yet started end as cancelled.")
final class CancelCommand implements Callable<Integer> {

    @ParentCommand
    SpiderlingCli parent;

    @Parameters(index = "0", paramLabel = "BATCH")
    String batchId;

    @Mixin
    ApiOptions api;

    @Override
    public Integer call() {
        var io = parent.io();
        try (Target target = QueryCommands.open(api, io)) {
            ApiClient.Response answer = target.api().delete("/batches/" + batchId).expect("DELETE /batches/"
                    + batchId, "no batch " + batchId + " on " + target.describe(), 409);
            io.out().printf(answer.status() == 409 ? "Batch %s had already finished: %s%n" : "Batch %s cancelled: %s%n",
                    batchId, ProgressLine.counts(BatchSnapshot.of(answer.body()), java.time.Duration.ZERO));
            return ExitCode.OK.code();
        }
    }
}
