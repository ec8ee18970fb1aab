package io.spiderling.catalog;

import static io.spiderling.catalog.Access.READ;
import static io.spiderling.catalog.Access.READ_WRITE;
import static io.spiderling.catalog.Access.WRITE;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every function of a deployment, declared once. The local runner wires its event sources from this, the CDK stack
 * builds the functions, event sources, environments and IAM grants from this, and tests hold the handlers, the sample
 * events and the configuration to it. Adding a function is adding an entry here, its {@code @Named} handler and its
 * sample event under {@code events/}.
 *
 * <p>The entries describe a deployed function: what it reads with the stack's configuration (authentication by the
 * API Gateway authorizer, clients in Secrets Manager). A local run reads the clients file instead.
 */
public final class Catalog {

    private Catalog() {}

    // Concurrency, sized on purpose (docs/capacity.md shows the arithmetic). A region's account allows 1,000
    // concurrent executions unless raised, of which 100 must stay unreserved. The fetch queue's mapping takes the most,
    // capped by its maximum concurrency; extract, invoked by S3 asynchronously, would follow every stored body and so
    // is capped by reserving its share, which also keeps the others from starving it; planning a chunk is heavy
    // (a 15-minute function, its chunk's URLs in transactions), so its mapping is capped low; canonicalize, invoked
    // by S3 for every manifest, is capped by a reservation so that a burst of batches cannot take the fetchers'
    // share. What is left serves the API, ingest, notify, sweep and wake. A deployment sets each from context.

    /** The account's concurrent executions that the model assumes: AWS's default quota per region. */
    public static final int ACCOUNT_CONCURRENCY = 1_000;
    /** What AWS keeps unreserved whatever the reservations. */
    public static final int UNRESERVED_MINIMUM = 100;
    /**
     * The fetch queue mapping's maximum concurrency: about 900 fetched URLs a second at the measured 0.44 s of
     * function time per URL, and one invocation per active site up to 400 sites at a time.
     */
    public static final int DEFAULT_FETCH_CONCURRENCY = 400;
    /** The plan queue mapping's maximum concurrency: chunks of uploads planned at once. */
    public static final int DEFAULT_PLAN_CONCURRENCY = 10;
    /** Reserved for extract: one invocation per stored body, of about a tenth of the fetch's time. */
    public static final int DEFAULT_EXTRACT_CONCURRENCY = 100;
    /** Reserved for canonicalize: manifests planned at once. */
    public static final int DEFAULT_CANONICALIZE_CONCURRENCY = 20;

    /** The longest an HTTP API integration may take (API Gateway gives up at 30 s). */
    static final Duration HTTP_TIMEOUT = Duration.ofSeconds(29);

    /** The frontier's settings, and what a site's lanes (message groups, and depth) follow: its rate override. */
    private static final ConfigKey<?>[] FRONTIER = {ConfigKeys.FRONTIER_DEPTH_CAP, ConfigKeys.FRONTIER_SPACING,
            ConfigKeys.FRONTIER_LOST_AFTER, ConfigKeys.FETCH_RATE_OVERRIDES_FILE,
            ConfigKeys.FETCH_MAX_IN_FLIGHT_PER_SITE};
    private static final ConfigKey<?>[] CALLBACKS = {ConfigKeys.NOTIFY_ALLOWED_HOSTS, ConfigKeys.NOTIFY_ALLOW_HTTP,
            ConfigKeys.FETCH_ALLOW_LOOPBACK};
    private static final ConfigKey<?>[] GATEWAY_AUTH = {ConfigKeys.AUTH_MODE, ConfigKeys.AUTH_CLIENT_CLAIM};
    private static final ConfigKey<?>[] FETCH = {ConfigKeys.FETCH_USER_AGENT, ConfigKeys.FETCH_CONNECT_TIMEOUT,
            ConfigKeys.FETCH_FIRST_BYTE_TIMEOUT, ConfigKeys.FETCH_TOTAL_TIMEOUT, ConfigKeys.FETCH_MAX_BODY_BYTES,
            ConfigKeys.FETCH_MAX_REDIRECTS, ConfigKeys.FETCH_ROBOTS_AGENT, ConfigKeys.FETCH_ALLOW_LOOPBACK,
            ConfigKeys.FETCH_OPT_OUT_FILE, ConfigKeys.FETCH_RATE_OVERRIDES_FILE, ConfigKeys.FETCH_ROBOTS_RETRY_BASE,
            ConfigKeys.FETCH_THROTTLE_PAUSE, ConfigKeys.FETCH_RETRY_BASE, ConfigKeys.CAPTURE_ENABLED};
    /** Web Bot Auth (ADR 21): the fetcher signs with the keys, the API serves their directory. */
    private static final ConfigKey<?>[] SIGNING = {ConfigKeys.SIGNING_ENABLED, ConfigKeys.SIGNING_AGENT,
            ConfigKeys.SIGNING_KEYS_FILE, ConfigKeys.SIGNING_KEYS_CACHE, ConfigKeys.SIGNING_VALIDITY};
    private static final ConfigKey<?>[] SITEMAPS = {ConfigKeys.SITEMAPS_MAX_BYTES,
            ConfigKeys.SITEMAPS_MAX_URLS_PER_SITEMAP, ConfigKeys.SITEMAPS_MAX_INDEX_DEPTH,
            ConfigKeys.SITEMAPS_MAX_PER_INDEX, ConfigKeys.SITEMAPS_MAX_PER_BATCH, ConfigKeys.SITEMAPS_MAX_URLS_PER_BATCH};

