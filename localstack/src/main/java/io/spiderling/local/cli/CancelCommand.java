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
            ApiClient.Response answer = target.api().delete("/batches/" + batchId);
            switch (answer.status()) {
                case 202 -> io.out().printf("Batch %s cancelled: %s%n", batchId,
                        ProgressLine.counts(BatchSnapshot.of(answer.body()), java.time.Duration.ZERO));
                case 409 -> io.out().printf("Batch %s had already finished: %s%n", batchId,
                        ProgressLine.counts(BatchSnapshot.of(answer.body()), java.time.Duration.ZERO));
                case 404 -> throw new CliException(ExitCode.NOT_FOUND, "no batch " + batchId + " on "
                        + target.describe());
                default -> throw new CliException(ExitCode.INTERNAL, "DELETE /batches/" + batchId + " answered "
                        + answer.status() + ": " + answer.error());
            }
            return ExitCode.OK.code();
        }
    }
}
