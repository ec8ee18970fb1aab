package io.spiderling.local.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code spiderling get URL}: a URL's stored record, as JSON. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Print a URL's stored record (JSON).")
final class GetCommand implements Callable<Integer> {

    @ParentCommand
    SpiderlingCli parent;

    @Parameters(index = "0", paramLabel = "URL")
    String url;

    @Mixin
    ApiOptions api;

    @Override
    public Integer call() {
        var io = parent.io();
        try (Target target = QueryCommands.open(api, io)) {
            ApiClient.Response answer = target.api().get("/urls?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
            ApiClient.Response record = answer.expect("GET /urls", UrlText.shorten(url) + ": " + answer.error());
            io.out().println(record.body().toPrettyString());
            return ExitCode.OK.code();
        }
    }
}