    // What each use case needs, as the composition root builds it; a function adds those of its handler's use cases.

    /**
     * Ingest: batch headers and pending plans, manifests, presigned uploads, progress reports; and the client's quota,
     * charged once per batch in the batches table ({@code QUOTA#<client>}: GetItem of its limit, UpdateItem of the
     * day's count).
     */
    private static FunctionSpec.Builder ingest(FunctionSpec.Builder b) {
        return b.settings(ConfigKeys.UPLOADS_URL_TTL, ConfigKeys.QUOTA_URLS_PER_DAY).settings(CALLBACKS)
                .table(Table.BATCHES, READ_WRITE)
                .objects(BucketPrefix.MANIFESTS, READ_WRITE).objects(BucketPrefix.UPLOADS, WRITE)
                .sends(Queue.NOTIFY);
    }

    /** Anything that ends items and parks URLs: batches, URL rows, the frontier, completions and events. */
    private static FunctionSpec.Builder planning(FunctionSpec.Builder b) {
        return b.settings(FRONTIER)
                .table(Table.BATCHES, READ_WRITE).table(Table.URLS, READ_WRITE).table(Table.SITES, READ_WRITE)
                .sends(Queue.FETCH, Queue.NOTIFY, Queue.EVENTS);
    }

    /** Canonicalize: plans a manifest. */
    private static FunctionSpec.Builder canonicalize(FunctionSpec.Builder b) {
        return planning(b).objects(BucketPrefix.MANIFESTS, READ);
    }

    /**
     * PlanUpload: freezes an upload into planned/, cuts it into chunks, plans a chunk; and counts each chunk's URLs
     * against its client's quota (batches table, {@code QUOTA#<client>}: GetItem, UpdateItem), once per chunk.
     */
    private static FunctionSpec.Builder planUpload(FunctionSpec.Builder b) {
        return planning(b).settings(ConfigKeys.UPLOADS_CHUNK_BYTES, ConfigKeys.QUOTA_URLS_PER_DAY)
                .objects(BucketPrefix.UPLOADS, READ).objects(BucketPrefix.PLANNED, READ_WRITE)
                .sends(Queue.PLAN);
    }

    /**
     * ExtractContent: a body's metadata and links into the URL's row and the links table; the page's meta directives
     * for the robots agent; {@code url.changed} for listeners, and to the notify queue for each batch that asked for
     * changes; the Markdown of the page's main content when a batch asked for it.
     */
    private static FunctionSpec.Builder extract(FunctionSpec.Builder b) {
        return b.settings(ConfigKeys.EXTRACT_CANONICAL_SCOPE, ConfigKeys.LINKS_ENABLED, ConfigKeys.FETCH_ROBOTS_AGENT)
                .table(Table.URLS, READ_WRITE).table(Table.LINKS, READ_WRITE)
                .objects(BucketPrefix.CONTENT, READ).objects(BucketPrefix.MARKDOWN, WRITE)
                .sends(Queue.EVENTS, Queue.NOTIFY);
    }

