package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.spiderling.testkit.DataFolder;
import io.spiderling.testkit.DataFolderInUseException;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.LocalSite;
import io.spiderling.testkit.LocalSites;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code ./spiderling local}: start the embedded stack and the pipeline, submit a list of URLs through the local HTTP
 * API, wait for the batch to finish and print where everything went.
 */
public final class LocalMain {

    private static final String USAGE = """
            Usage: ./spiderling local [--demo] [--serve] [--port N] [--timeout SECONDS] [--data DIR | --memory] [FILE | -]

              FILE           URLs to fetch, one per line (lines starting with '#' are skipped); '-' or no FILE reads standard input
              --demo         start 3 local sample sites on 127.0.0.2-127.0.0.4 and fetch their 60 pages, plus
                             differently spelled duplicates, a missing page and an invalid URL (no internet needed)
              --serve        keep the stack and the HTTP API running after the batch, until Ctrl-C
              --port N       port of the local HTTP API on 127.0.0.1 (default: a free port)
              --timeout S    how long to wait for the batch to finish (default: 300)
              --data DIR     keep the local stack's data in DIR, locked against a second process (default:
                             .spiderling/data); running the same input again resumes its unfinished batch, or
                             submits a new one once it finished, whose still-fresh URLs are not fetched again
              --memory       keep nothing: the stack lives in memory and is gone at exit
            """;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The {@link RunJournal} in the data folder. */
    static final String JOURNAL_FILE = "runs.properties";

    private LocalMain() {}

    /** The data folder when none is given. */
    static final Path DEFAULT_DATA = Path.of(".spiderling", "data");
    /** The exit code when the data folder is in use by another process. */
    static final int EXIT_DATA_IN_USE = 3;

    record Args(boolean demo, boolean serve, int port, Duration timeout, Optional<String> file, Path data,
            boolean memory) {
        static Args parse(String[] argv) {
            boolean demo = false;
            boolean serve = false;
            Path data = DEFAULT_DATA;
            boolean memory = false;
            int port = 0;
            Duration timeout = Duration.ofSeconds(300);
            Optional<String> file = Optional.empty();
            for (int i = 0; i < argv.length; i++) {
                switch (argv[i]) {
                    case "--demo" -> demo = true;
                    case "--serve" -> serve = true;
                    case "--port" -> port = Integer.parseInt(value(argv, ++i, "--port"));
                    case "--timeout" -> timeout = Duration.ofSeconds(Long.parseLong(value(argv, ++i, "--timeout")));
                    case "--data" -> data = Path.of(value(argv, ++i, "--data"));
                    case "--memory" -> memory = true;
                    case "-h", "--help" -> throw new IllegalArgumentException("");
                    default -> {
                        if (argv[i].startsWith("--") || file.isPresent()) {
                            throw new IllegalArgumentException("unexpected argument: " + argv[i]);
                        }
                        file = Optional.of(argv[i]);
                    }
                }
            }
            return new Args(demo, serve, port, timeout, file, data, memory);
        }

        private static String value(String[] argv, int i, String flag) {
            if (i >= argv.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            return argv[i];
        }
    }

    public static void main(String[] argv) throws Exception {
        Args args;
        try {
            args = Args.parse(argv);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                System.err.println("error: " + e.getMessage());
            }
            System.err.print(USAGE);
            System.exit(e.getMessage().isEmpty() ? 0 : 2);
            return;
        }
        DataFolder folder;
        try {
            folder = args.memory() ? null : DataFolder.lock(args.data());
        } catch (DataFolderInUseException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(EXIT_DATA_IN_USE);
            return;
        }
        int code;
        try (DataFolder locked = folder; EmbeddedAws aws = locked == null ? EmbeddedAws.start()
                : EmbeddedAws.start(locked)) {
            code = run(args, System.in, System.out, aws, "spiderling");
        } catch (Exception e) {
            e.printStackTrace();
            code = 1;
        }
        // The emulators leave non-daemon threads behind; the runner is done either way.
        System.exit(code);
    }

