package io.spiderling.catalog;

import static io.spiderling.catalog.DynamoDbAction.BATCH_GET_ITEM;
import static io.spiderling.catalog.DynamoDbAction.BATCH_WRITE_ITEM;
import static io.spiderling.catalog.DynamoDbAction.CONDITION_CHECK_ITEM;
import static io.spiderling.catalog.DynamoDbAction.DELETE_ITEM;
import static io.spiderling.catalog.DynamoDbAction.GET_ITEM;
import static io.spiderling.catalog.DynamoDbAction.PUT_ITEM;
import static io.spiderling.catalog.DynamoDbAction.QUERY;
import static io.spiderling.catalog.DynamoDbAction.UPDATE_ITEM;
import static io.spiderling.catalog.S3Action.GET_OBJECT;
import static io.spiderling.catalog.S3Action.PUT_OBJECT;

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

    // What each use case calls, as the composition root builds it; a function adds those of its handler's use cases.
    // Each declares the actions its code calls, and on what: its function's role is granted exactly these, and
    // infra-cdk's LeastPrivilegeTest holds them to the calls the end-to-end suites record, both ways. A use case
    // whose code calls something new gets one line here; the test's failure names it.

    /**
     * Ingest ({@code Ingest.submit}): the batch header and its pending-plan marker, then the manifest; a replay of
     * the same request reads the header back and looks for the manifest; a batch that asks for progress reports
     * gets its first one scheduled.
     */
    private static FunctionSpec.Builder ingest(FunctionSpec.Builder b) {
        return quota(b).settings(ConfigKeys.UPLOADS_URL_TTL).settings(CALLBACKS)
                .table(Table.BATCHES, PUT_ITEM, GET_ITEM, BATCH_GET_ITEM)
                .objects(BucketPrefix.MANIFESTS, PUT_OBJECT, GET_OBJECT)
                .sends(Queue.NOTIFY);
    }

    /**
     * Uploads ({@code Ingest.startUpload}): the URL a client PUTs its manifest to, presigned with these rights, once
     * the client's day has room left.
     */
    private static FunctionSpec.Builder upload(FunctionSpec.Builder b) {
        return quota(b).objects(BucketPrefix.UPLOADS, PUT_OBJECT);
    }

    /**
     * Quotas ({@code Quotas}, ADR 10): a client's limit read, and its UTC day charged (or a charge given back) with one
     * conditional update per batch or upload chunk, in the batches table ({@code QUOTA#<client>}).
     */
    private static FunctionSpec.Builder quota(FunctionSpec.Builder b) {
        return b.settings(ConfigKeys.QUOTA_URLS_PER_DAY).table(Table.BATCHES, GET_ITEM, UPDATE_ITEM);
    }

    /**
     * The opt-out list the fetcher reads (ADR 8): the file's sites and the API's, the latter items of the sites
     * table's {@code CONTROL} partition, read with one query every few seconds.
     */
    private static FunctionSpec.Builder optOuts(FunctionSpec.Builder b) {
        return b.settings(ConfigKeys.FETCH_OPT_OUT_FILE).table(Table.SITES, QUERY);
    }

    /**
     * The operator routes ({@code /admin}, ADR 10): who is an admin (the groups claim, the admin groups and roles, or
     * the clients secret's flag); the kill switch read and set, and opt-outs listed, added and removed, in the sites
     * table's {@code CONTROL} partition; a client's quota read and its limit set.
     */
    private static FunctionSpec.Builder operatorControls(FunctionSpec.Builder b) {
        return quota(optOuts(b))
                .settings(ConfigKeys.AUTH_GROUPS_CLAIM, ConfigKeys.AUTH_ADMIN_GROUPS, ConfigKeys.AUTH_ADMIN_ROLES,
                        ConfigKeys.AUTH_CLIENTS_FILE, ConfigKeys.AUTH_CLIENTS_CACHE)
                .table(Table.SITES, GET_ITEM, PUT_ITEM, DELETE_ITEM)
                .reads(Secret.CLIENTS);
    }

    /**
     * Planning ({@code ItemPlanner}, shared by canonicalize and plan): each URL's item in its batch (in transactions
     * with a condition on the header), its row, its site's frontier entry and counts, the due entries released into
     * the fetch queue in order ({@code byOrder}); a batch that ends while planned completes, to its listeners and its
     * callback.
     */
    private static FunctionSpec.Builder planning(FunctionSpec.Builder b) {
        return b.settings(FRONTIER)
                .table(Table.BATCHES, GET_ITEM, BATCH_GET_ITEM, PUT_ITEM, UPDATE_ITEM, CONDITION_CHECK_ITEM)
                .table(Table.URLS, BATCH_GET_ITEM, UPDATE_ITEM)
                .table(Table.SITES, GET_ITEM, PUT_ITEM, UPDATE_ITEM).index(Table.SITES, "byOrder", QUERY)
                .sends(Queue.FETCH, Queue.NOTIFY, Queue.EVENTS);
    }

    /** Canonicalize: plans a manifest, then clears its pending-plan marker. */
    private static FunctionSpec.Builder canonicalize(FunctionSpec.Builder b) {
        return planning(b).objects(BucketPrefix.MANIFESTS, GET_OBJECT).table(Table.BATCHES, DELETE_ITEM);
    }

    /**
     * PlanUpload.onUpload: freezes an arrived upload into planned/ (a copy: a read of uploads/, a write of planned/,
     * then its size), records the cut on the header, sends a message per chunk to the plan queue, clears the
     * pending-plan marker.
     */
    private static FunctionSpec.Builder freezeUpload(FunctionSpec.Builder b) {
        // PlanUpload is built whole, its quota with it: the default limit is read, though only chunks are charged.
        return b.settings(ConfigKeys.UPLOADS_CHUNK_BYTES, ConfigKeys.QUOTA_URLS_PER_DAY)
                .table(Table.BATCHES, GET_ITEM, BATCH_GET_ITEM, UPDATE_ITEM, DELETE_ITEM)
                .objects(BucketPrefix.UPLOADS, GET_OBJECT).objects(BucketPrefix.PLANNED, GET_OBJECT, PUT_OBJECT)
                .sends(Queue.PLAN);
    }

    /** PlanUpload's chunks, and PlanSitemap's: one chunk of planned/ read and planned. */
    private static FunctionSpec.Builder planChunk(FunctionSpec.Builder b) {
        return quota(planning(b)).settings(ConfigKeys.UPLOADS_CHUNK_BYTES).objects(BucketPrefix.PLANNED, GET_OBJECT);
    }

    /** The sweep's stranded plans: the pending-plan markers older than the cutoff, each planned again. */
    private static FunctionSpec.Builder strandedPlans(FunctionSpec.Builder b) {
        return canonicalize(freezeUpload(b)).settings(ConfigKeys.SWEEP_UNPLANNED_AFTER).table(Table.BATCHES, QUERY);
    }

    /**
     * ExtractContent: a body's metadata into the URL's row and its links into the links table (when on); the page's
     * meta directives for the robots agent; {@code url.changed} for listeners, and to the notify queue for each batch
     * that asked for changes; the Markdown of the page's main content when a batch asked for it.
     */
    private static FunctionSpec.Builder extract(FunctionSpec.Builder b) {
        return b.settings(ConfigKeys.EXTRACT_CANONICAL_SCOPE, ConfigKeys.LINKS_ENABLED, ConfigKeys.FETCH_ROBOTS_AGENT)
                .table(Table.URLS, GET_ITEM, UPDATE_ITEM).table(Table.LINKS, BATCH_WRITE_ITEM)
                .objects(BucketPrefix.CONTENT, GET_OBJECT)
                // The Markdown is written only if absent; a refused write is checked with a HEAD (s3:GetObject).
                .objects(BucketPrefix.MARKDOWN, PUT_OBJECT, GET_OBJECT)
                .sends(Queue.EVENTS, Queue.NOTIFY);
    }

    /**
     * FetchPage: the polite GET (the site's robots.txt copy, rate item, kill switch and frontier places), the body,
     * the row (claimed, then ended, or its alias deleted), the wire capture; its item's end, and its batch's
     * completion; the site's next entries released, or a wake-up for later; and extraction of a body it already had,
     * and the reading of a sitemap it fetched, whose list it cuts into planned/ for the plan queue (ADR 19).
     */
    private static FunctionSpec.Builder fetchPage(FunctionSpec.Builder b) {
        return extract(b).settings(FRONTIER).settings(FETCH).settings(SITEMAPS).uses(Catalog::signing)
                .uses(Catalog::optOuts)
                .table(Table.BATCHES, GET_ITEM, BATCH_GET_ITEM, PUT_ITEM, UPDATE_ITEM, CONDITION_CHECK_ITEM)
                .table(Table.URLS, BATCH_GET_ITEM, DELETE_ITEM)
                .table(Table.SITES, GET_ITEM, PUT_ITEM, UPDATE_ITEM, DELETE_ITEM)
                .index(Table.SITES, "byOrder", QUERY)
                .objects(BucketPrefix.CONTENT, PUT_OBJECT)
                .objects(BucketPrefix.CAPTURE, PUT_OBJECT).objects(BucketPrefix.PLANNED, PUT_OBJECT)
                .sends(Queue.FETCH, Queue.WAKE, Queue.PLAN);
    }

    /**
     * FetchPage.deadLettered: the job's item ended as failed(dlq), its claim on the row and its site's place given
     * back (the next entries released), its batch completed if that was its last item.
     */
    private static FunctionSpec.Builder fetchDeadLettered(FunctionSpec.Builder b) {
        return b.table(Table.BATCHES, GET_ITEM, BATCH_GET_ITEM, UPDATE_ITEM)
                .table(Table.URLS, DELETE_ITEM)
                .table(Table.SITES, GET_ITEM, UPDATE_ITEM, DELETE_ITEM).index(Table.SITES, "byOrder", QUERY)
                .sends(Queue.FETCH, Queue.NOTIFY, Queue.EVENTS);
    }

    /** Web Bot Auth: the signing keys, from a file locally or the secret on AWS. */
    private static FunctionSpec.Builder signing(FunctionSpec.Builder b) {
        return b.settings(SIGNING).reads(Secret.SIGNING_KEYS);
    }

    /** Frontier releases: a site's due entries, in order, into the fetch queue. */
    private static FunctionSpec.Builder release(FunctionSpec.Builder b) {
        return b.settings(FRONTIER).table(Table.SITES, GET_ITEM, UPDATE_ITEM).index(Table.SITES, "byOrder", QUERY)
                .sends(Queue.FETCH);
    }

    /** The sweep of the frontier: every site's entries walked, the due released, the lost sent again. */
    private static FunctionSpec.Builder frontierSweep(FunctionSpec.Builder b) {
        return release(b).table(Table.SITES, QUERY);
    }

    /** NotifyBatch: signed callback deliveries, with the clients' webhook secrets; a failure recorded. */
    private static FunctionSpec.Builder notifyBatch(FunctionSpec.Builder b) {
        return b.settings(CALLBACKS).settings(ConfigKeys.AUTH_CLIENTS_FILE, ConfigKeys.AUTH_CLIENTS_CACHE)
                .table(Table.BATCHES, GET_ITEM, BATCH_GET_ITEM, UPDATE_ITEM)
                .sends(Queue.NOTIFY)
                .reads(Secret.CLIENTS);
    }

    /** NotifyBatch.deadLettered: a delivery given up on, recorded on the batch header as the callback's failure. */
    private static FunctionSpec.Builder notifyDeadLettered(FunctionSpec.Builder b) {
        return b.table(Table.BATCHES, UPDATE_ITEM);
    }

    /**
     * The read API (Queries, BatchWaiting): batch headers and items, URL rows, inlinks, the sites' state a batch
     * waits on; bodies and Markdown read, or presigned for the client to read with these rights.
     */
    private static FunctionSpec.Builder queries(FunctionSpec.Builder b) {
        return b.settings(ConfigKeys.LINKS_ENABLED)
                // What a batch waits on: its sites' state, read as the fetcher's policies read it; and the robots
                // agent, whose X-Robots-Tag directives a URL's record shows.
                .settings(ConfigKeys.FETCH_ROBOTS_AGENT, ConfigKeys.FETCH_ROBOTS_RETRY_BASE,
                        ConfigKeys.FETCH_THROTTLE_PAUSE, ConfigKeys.FETCH_MAX_IN_FLIGHT_PER_SITE)
                .table(Table.BATCHES, GET_ITEM, BATCH_GET_ITEM, QUERY)
                .table(Table.URLS, GET_ITEM, BATCH_GET_ITEM)
                .table(Table.SITES, GET_ITEM, BATCH_GET_ITEM, QUERY)
                .table(Table.LINKS, QUERY)
                .objects(BucketPrefix.CONTENT, GET_OBJECT).objects(BucketPrefix.MARKDOWN, GET_OBJECT);
    }

    /** UpdateFields: a URL's application fields. */
    private static FunctionSpec.Builder updateFields(FunctionSpec.Builder b) {
        return b.table(Table.URLS, UPDATE_ITEM);
    }

    /** CancelBatch: the header marked cancelled; the batch completes, to its listeners and its callback. */
    private static FunctionSpec.Builder cancel(FunctionSpec.Builder b) {
        return b.table(Table.BATCHES, UPDATE_ITEM).sends(Queue.NOTIFY, Queue.EVENTS);
    }

    public static final List<FunctionSpec> FUNCTIONS = List.of(
            FunctionSpec.named(FunctionNames.INGEST)
                    .description("POST /batches and POST /batches/uploads: accept a batch, write its manifest")
                    .source(EventSource.http())
                    .memoryMb(1024).timeout(HTTP_TIMEOUT)
                    .uses(Catalog::ingest).uses(Catalog::upload).settings(GATEWAY_AUTH)
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
                    .uses(Catalog::canonicalize).uses(Catalog::freezeUpload)
                    .sampleEvents("s3-manifest-created.json", "s3-upload-created.json")
                    .build(),
            FunctionSpec.named(FunctionNames.PLAN)
                    .description("The plan queue: plan one chunk of an uploaded manifest")
                    .source(EventSource.queue(Queue.PLAN).batchSize(1).reportingBatchItemFailures()
                            .maxConcurrency(DEFAULT_PLAN_CONCURRENCY))
                    .memoryMb(1024).timeout(Duration.ofMinutes(15))
                    // Its pipeline builds PlanUpload whole, of which it calls only the chunks' planning.
                    .uses(Catalog::planChunk).wiredFor(Catalog::freezeUpload)
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
                    // Its pipeline builds FetchPage whole, of which it calls only deadLettered; building it reads
                    // the signing keys when signing is on.
                    .wiredFor(Catalog::fetchPage).uses(Catalog::fetchDeadLettered).uses(Catalog::signing)
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
                    // Its pipeline builds NotifyBatch whole, of which it calls only deadLettered.
                    .wiredFor(Catalog::notifyBatch).uses(Catalog::notifyDeadLettered)
                    .sampleEvents("sqs-notify-dlq.json")
                    .build(),
            FunctionSpec.named(FunctionNames.API)
                    .description("The read API, batch control and the operator controls (/admin)")
                    .source(EventSource.http())
                    .memoryMb(512).timeout(HTTP_TIMEOUT)
                    .settings(GATEWAY_AUTH)
                    .uses(Catalog::queries).uses(Catalog::updateFields).uses(Catalog::cancel)
                    .uses(Catalog::operatorControls)
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
                    .uses(Catalog::strandedPlans).uses(Catalog::frontierSweep)
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