    /**
     * FetchPage: the polite GET, the body, the row, the wire capture; and extraction of a body it already had, and the
     * reading of a sitemap it fetched, whose list it cuts into planned/ for the plan queue (ADR 19).
     */
    private static FunctionSpec.Builder fetchPage(FunctionSpec.Builder b) {
        return planning(extract(b)).settings(FETCH).settings(SITEMAPS).uses(Catalog::signing)
                .objects(BucketPrefix.CONTENT, READ_WRITE)
                .objects(BucketPrefix.CAPTURE, WRITE).objects(BucketPrefix.PLANNED, WRITE)
                .sends(Queue.WAKE, Queue.PLAN);
    }

    /** Web Bot Auth: the signing keys, from a file locally or the secret on AWS. */
    private static FunctionSpec.Builder signing(FunctionSpec.Builder b) {
        return b.settings(SIGNING).reads(Secret.SIGNING_KEYS);
    }

    /** Frontier releases: a site's due entries into the fetch queue. */
    private static FunctionSpec.Builder release(FunctionSpec.Builder b) {
        return b.settings(FRONTIER).table(Table.SITES, READ_WRITE).sends(Queue.FETCH);
    }

    /** NotifyBatch: signed callback deliveries, with the clients' webhook secrets. */
    private static FunctionSpec.Builder notifyBatch(FunctionSpec.Builder b) {
        return b.settings(CALLBACKS).settings(ConfigKeys.AUTH_CLIENTS_FILE, ConfigKeys.AUTH_CLIENTS_CACHE)
                .table(Table.BATCHES, READ_WRITE)
                .sends(Queue.NOTIFY)
                .reads(Secret.CLIENTS);
    }