    /** Runs one batch on {@code aws} in resources named after {@code prefix}; returns the process exit code. */
    static int run(Args args, InputStream stdin, PrintStream out, EmbeddedAws aws, String prefix) throws Exception {
        if (!args.demo() && args.file().isEmpty()) {
            System.err.println("reading URLs from standard input, one per line (end with Ctrl-D); --demo needs none");
        }
        long started = System.nanoTime();
        try (LocalSites sites = args.demo() ? LocalSites.demoSites(3, 20) : null;
                LocalSpiderling local = LocalSpiderling.start(aws, aws.provision(prefix),
                        new LocalSpiderling.Options(args.port(), LocalSpiderling.Options.DEFAULT_FETCH_POLLERS,
                                java.time.Clock.systemUTC()))) {
            List<String> urls = new ArrayList<>(args.demo() ? demoUrls(sites) : List.of());
            if (args.file().isPresent() || !args.demo()) {
                urls.addAll(readUrls(args.file().filter(f -> !"-".equals(f)), stdin));
            }
            if (urls.isEmpty()) {
                System.err.println("error: no URLs given");
                return 2;
            }
            var r = local.resources();
            out.printf("Spiderling local stack up in %.1f s%n", seconds(started));
            out.printf("  SQS       %s  fetch queue %s%n", aws.sqsEndpoint(), r.fetchQueueUrl());
            out.printf("  DynamoDB  %s  tables %s, %s%n", aws.dynamoDbEndpoint(), r.urlsTable(), r.batchesTable());
            out.printf("  S3        %s  bucket %s%n", aws.s3Endpoint(), r.bucket());
            out.printf("  HTTP API  %s%n", local.apiUri());
            aws.dataFolder().ifPresent(f -> out.printf("  data      %s%n", f.root()));
            local.resumed().ifPresent(resumed -> out.printf("  resumed   %d released fetch jobs sent again at start"
                    + " (%d queued copies dropped, %d rate slots of the dead process released)%n", resumed.resent(),
                    resumed.drained(), resumed.leases()));
            String token = local.localClient().orElseThrow().token();
            Path tokenFile = writeToken(token);
            out.printf("  API token %s (in %s): send Authorization: Bearer <token>%n", token, tokenFile);
            if (sites != null) {
                sites.sites().forEach(s -> out.printf("  demo site %s%n", s.baseUrl()));
            }

            ApiClient api = new ApiClient(local.apiUri(), token);
            Optional<RunJournal> journal = aws.dataFolder().map(f -> RunJournal.open(f.file(JOURNAL_FILE)));
            Optional<RunJournal.Run> run = journal.map(j -> j.begin(urls));
            run.filter(RunJournal.Run::resumed).ifPresent(earlier -> out.printf("%nThis input's last run did not finish:"
                    + " resuming its batch (Idempotency-Key %s)%n", earlier.idempotencyKey()));
            long submitted = System.nanoTime();
            HttpResponse<String> response = api.post("/batches", batchBody(urls),
                    run.map(RunJournal.Run::idempotencyKey));
            JsonNode accepted = JSON.readTree(response.body());
            out.printf("%nPOST /batches -> %d %s%n", response.statusCode(), accepted);
            if (response.statusCode() != 202) {
                return 1;
            }
            String batchId = accepted.get("batchId").asText();
            JsonNode status = waitForBatch(api, batchId, args.timeout(), out);
            if (status.get("done").asBoolean()) {
                journal.ifPresent(j -> j.finished(run.orElseThrow()));
            }
            local.awaitS3Events(Duration.ofSeconds(30));
            out.printf("%nBatch %s %s in %.1f s%n", batchId, status.get("done").asBoolean() ? "done" : "NOT done",
                    seconds(submitted));
            status.get("counts").fields().forEachRemaining(e -> {
                if (e.getValue().asInt() > 0) {
                    out.printf("  %-13s %d%n", e.getKey(), e.getValue().asInt());
                }
            });
            out.printf("  %-13s %d%n", "duplicates", status.get("duplicates").asInt());
            out.printf("  %-13s %d%n", "rejected", status.get("rejectedCount").asInt());
            for (JsonNode rejected : status.get("rejected")) {
                out.printf("      %s: %s%n", rejected.get("url").asText(), rejected.get("reason").asText());
            }

            out.printf("%nWhere things are:%n");
            out.printf("  content   s3://%s/content/<first 2 hex of sha256>/<sha256 of the body> on %s%n",
                    r.bucket(), aws.s3Endpoint());
            out.printf("  metadata  DynamoDB table %s (key urlHash = sha256 of the normalized URL) on %s%n",
                    r.urlsTable(), aws.dynamoDbEndpoint());
            out.printf("  batch     DynamoDB table %s; GET %s/batches/%s%n", r.batchesTable(), local.apiUri(), batchId);
            out.printf("%nFirst URLs (GET /urls?url=…):%n");
            for (String url : urls.stream().distinct().limit(6).toList()) {
                HttpResponse<String> one = api.get("/urls?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
                JsonNode node = JSON.readTree(one.body());
                out.printf("  %-8s %-4s %-45s %s%n", node.path("state").asText(one.statusCode() == 404 ? "unknown"
                        : "-"), node.path("httpStatus").asText("-"), node.path("url").asText(url),
                        node.path("metadata").path("title").asText(node.path("error").asText("")));
                if (node.hasNonNull("contentKey")) {
                    out.printf("           s3://%s/%s%n", r.bucket(), node.get("contentKey").asText());
                }
            }
            if (args.serve()) {
                out.printf("%nServing. Try:%n  curl -s -H \"Authorization: Bearer $(cat %s)\" '%s/batches/%s'%n"
                        + "  curl -s -H \"Authorization: Bearer $(cat %s)\" '%s/urls?url=%s'%nCtrl-C stops.%n",
                        tokenFile, local.apiUri(), batchId, tokenFile, local.apiUri(),
                        URLEncoder.encode(urls.get(0), StandardCharsets.UTF_8));
                Thread.currentThread().join();
            }
            return status.get("done").asBoolean() ? 0 : 1;
        }
    }

    /** Where a local run leaves its API token, for curl: {@code .spiderling/local-token} (ignored by git). */
    static Path writeToken(String token) throws IOException {
        Path file = Path.of(".spiderling", "local-token");
        Files.createDirectories(file.getParent());
        Files.writeString(file, token + "\n");
        return file;
    }

    private static JsonNode waitForBatch(ApiClient api, String batchId, Duration timeout, PrintStream out)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int lastTerminal = -1;
        while (true) {
            JsonNode status = JSON.readTree(api.get("/batches/" + batchId).body());
            int total = status.get("total").asInt();
            int queued = status.get("counts").get("queued").asInt();
            if (total - queued != lastTerminal) {
                lastTerminal = total - queued;
                out.printf("  %d/%d URLs finished%n", lastTerminal, total);
            }
            if (status.get("done").asBoolean() || System.nanoTime() > deadline) {
                return status;
            }
            Thread.sleep(250);
        }
    }

