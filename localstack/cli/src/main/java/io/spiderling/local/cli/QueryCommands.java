package io.spiderling.local.cli;

/** How {@code status}, {@code get} and {@code cancel} reach an API: a deployment, a running local one, or a new one. */
final class QueryCommands {

    private QueryCommands() {}

    static Target open(ApiOptions api, SpiderlingCli.Io io) {
        if (api.endpoint().isPresent()) {
            api.checkConfigApplies("the deployment at --endpoint");
            return Target.Remote.open(api.endpoint().get(), api.remoteCredentials());
        }
        if (api.memory) {
            throw new CliException(ExitCode.USAGE, "--memory starts an empty stack, which knows no batch or URL; leave"
                    + " it out to use the data folder, or give --endpoint");
        }
        var running = RunningApi.find(api.data);
        if (running.isPresent()) {
            api.checkConfigApplies("the stack already running on " + api.data);
            return Target.Remote.running(running.get());
        }
        io.err().println("Starting the embedded stack on " + api.data + "...");
        return Target.Embedded.start(api.port, false, api.dataFolder(), api.config());
    }
}
