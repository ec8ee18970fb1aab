package io.spiderling.local.cli;

import io.spiderling.testkit.EmbeddedAws;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code spiderling serve}: the embedded stack and its API, until Ctrl-C. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the embedded stack and its HTTP API until Ctrl-C; other commands use it while it runs.")
final class ServeCommand implements Callable<Integer> {

    @ParentCommand
    SpiderlingCli parent;

    @Mixin
    ApiOptions api;

    @Override
    public Integer call() throws InterruptedException {
        var io = parent.io();
        if (api.endpoint().isPresent()) {
            throw new CliException(ExitCode.USAGE, "serve runs the embedded stack; it has no meaning with --endpoint");
        }
        try (Target.Embedded target = Target.Embedded.start(api.port, false, api.dataFolder(), api.config())) {
            var local = target.spiderling();
            String token = local.localClient().orElseThrow().token();
            io.out().printf("Spiderling API on %s (%s)%n", local.apiUri(),
                    target.folder().map(f -> "data in " + f.root()).orElse("in memory"));
            local.resumed().filter(r -> r.resent() > 0).ifPresent(r -> io.out().printf("  resumed: %d fetch jobs of the last run sent again%n",
                    r.resent()));
            io.out().printf("  token: %s  (send Authorization: Bearer <token>)%n", token);
            io.out().printf("  curl -s -H 'Authorization: Bearer %s' -d '{\"urls\":[\"https://example.com/\"]}' %s/batches%n",
                    token, local.apiUri());
            // A producer can be tried against the local stack before a deployment (docs/api.md#the-sqs-ingest-queue).
            io.out().printf("  SQS endpoint: %s  S3 endpoint: %s  region: %s  (any access key)%n",
                    target.aws().sqsEndpoint(), target.aws().s3Endpoint(), EmbeddedAws.REGION);
            io.out().printf("  ingest queue: %s%n", local.resources().ingestQueueUrl());
            io.out().printf("  aws sqs send-message --endpoint-url %s --region %s --queue-url %s --message-body"
                    + " '{\"urls\":[\"https://example.com/\"]}'%n", target.aws().sqsEndpoint(), EmbeddedAws.REGION,
                    local.resources().ingestQueueUrl());
            io.out().println("Ctrl-C stops.");
            Thread.currentThread().join();
            return ExitCode.OK.code();
        }
    }
}