    /** Every demo page once, then the same pages spelled differently, a page that does not exist and a bad URL. */
    static List<String> demoUrls(LocalSites sites) {
        List<String> urls = new ArrayList<>();
        for (LocalSite site : sites.sites()) {
            for (int p = 1; p <= 20; p++) {
                urls.add(site.url("/page/" + p));
            }
        }
        LocalSite first = sites.site(0);
        urls.add("HTTP://" + first.host() + ":" + first.port() + "/page/1#top");
        urls.add(first.url("/docs/../page/2"));
        urls.add(sites.site(1).url("/page/3?"));
        urls.add(sites.site(2).url("/missing"));
        urls.add("ftp://" + first.host() + "/page/1");
        return urls;
    }

    static List<String> readUrls(Optional<String> file, InputStream stdin) throws IOException {
        String text = file.isPresent() ? Files.readString(Path.of(file.get()))
                : new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
        return text.lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .toList();
    }

    private static String batchBody(List<String> urls) {
        ArrayNode array = JSON.createArrayNode();
        urls.forEach(array::add);
        return JSON.createObjectNode().set("urls", array).toString();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    /** A plain HTTP client for the local API: the runner uses the API the way a client would. */
    record ApiClient(URI base, String token) {
        private static final HttpClient HTTP = HttpClient.newHttpClient();

        HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
            return HTTP.send(HttpRequest.newBuilder(base.resolve(pathAndQuery))
                    .header("authorization", "Bearer " + token).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> post(String path, String json, Optional<String> idempotencyKey)
                throws IOException, InterruptedException {
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                    .header("content-type", "application/json")
                    .header("authorization", "Bearer " + token);
            idempotencyKey.ifPresent(key -> request.header("idempotency-key", key));
            return HTTP.send(request.POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }
}