    public static final List<FunctionSpec> FUNCTIONS = List.of(
            FunctionSpec.named(FunctionNames.INGEST)
                    .description("POST /batches and POST /batches/uploads: accept a batch, write its manifest")
                    .source(EventSource.http())
                    .memoryMb(1024).timeout(HTTP_TIMEOUT)
                    .uses(Catalog::ingest).settings(GATEWAY_AUTH)
                    .sampleEvents("api-post-batches.json", "api-post-batches-uploads.json")
                    .build(),
            FunctionSpec.named(FunctionNames.INGEST_QUEUE)
                    .description("The SQS ingest queue: each message becomes a batch")
                    .source(EventSource.queue(Queue.INGEST).batchSize(10).batchingWindow(Duration.ofSeconds(1))
                            .reportingBatchItemFailures())
                    .memoryMb(1024).timeout(Duration.ofSeconds(60))
                    .uses(Catalog::ingest)
                    .sampleEvents("sqs-ingest.json")
                    .build(),
            FunctionSpec.named(FunctionNames.CANONICALIZE)
                    .description("S3 manifests/ and uploads/: plan a manifest, or cut an upload into chunks")
                    .source(EventSource.objectCreated(BucketPrefix.MANIFESTS, BucketPrefix.UPLOADS))
                    .memoryMb(1024).timeout(Duration.ofMinutes(5))
                    .reservedConcurrency(DEFAULT_CANONICALIZE_CONCURRENCY)
                    .uses(Catalog::canonicalize).uses(Catalog::planUpload)
                    .sampleEvents("s3-manifest-created.json", "s3-upload-created.json")
                    .build(),
            FunctionSpec.named(FunctionNames.PLAN)
                    .description("The plan queue: plan one chunk of an uploaded manifest")
                    .source(EventSource.queue(Queue.PLAN).batchSize(1).reportingBatchItemFailures()
                            .maxConcurrency(DEFAULT_PLAN_CONCURRENCY))
                    .memoryMb(1024).timeout(Duration.ofMinutes(15))
                    .uses(Catalog::planUpload)
                    .sampleEvents("sqs-plan.json", "sqs-plan-sitemap.json")
                    .build(),
            FunctionSpec.named(FunctionNames.FETCH)
                    .description("The FIFO fetch queue: robots.txt, a rate slot, the GET, the body and the row")
                    .source(EventSource.queue(Queue.FETCH).batchSize(10).reportingBatchItemFailures()
                            .maxConcurrency(DEFAULT_FETCH_CONCURRENCY))
                    .memoryMb(512).timeout(Duration.ofSeconds(60))
                    .uses(Catalog::fetchPage)
                    .sampleEvents("sqs-fetch.json", "sqs-fetch-sitemap.json")
                    .build(),
            FunctionSpec.named(FunctionNames.FETCH_DLQ)
                    .description("The fetch dead-letter queue: end each job as failed(dlq)")
                    .source(EventSource.queue(Queue.FETCH_DLQ).batchSize(10).reportingBatchItemFailures())
                    .memoryMb(512).timeout(Duration.ofSeconds(60))
                    .uses(Catalog::fetchPage)
                    .sampleEvents("sqs-fetch-dlq.json")
                    .build(),
            FunctionSpec.named(FunctionNames.EXTRACT)
                    .description("S3 content/: extract metadata, canonical link and outlinks into the URL's row")
                    .source(EventSource.objectCreated(BucketPrefix.CONTENT))
                    .memoryMb(1024).timeout(Duration.ofSeconds(60))
                    .reservedConcurrency(DEFAULT_EXTRACT_CONCURRENCY)
                    .uses(Catalog::extract)
                    .sampleEvents("s3-content-created.json")
                    .build(),
            FunctionSpec.named(FunctionNames.NOTIFY)
                    .description("The notify queue: one signed callback delivery attempt per message (a completion,"
                            + " a progress report or a change)")
                    .source(EventSource.queue(Queue.NOTIFY).batchSize(10).reportingBatchItemFailures())
                    .memoryMb(256).timeout(Duration.ofSeconds(60))
                    .uses(Catalog::notifyBatch)
                    .sampleEvents("sqs-notify.json", "sqs-notify-changed.json")
                    .build(),
            FunctionSpec.named(FunctionNames.NOTIFY_DLQ)
                    .description("The notify dead-letter queue: record a delivery given up as the callback's failure")
                    .source(EventSource.queue(Queue.NOTIFY_DLQ).batchSize(10).reportingBatchItemFailures())
                    .memoryMb(256).timeout(Duration.ofSeconds(60))
                    .uses(Catalog::notifyBatch)
                    .sampleEvents("sqs-notify-dlq.json")
                    .build(),
            FunctionSpec.named(FunctionNames.API)
                    .description("The read API, batch control and the operator controls (/admin)")
                    .source(EventSource.http())
                    .memoryMb(512).timeout(HTTP_TIMEOUT)
                    .settings(GATEWAY_AUTH).settings(ConfigKeys.LINKS_ENABLED)
                    // What a batch waits on: its sites' state, read as the fetcher's policies read it; and the
                    // robots agent, whose X-Robots-Tag directives a URL's record shows.
                    .settings(ConfigKeys.FETCH_ROBOTS_AGENT, ConfigKeys.FETCH_ROBOTS_RETRY_BASE,
                            ConfigKeys.FETCH_THROTTLE_PAUSE, ConfigKeys.FETCH_MAX_IN_FLIGHT_PER_SITE)
                    .table(Table.BATCHES, READ_WRITE).table(Table.URLS, READ_WRITE).table(Table.LINKS, READ)
                    .table(Table.SITES, READ_WRITE)
                    // Operator controls (ADR 10, issue 25): who is an admin (the groups claim and the admin groups
                    // and roles, or the clients secret's flag); the kill switch and the opt-outs in the sites table's
                    // CONTROL partition; quotas in the batches table (QUOTA#<client>), with the default limit.
                    .settings(ConfigKeys.AUTH_GROUPS_CLAIM, ConfigKeys.AUTH_ADMIN_GROUPS, ConfigKeys.AUTH_ADMIN_ROLES,
                            ConfigKeys.AUTH_CLIENTS_FILE, ConfigKeys.AUTH_CLIENTS_CACHE,
                            ConfigKeys.FETCH_OPT_OUT_FILE, ConfigKeys.QUOTA_URLS_PER_DAY)
                    .reads(Secret.CLIENTS)
                    .objects(BucketPrefix.CONTENT, READ).objects(BucketPrefix.MARKDOWN, READ)
                    .sends(Queue.NOTIFY, Queue.EVENTS)
                    // The key directory, signed with the keys it lists.
                    .uses(Catalog::signing)
                    .sampleEvents("api-get-batch.json", "api-get-batch-urls.json", "api-delete-batch.json",
                            "api-get-url.json", "api-post-urls-batchget.json", "api-get-url-content.json",
                            "api-get-url-inlinks.json", "api-patch-url-fields.json", "api-get-url-markdown.json",
                            "api-get-key-directory.json", "api-get-admin-fetching.json",
                            "api-put-admin-fetching.json", "api-get-admin-opt-outs.json",
                            "api-put-admin-opt-out.json", "api-delete-admin-opt-out.json",
                            "api-get-admin-quota.json", "api-put-admin-quota.json")
                    .build(),
            FunctionSpec.named(FunctionNames.SWEEP)
                    .description("Every minute: release due frontier entries, re-send lost jobs, plan stranded"
                            + " manifests, report frontier lag")
                    .source(EventSource.every(Duration.ofMinutes(1)))
                    .memoryMb(512).timeout(Duration.ofSeconds(60))
                    .uses(Catalog::canonicalize).uses(Catalog::planUpload)
                    .settings(ConfigKeys.SWEEP_UNPLANNED_AFTER)
                    .sampleEvents("eventbridge-sweep.json")
                    .build(),
            FunctionSpec.named(FunctionNames.WAKE)
                    .description("The wake queue: release a site's frontier entries when they fall due")
                    .source(EventSource.queue(Queue.WAKE).batchSize(10).reportingBatchItemFailures())
                    .memoryMb(256).timeout(Duration.ofSeconds(30))
                    .uses(Catalog::release)
                    .sampleEvents("sqs-wake.json")
                    .build());

