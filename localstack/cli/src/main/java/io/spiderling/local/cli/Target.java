package io.spiderling.local.cli;

import io.spiderling.local.LocalSpiderling;
import io.spiderling.testkit.DataFolder;
import io.spiderling.testkit.DataFolderInUseException;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.LocalSites;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/** Where the CLI's API calls go: the embedded stack it starts in this process, or a deployment. */
sealed interface Target extends AutoCloseable {

    ApiClient api();

    /** For people: {@code the embedded stack (API http://127.0.0.1:…)} or the endpoint. */
    String describe();

    /** Whether the bodies are local (free to download) rather than behind a deployment's egress charges. */
    boolean local();

    @Override
    void close();

    /** The emulators and the whole pipeline in this JVM, and optionally the demo sites. */
    final class Embedded implements Target {
        private final Optional<DataFolder> folder;
        private final EmbeddedAws aws;
        private final LocalSpiderling spiderling;
        private final Optional<LocalSites> demoSites;
        private final ApiClient api;

        private Embedded(Optional<DataFolder> folder, EmbeddedAws aws, LocalSpiderling spiderling,
                Optional<LocalSites> demoSites) {
            this.folder = folder;
            this.aws = aws;
            this.spiderling = spiderling;
            this.demoSites = demoSites;
            String token = spiderling.localClient().orElseThrow().token();
            this.api = new ApiClient(spiderling.apiUri(), new ApiClient.Credentials.Bearer(token));
            folder.ifPresent(f -> new RunningApi(spiderling.apiUri(), token, ProcessHandle.current().pid())
                    .write(f.root()));
        }

        /**
         * @param port the API's port on 127.0.0.1; 0 for a free one
         * @param demo whether to start the demo sites too
         * @param data the data folder, locked for as long as the stack runs; empty keeps everything in memory
         * @param config configuration keys over the functions' own ({@code --config}); a value they refuse at start
         *     is a usage error
         */
        static Embedded start(int port, boolean demo, Optional<Path> data, Map<String, String> config) {
            checkPortFree(port);
            Optional<DataFolder> folder = data.map(Embedded::lock);
            EmbeddedAws aws = null;
            LocalSites sites = null;
            try {
                aws = folder.map(EmbeddedAws::start).orElseGet(EmbeddedAws::start);
                sites = demo ? Demo.startSites() : null;
                LocalSpiderling.Options options = new LocalSpiderling.Options(port,
                        LocalSpiderling.Options.DEFAULT_FETCH_CONCURRENCY, Clock.systemUTC());
                for (Map.Entry<String, String> entry : config.entrySet()) {
                    options = options.withConfig(entry.getKey(), entry.getValue());
                }
                LocalSpiderling spiderling = LocalSpiderling.start(aws, aws.provision("spiderling"), options);
                return new Embedded(folder, aws, spiderling, Optional.ofNullable(sites));
            } catch (RuntimeException e) {
                if (sites != null) {
                    sites.close();
                }
                if (aws != null) {
                    aws.close();
                }
                folder.ifPresent(DataFolder::close);
                if (e instanceof UncheckedIOException io && io.getCause() instanceof BindException) {
                    throw portInUse(port, io);
                }
                Optional<IllegalArgumentException> refused = refusedConfig(e);
                if (!config.isEmpty() && refused.isPresent()) {
                    throw new CliException(ExitCode.USAGE, "the stack refused its configuration (--config): "
                            + refused.get().getMessage(), e);
                }
                throw e;
            }
        }

        /** A function's handler refuses a bad value at its cold start with an IllegalArgumentException, maybe wrapped. */
        private static Optional<IllegalArgumentException> refusedConfig(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof IllegalArgumentException refused) {
                    return Optional.of(refused);
                }
            }
            return Optional.empty();
        }

        private static DataFolder lock(Path data) {
            try {
                return DataFolder.lock(data);
            } catch (DataFolderInUseException e) {
                throw new CliException(ExitCode.UNAVAILABLE, e.getMessage(), e);
            } catch (UncheckedIOException e) {
                throw new CliException(ExitCode.UNAVAILABLE, e.getMessage() + ": " + e.getCause().getMessage(), e);
            }
        }

        Optional<DataFolder> folder() {
            return folder;
        }

        /** Says so before the emulators start, which take seconds; the server's own bind still decides. */
        private static void checkPortFree(int port) {
            if (port == 0) {
                return;
            }
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                probe.setReuseAddress(true);
            } catch (IOException e) {
                throw portInUse(port, e);
            }
        }

        private static CliException portInUse(int port, Exception cause) {
            return new CliException(ExitCode.UNAVAILABLE, "port " + port + " on 127.0.0.1 is in use; choose another"
                    + " with --port, or leave --port out to take a free one", cause);
        }

        @Override
        public ApiClient api() {
            return api;
        }

        Optional<LocalSites> demoSites() {
            return demoSites;
        }

        LocalSpiderling spiderling() {
            return spiderling;
        }

        EmbeddedAws aws() {
            return aws;
        }

        @Override
        public String describe() {
            return "the embedded stack (API " + spiderling.apiUri()
                    + folder.map(f -> ", data in " + f.root()).orElse(", in memory") + ")";
        }

        @Override
        public boolean local() {
            return true;
        }

        @Override
        public void close() {
            try {
                folder.ifPresent(f -> RunningApi.remove(f.root()));
                spiderling.close();
            } finally {
                demoSites.ifPresent(LocalSites::close);
                try {
                    aws.close();
                } finally {
                    folder.ifPresent(DataFolder::close);
                }
            }
        }
    }

    /** A deployment's HTTP API. Opening it makes one cheap call, so a wrong endpoint or token fails at once. */
    final class Remote implements Target {
        private final ApiClient api;
        private final boolean local;

        private Remote(ApiClient api, boolean local) {
            this.api = api;
            this.local = local;
        }

        /** The API of the embedded stack another process ({@code serve}) runs on the data folder. */
        static Remote running(RunningApi running) {
            return new Remote(probe(running.uri(), new ApiClient.Credentials.Bearer(running.token())), true);
        }

        static Remote open(URI endpoint, ApiClient.Credentials credentials) {
            if (endpoint.getScheme() == null || !(endpoint.getScheme().equals("https")
                    || endpoint.getScheme().equals("http")) || endpoint.getHost() == null) {
                throw new CliException(ExitCode.USAGE, "--endpoint must be an http(s) URL, such as"
                        + " https://abc123.execute-api.eu-west-1.amazonaws.com; was " + endpoint);
            }
            return new Remote(probe(endpoint, credentials), false);
        }

        private static ApiClient probe(URI endpoint, ApiClient.Credentials credentials) {
            ApiClient api = new ApiClient(endpoint, credentials);
            // Any authenticated route answers 404 for a batch that does not exist; 401/403 throw in the client.
            ApiClient.Response probe = api.get("/batches/spiderling-cli-probe");
            if (probe.status() != 404 && !probe.ok()) {
                throw new CliException(ExitCode.UNAVAILABLE, endpoint + " does not answer like a Spiderling API ("
                        + probe.status() + ": " + probe.error() + ")");
            }
            return api;
        }

        @Override
        public ApiClient api() {
            return api;
        }

        @Override
        public String describe() {
            return local ? "the embedded stack served at " + api.base() : api.base().toString();
        }

        @Override
        public boolean local() {
            return local;
        }

        @Override
        public void close() {}
    }
}
