package io.spiderling.local.cli;

import io.spiderling.core.batch.BatchPlanner;
import io.spiderling.local.RunJournal;
import io.spiderling.local.warc.WarcExport;
import io.spiderling.local.cli.SpiderlingCli.Io;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code spiderling fetch FILE|-}: submits the URLs as one batch, shows its progress until every URL ended, then
 * leaves the results in the output folder and prints a summary.
 */
@Command(name = "fetch", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fetch the URLs in FILE (one per line; '-' reads standard input) and write the results to the"
                + " output folder: results.jsonl, one line per URL, and the bodies under their sha256."})
final class FetchCommand implements Callable<Integer> {

    @ParentCommand
    SpiderlingCli parent;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE|-", description = "URLs, one per line.")
    String file;

    @Option(names = "--sitemap", paramLabel = "URL", description = "A sitemap (or sitemap index) for the batch to"
            + " read: the pipeline fetches it politely and fetches every URL it lists (docs/adr/0019). Repeatable;"
            + " with or without a file of URLs.")
    List<String> sitemaps = new ArrayList<>();

    @Option(names = "--sitemaps-from-robots", description = "Also read the sitemaps that each site's robots.txt names"
            + " (its Sitemap: lines), for every site of the URLs and sitemaps given, and fetch what they list"
            + " (docs/adr/0019).")
    boolean sitemapsFromRobots;

    @Option(names = "--demo", description = "Start 3 local sample sites (127.0.0.2-4) and fetch their pages, plus"
            + " duplicates, a missing page and an invalid URL. No internet needed.")
    boolean demo;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output folder (default: spiderling-out/<batch id>).")
    Path out;

    @Option(names = "--bodies", negatable = true, fallbackValue = "true",
            description = "Download the bodies into the output folder (default: on for the embedded stack, off"
                    + " for --endpoint, where downloads cost egress).")
    Boolean bodies;

    @Option(names = "--warc", description = "Capture every exchange as it went over the wire and write"
            + " results.warc.gz (WARC/1.1: request, response and revisit records) in the output folder. Embedded"
            + " stack only.")
    boolean warc;

    @Option(names = "--markdown", description = "Also keep the Markdown of each HTML page's main content (no"
            + " navigation, footers or boilerplate), written to markdown/<2 hex>/<sha256>.md beside the bodies and"
            + " linked from results.jsonl.")
    boolean markdown;