    public static FunctionSpec function(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("no function " + name + " in the catalog"));
    }

    public static Optional<FunctionSpec> find(String name) {
        return FUNCTIONS.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /**
     * What is wrong with the catalog, given the frontier's {@code lostAfter}; empty when nothing is. The CDK stack
     * refuses to synthesize, and a test fails, on any problem.
     */
    public static List<String> problems(Duration lostAfter) {
        return problems(FUNCTIONS, lostAfter);
    }

    /**
     * What is wrong with reserving {@code reserved} concurrent executions in all: more than the default account leaves
     * once AWS keeps its unreserved minimum. The CDK stack asks it again with a deployment's own reservations.
     */
    public static Optional<String> reservationProblem(int reserved) {
        return reserved > ACCOUNT_CONCURRENCY - UNRESERVED_MINIMUM
                ? Optional.of("reserved concurrency " + reserved + " in all leaves less than the " + UNRESERVED_MINIMUM
                        + " unreserved that AWS keeps of the default " + ACCOUNT_CONCURRENCY
                        + " (request a higher quota and lower the reservations first)")
                : Optional.empty();
    }

    /**
     * What is wrong with {@code functions} as a catalog, given the frontier's {@code lostAfter}. Public so the CDK
     * stack can check exactly the entries it deploys (its tests add one to show an entry is all a function needs).
     */
    public static List<String> problems(List<FunctionSpec> functions, Duration lostAfter) {
        List<String> problems = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (FunctionSpec f : functions) {
            if (!names.add(f.name())) {
                problems.add(f.name() + ": declared twice");
            }
            if (f.memoryMb() < 128 || f.memoryMb() > 10240) {
                problems.add(f.name() + ": memory " + f.memoryMb() + " MB is outside Lambda's 128-10240 MB");
            }
            if (f.timeout().isNegative() || f.timeout().isZero() || f.timeout().compareTo(Duration.ofMinutes(15)) > 0) {
                problems.add(f.name() + ": timeout " + f.timeout() + " is outside Lambda's 1 s-15 min");
            }
            if (f.sampleEvents().isEmpty()) {
                problems.add(f.name() + ": no sample event");
            }
            switch (f.source()) {
                case EventSource.QueueSource q -> problems.addAll(queueProblems(functions, f, q));
                case EventSource.Http http -> {
                    if (f.routes().isEmpty()) {
                        problems.add(f.name() + ": an HTTP function with no route");
                    }
                    if (f.timeout().compareTo(Duration.ofSeconds(30)) >= 0) {
                        problems.add(f.name() + ": API Gateway gives up after 30 s, but the timeout is " + f.timeout());
                    }
                }
                case EventSource.ObjectCreated s3 -> {
                    if (s3.prefixes().isEmpty()) {
                        problems.add(f.name() + ": object-created with no prefix");
                    }
                }
                case EventSource.Schedule schedule -> {
                    if (schedule.every().compareTo(Duration.ofMinutes(1)) < 0) {
                        problems.add(f.name() + ": EventBridge schedules run at most once a minute");
                    }
                }
            }
        }
        for (Route route : Routes.ALL) {
            if (functions.stream().noneMatch(f -> f.name().equals(route.function())
                    && f.source() instanceof EventSource.Http)) {
                problems.add(route.routeKey() + ": served by " + route.function() + ", which is not an HTTP function");
            }
        }
        for (BucketPrefix prefix : BucketPrefix.all()) {
            long notified = functions.stream().filter(f -> f.source() instanceof EventSource.ObjectCreated s3
                    && s3.prefixes().contains(prefix)).count();
            if (notified > 1) {
                problems.add(prefix.prefix() + ": notifies " + notified + " functions; S3 allows one per prefix");
            }
        }
        reservationProblem(functions.stream().mapToInt(f -> f.reservedConcurrency().orElse(0)).sum())
                .ifPresent(problems::add);
        functions.stream().filter(f -> f.reservedConcurrency().filter(c -> c < 1).isPresent()).forEach(f ->
                problems.add(f.name() + ": reserved concurrency must be at least 1"));
        Queue fetch = Queue.FETCH;
        Duration live = fetch.visibility().multipliedBy(fetch.deadLetter().map(Queue.DeadLetter::maxReceiveCount)
                .orElse(1));
        if (lostAfter.compareTo(live) <= 0) {
            problems.add(ConfigKeys.FRONTIER_LOST_AFTER.name() + " (" + lostAfter + ") must exceed the fetch queue's"
                    + " visibility timeout x maxReceiveCount (" + live + "): the sweep would re-send jobs still live");
        }
        return problems;
    }

    private static List<String> queueProblems(List<FunctionSpec> functions, FunctionSpec f,
            EventSource.QueueSource q) {
        List<String> problems = new ArrayList<>();
        if (q.batchSize() < 1 || q.batchSize() > (q.queue().fifo() ? 10 : 10_000)) {
            problems.add(f.name() + ": batch size " + q.batchSize() + " is out of range for " + q.queue());
        }
        if (q.queue().fifo() && !q.batchingWindow().isZero()) {
            problems.add(f.name() + ": a FIFO source takes no batching window");
        }
        if (q.batchSize() > 10 && q.batchingWindow().isZero()) {
            problems.add(f.name() + ": more than 10 messages a batch needs a batching window");
        }
        if (q.batchingWindow().compareTo(Duration.ofMinutes(5)) > 0 || q.batchingWindow().isNegative()) {
            problems.add(f.name() + ": batching window " + q.batchingWindow() + " is outside 0-5 min");
        }
        q.maxConcurrency().filter(c -> c < 2 || c > 1000).ifPresent(c ->
                problems.add(f.name() + ": maximum concurrency " + c + " is outside 2-1000"));
        if (q.queue().visibility().compareTo(f.timeout().multipliedBy(6)) < 0) {
            problems.add(f.name() + ": " + q.queue() + " hides a message for " + q.queue().visibility()
                    + ", less than 6 x the function's timeout " + f.timeout());
        }
        if (functions.stream().anyMatch(other -> other != f && other.source() instanceof EventSource.QueueSource oq
                && oq.queue() == q.queue())) {
            problems.add(q.queue() + ": consumed by more than one function");
        }
        return problems;
    }
}