    @Option(names = "--include-noarchive", description = "With --warc: also write the pages that ask not to be"
            + " archived (X-Robots-Tag or robots meta noarchive), which are left out by default. For archives the"
            + " site's owner agreed to.")
    boolean includeNoarchive;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "600",
            description = "Stop waiting after this long (default: ${DEFAULT-VALUE}); the batch goes on.")
    long timeoutSeconds;

    @Option(names = "--progress", paramLabel = "auto|bar|lines|none", defaultValue = "auto",
            description = "A live bar on a terminal, a line every 5 s elsewhere (default: ${DEFAULT-VALUE}).")
    Progress.Mode progress;

    @Option(names = "--serve", description = "Keep the embedded stack and its API running afterwards, until Ctrl-C.")
    boolean serve;

    @Mixin
    ApiOptions api;

    @Override
    public Integer call() throws Exception {
        Io io = parent.io();
        if (!demo && file == null && sitemaps.isEmpty()) {
            throw new CliException(ExitCode.USAGE, "give a file of URLs (one per line), '-' for standard input,"
                    + " --sitemap URL, or --demo");
        }
        if (serve && api.endpoint().isPresent()) {
            throw new CliException(ExitCode.USAGE, "--serve keeps the embedded stack running; it has no meaning with"
                    + " --endpoint");
        }
        if (warc && api.endpoint().isPresent()) {
            throw new CliException(ExitCode.USAGE, "--warc reads the captures from the embedded stack's S3; a"
                    + " deployment has no route that serves them yet (docs/warc.md)");
        }
        if (includeNoarchive && !warc) {
            throw new CliException(ExitCode.USAGE, "--include-noarchive only changes what --warc writes; add --warc");
        }
        List<String> fromFile = file == null ? List.of() : Inputs.read(file, io.in());
        try (Target target = open(io)) {
            List<String> urls = new ArrayList<>();
            if (demo) {
                if (!(target instanceof Target.Embedded embedded) || embedded.demoSites().isEmpty()) {
                    throw new CliException(ExitCode.USAGE, "--demo runs on the embedded stack; leave out --endpoint");
                }
                urls.addAll(Demo.urls(embedded.demoSites().get()));
                embedded.demoSites().get().sites().forEach(s -> io.out().println("Demo site " + s.baseUrl()));
            }
            urls.addAll(fromFile);
            return run(target, urls, io);
        }
    }

    /**
     * A deployment with --endpoint; else the embedded stack that {@code serve} runs on the data folder, when one does
     * (the demo needs its sites in this process, so it starts its own); else a new embedded stack.
     */
    private Target open(Io io) {
        if (api.endpoint().isPresent()) {
            api.checkConfigApplies("the deployment at --endpoint");
            return Target.Remote.open(api.endpoint().get(), api.remoteCredentials());
        }
        Optional<RunningApi> running = demo || api.memory ? Optional.empty() : RunningApi.find(api.data);
        if (running.isPresent()) {
            api.checkConfigApplies("the stack that serve runs on " + api.data + " (give --config to serve)");
            return Target.Remote.running(running.get());
        }
        io.err().println("Starting the embedded stack (no Docker, no AWS account)...");
        return Target.Embedded.start(api.port, demo, api.dataFolder(), api.config());
    }

    private int run(Target target, List<String> urls, Io io) throws InterruptedException {
        ApiClient client = target.api();
        io.out().printf("Submitting %,d URLs to %s%s%n", urls.size(), target.describe(),
                Submission.viaUpload(urls) ? " (as an uploaded manifest)" : "");
        if (target instanceof Target.Embedded embedded) {
            embedded.spiderling().resumed().filter(r -> r.resent() > 0).ifPresent(r -> io.out().printf("Resumed the last run's work: %,d fetch"
                    + " jobs sent again at start%n", r.resent()));
        }
        Map<String, Object> options = new LinkedHashMap<>();
        if (warc) {
            options.put("capture", true);
        }
        if (markdown) {
            options.put("markdown", true);
        }
        if (!sitemaps.isEmpty()) {
            if (Submission.viaUpload(urls)) {
                throw new CliException(ExitCode.USAGE, "--sitemap goes with at most " + BatchPlanner.MAX_URLS
                        + " URLs in one request; an uploaded manifest cannot name sitemaps");
            }
            options.put("sitemaps", sitemaps);
            io.out().printf("Sitemaps to read: %s%n", String.join(", ", sitemaps));
        }
        if (sitemapsFromRobots) {
            if (Submission.viaUpload(urls)) {
                throw new CliException(ExitCode.USAGE, "--sitemaps-from-robots goes with at most "
                        + BatchPlanner.MAX_URLS + " URLs in one request; an uploaded manifest cannot ask for sitemaps");
            }
            options.put("sitemapsFromRobots", true);
            io.out().println("Sitemaps to read: also those each site's robots.txt names");
        }
        Optional<RunJournal> journal = journal(target);
        List<String> asked = new ArrayList<>(urls);
        sitemaps.forEach(sitemap -> asked.add("sitemap " + sitemap));
        if (sitemapsFromRobots) {
            asked.add("sitemaps-from-robots");
        }
        if (markdown) {
            asked.add("markdown"); // a run without it is another batch: resuming it would bring no Markdown
        }
        Optional<RunJournal.Run> run = journal.map(j -> j.begin(fingerprinted(target, asked)));
        run.filter(RunJournal.Run::resumed).ifPresent(r -> io.out().println("The last run of this input did not"
                + " finish: resuming its batch"));
        String key = run.map(RunJournal.Run::idempotencyKey).orElseGet(() -> "cli-" + UUID.randomUUID());
        Submission.Accepted accepted = Submission.submit(client, urls, key, options);
        String batchId = accepted.batchId();
        io.out().printf("Batch %s%n", batchId);
        printRejections(accepted, io);

        Waited waited = waitFor(client, batchId, io);
        if (target instanceof Target.Embedded embedded) {
            // Extraction runs on S3 events after the fetch ends the URL; the metadata belongs in the results.
            embedded.spiderling().awaitS3Events(Duration.ofSeconds(30));
        }
        if (waited.last().done()) {
            journal.ifPresent(j -> j.finished(run.orElseThrow()));
        }
        List<ResultLine> lines = BatchResults.collect(client, batchId, urls, waited.last().done());
        boolean withBodies = bodies != null ? bodies : target.local();
        OutputFolder folder = new OutputFolder(out != null ? out : OutputFolder.defaultFor(batchId));
        OutputFolder.Written written = folder.write(lines, withBodies ? Optional.of(client) : Optional.empty());
        // No file of the user's holds what the demo or standard input sent: keep it beside its results.
        Optional<Path> input = demo || "-".equals(file) ? Optional.of(folder.writeInput(urls)) : Optional.empty();

        Optional<WarcExport.Summary> archived = target instanceof Target.Embedded embedded && warc
                ? Optional.of(writeWarc(embedded, lines, folder.dir().resolve(WARC_FILE), includeNoarchive
                        ? WarcExport.Noarchive.INCLUDE : WarcExport.Noarchive.LEAVE_OUT)) : Optional.empty();

        BatchSnapshot last = waited.last();
        io.out().printf("%nBatch %s %s after %.1f s: %,d lines, %,d URLs accepted, %,d duplicates, %,d rejected%n",
                batchId, last.done() ? "done" : "NOT done", waited.elapsed().toMillis() / 1000.0, urls.size(),
                last.total(), last.duplicates(), last.rejectedCount());
        Summary.of(lines).print(io.out());
        io.out().printf("Results: %s (%,d lines)%n", written.results(), written.lines());
        input.ifPresent(path -> io.out().printf("Input:   %s (the %,d lines submitted)%n", path, urls.size()));
        if (withBodies) {
            io.out().printf("Bodies:  %s (%,d saved, %,d lines shared one already saved)%n",
                    folder.dir().resolve(OutputFolder.BODIES), written.bodies(), written.bodiesReused());
            if (markdown) {
                io.out().printf("Markdown: %s (%,d saved)%n", folder.dir().resolve(OutputFolder.MARKDOWN),
                        written.markdown());
            }
            written.bodyErrors().stream().limit(5).forEach(e -> io.err().println("  not saved: " + e));
        } else {
            io.out().println("Bodies:  not downloaded (--bodies to download them)");
        }
        archived.ifPresent(a -> io.out().printf("WARC:    %s (%,d request, %,d response, %,d revisit records;"
                + " %,d URLs without a capture%s)%n", folder.dir().resolve(WARC_FILE), a.requests(), a.responses(),
                a.revisits(), a.skipped(WarcExport.SkipReason.NO_CAPTURE)
                        + a.skipped(WarcExport.SkipReason.CAPTURE_MISSING),
                a.skipped(WarcExport.SkipReason.NOARCHIVE) == 0 ? "" : String.format(java.util.Locale.ROOT,
                        ", %,d left out as noarchive (--include-noarchive writes them)",
                        a.skipped(WarcExport.SkipReason.NOARCHIVE))));
        if (serve && target instanceof Target.Embedded embedded) {
            io.out().printf("%nServing %s until Ctrl-C.%n", embedded.spiderling().apiUri());
            Thread.currentThread().join();
        }
        if (!last.done()) {
            long queued = lines.stream().filter(l -> !l.duplicate() && l.state().equals("queued")).count();
            io.err().printf("spiderling: batch %s did not finish within %d s; %,d URLs still queued. It goes on:"
                    + " run the same command again to resume, or 'spiderling status %s'.%n", batchId, timeoutSeconds,
                    queued, batchId);
            return ExitCode.TIMEOUT.code();
        }
        return ExitCode.OK.code();
    }

    /**
     * Where the runs in progress are remembered, so running the same command again resumes the same batch: in the
     * data folder's {@code runs.properties} for the embedded stack (started here or served by another process), or
     * for a deployment in its {@code remote-runs.properties} (the endpoint is part of the fingerprint). None with
     * --memory.
     */
    private Optional<RunJournal> journal(Target target) {
        if (target instanceof Target.Embedded embedded) {
            return embedded.folder().map(f -> RunJournal.open(f.file(RunJournal.FILE)));
        }
        if (api.memory) {
            return Optional.empty();
        }
        if (target.local()) {
            // The stack another process serves on the data folder: the folder's own journal, as if run there.
            return Optional.of(RunJournal.open(api.data.resolve(RunJournal.FILE)));
        }
        try {
            java.nio.file.Files.createDirectories(api.data);
        } catch (java.io.IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot create " + api.data + ": " + e.getMessage(), e);
        }
        return Optional.of(RunJournal.open(api.data.resolve("remote-runs.properties")));
    }

    private static List<String> fingerprinted(Target target, List<String> urls) {
        if (target.local()) {
            return urls;
        }
        List<String> withEndpoint = new ArrayList<>(urls.size() + 1);
        withEndpoint.add("endpoint " + target.describe());
        withEndpoint.addAll(urls);
        return withEndpoint;
    }

    /** The WARC file in the output folder. */
    static final String WARC_FILE = "results.warc.gz";

    /**
     * Each URL of the batch once, in input order, its captures read from the embedded stack's bucket; the pages that
     * ask not to be archived as {@code noarchive} says.
     */
    private static WarcExport.Summary writeWarc(Target.Embedded embedded, List<ResultLine> lines, Path file,
            WarcExport.Noarchive noarchive) {
        var s3 = embedded.aws().s3();
        String bucket = embedded.spiderling().resources().bucket();
        try (WarcExport export = WarcExport.create(file, key -> {
            try {
                return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray());
            } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException missing) {
                return Optional.empty();
            }
        }, noarchive)) {
            for (ResultLine line : lines) {
                if (!line.duplicate() && line.url().isPresent()) {
                    export.add(line.record());
                }
            }
            return export.summary();
        } catch (java.io.IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private record Waited(BatchSnapshot last, Duration elapsed) {}

    private Waited waitFor(ApiClient client, String batchId, Io io) throws InterruptedException {
        long start = System.nanoTime();
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        Duration poll = api.endpoint().isPresent() ? Duration.ofSeconds(2) : Duration.ofMillis(500);
        try (Progress display = Progress.of(progress, io.err(), ZoneId.systemDefault())) {
            while (true) {
                ApiClient.Response status = client.get("/batches/" + batchId)
                        .expect("GET /batches/" + batchId, "batch " + batchId + " is gone");
                BatchSnapshot snapshot = BatchSnapshot.of(status.body());
                Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
                display.update(snapshot, elapsed);
                if (snapshot.done() || elapsed.compareTo(timeout) >= 0) {
                    return new Waited(snapshot, elapsed);
                }
                Thread.sleep(poll);
            }
        }
    }

    private static void printRejections(Submission.Accepted accepted, Io io) {
        var rejected = accepted.answer().path("rejected");
        if (rejected.isEmpty()) {
            return;
        }
        io.out().printf("Rejected %d lines:%n", rejected.size());
        int shown = 0;
        for (var r : rejected) {
            if (shown++ == 10) {
                io.out().printf("  … and %d more (see results.jsonl)%n", rejected.size() - 10);
                break;
            }
            io.out().printf("  %s: %s%n", UrlText.shorten(r.path("url").asText()), r.path("reason").asText());
        }
    }
}
