package io.spiderling.lambda;

import io.spiderling.aws.AwsClients;
import io.spiderling.aws.AwsService;
import io.spiderling.aws.DynamoDbBatchOriginStore;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.aws.DynamoDbFetchSwitch;
import io.spiderling.aws.DynamoDbFrontierStore;
import io.spiderling.aws.DynamoDbLinkStore;
import io.spiderling.aws.DynamoDbOptOutStore;
import io.spiderling.aws.DynamoDbQuotaStore;
import io.spiderling.aws.DynamoDbPendingPlans;
import io.spiderling.aws.DynamoDbRateStore;
import io.spiderling.aws.DynamoDbRobotsStore;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.aws.S3BlobStore;
import io.spiderling.aws.SecretsManagerText;
import io.spiderling.core.signing.KeyDirectory;
import io.spiderling.core.signing.KeyRing;
import io.spiderling.core.signing.NonceSource;
import io.spiderling.core.signing.RequestSigner;
import io.spiderling.aws.SqsEventSink;
import io.spiderling.aws.SqsFetchQueue;
import io.spiderling.aws.SqsNotifyQueue;
import io.spiderling.aws.SqsWakeQueue;
import io.spiderling.aws.SqsPlanQueue;
import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.LogFormat;
import io.spiderling.core.auth.Clients;
import io.spiderling.core.extract.CanonicalLink;
import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.net.AddressPolicy;
import io.spiderling.core.notify.CallbackPolicy;
import io.spiderling.core.notify.DeliveryPolicy;
import io.spiderling.core.notify.UrlFetchedEvent;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.pipeline.OptOutList;
import io.spiderling.core.pipeline.Quotas;
import io.spiderling.core.pipeline.batch.CancelBatch;
import io.spiderling.core.pipeline.ingest.Canonicalize;
import io.spiderling.core.pipeline.batch.EmitCompletion;
import io.spiderling.core.pipeline.ChangeNotices;
import io.spiderling.core.pipeline.extract.ExtractContent;
import io.spiderling.core.pipeline.fetch.FetchPage;
import io.spiderling.core.pipeline.fetch.SitemapReader;
import io.spiderling.core.pipeline.ingest.Ingest;
import io.spiderling.core.pipeline.ingest.ItemPlanner;
import io.spiderling.core.pipeline.batch.NotifyBatch;
import io.spiderling.core.pipeline.ingest.PlanSitemap;
import io.spiderling.core.pipeline.ingest.PlanUpload;
import io.spiderling.core.pipeline.ingest.ExpandSitemap;
import io.spiderling.core.pipeline.ingest.ReadRobotsTxt;
import io.spiderling.core.pipeline.ingest.PlanningParts;
import io.spiderling.core.pipeline.batch.BatchWaiting;
import io.spiderling.core.pipeline.query.Queries;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.WaitingReasons;
import io.spiderling.core.pipeline.fetch.SitePoliteness;
import io.spiderling.core.pipeline.query.UpdateFields;
import io.spiderling.core.refresh.Refreshing;
import io.spiderling.core.politeness.OptOut;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.Lanes;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.politeness.RetryPolicy;
import io.spiderling.core.port.PlanQueue;
import io.spiderling.core.port.BatchOriginStore;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.EventSink;
import io.spiderling.core.port.FetchQueue;
import io.spiderling.core.port.LinkStore;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.port.PendingPlans;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.sitemap.SitemapExpander;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.core.url.UrlNormalizer;
import io.spiderling.lambda.api.Admins;
import io.spiderling.lambda.api.ApiAuth;
import io.spiderling.lambda.api.GatewayAuth;
import io.spiderling.lambda.api.TokenFileAuth;
import io.spiderling.lambda.config.FunctionConfig;
import io.spiderling.lambda.fetch.VertxPageFetcher;
import io.spiderling.lambda.internal.CheckedAddress;
import io.spiderling.lambda.internal.RetrySoon;
import io.spiderling.lambda.notify.VertxWebhookSender;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * The composition root: every adapter and use case, built from configuration on first use. One place assembles them,
 * for the Lambda functions (through CDI) and for the local runner alike, so both run the same objects.
 *
 * <p>A function builds only what its handler asks for, and so reads only the configuration keys of that: the fetch
 * function never reads the API's authentication mode, the API never reads the fetch timeouts. Each function's
 * catalog entry names exactly those keys; a test holds the two together.
 */
public final class Pipeline implements AutoCloseable {

    /** How long a function trusts the kill switch it read. */
    private static final Duration SWITCH_CACHE = Duration.ofSeconds(5);

    private final FunctionConfig config;
    private final Vertx vertx;
    private final Clock clock;
    private final UnaryOperator<BlobStore> blobDecorator;
    private final PrintStream metrics;
    private final List<ExecutionInterceptor> interceptors;
    private final boolean jsonLogs;
    private final DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    // The parts, each built on first use. Their builders call config(), clock() and vertx() rather than read the
    // fields, which are assigned after these initializers run (the builders only run later).
    private final Lazy<AwsClients> aws = lazy(this::buildAws);
    private final Lazy<UrlNormalizer> normalizer = lazy(UrlNormalizer::create);
    private final Lazy<BlobStore> blobs = lazy(() -> blobDecorator().apply(new S3BlobStore(aws().s3(),
            aws().s3Presigner(), config().get(ConfigKeys.BUCKET))));
    // Headers, items and upload planning in one adapter: they count on the header in one transaction.
    private final Lazy<DynamoDbBatchStore> batches = lazy(() -> new DynamoDbBatchStore(aws().dynamoDb(),
            config().get(ConfigKeys.TABLES_BATCHES)));
    private final Lazy<BatchOriginStore> batchOrigins = lazy(() -> new DynamoDbBatchOriginStore(aws().dynamoDb(),
            config().get(ConfigKeys.TABLES_BATCHES)));
    private final Lazy<PendingPlans> pendingPlans = lazy(() -> new DynamoDbPendingPlans(aws().dynamoDb(),
            config().get(ConfigKeys.TABLES_BATCHES)));
    private final Lazy<UrlStore> urls = lazy(() -> new DynamoDbUrlStore(aws().dynamoDb(),
            config().get(ConfigKeys.TABLES_URLS)));
    private final Lazy<LinkStore> links = lazy(() -> new DynamoDbLinkStore(aws().dynamoDb(),
            config().get(ConfigKeys.TABLES_LINKS)));
    private final Lazy<DynamoDbFetchSwitch> fetchSwitch = lazy(() -> new DynamoDbFetchSwitch(aws().dynamoDb(),
            config().get(ConfigKeys.TABLES_SITES), clock(), SWITCH_CACHE));
    /** The one opt-out list: the operator's file and the API's sites, read as often as the kill switch. */
    private final Lazy<OptOutList> optOuts = lazy(() -> OptOutList.of(config().get(ConfigKeys.FETCH_OPT_OUT_FILE)
            .map(f -> OptOut.parse(read(ConfigKeys.FETCH_OPT_OUT_FILE, Path.of(f)))).orElse(Set.of()),
            new DynamoDbOptOutStore(aws().dynamoDb(), config().get(ConfigKeys.TABLES_SITES)), clock(), SWITCH_CACHE));
    /** Each client's URLs a day, charged once per batch (issue 25). */
    private final Lazy<Quotas> quotas = lazy(() -> new Quotas(new DynamoDbQuotaStore(aws().dynamoDb(),
            config().get(ConfigKeys.TABLES_BATCHES)), config().get(ConfigKeys.QUOTA_URLS_PER_DAY), clock()));
    private final Lazy<Admins> admins = lazy(this::buildAdmins);
    private final Lazy<RateOverrides> overrides = lazy(() -> config().get(ConfigKeys.FETCH_RATE_OVERRIDES_FILE)
            .map(f -> RateOverrides.parse(read(ConfigKeys.FETCH_RATE_OVERRIDES_FILE, Path.of(f))))
            .orElse(RateOverrides.none()));
    /**
     * The fetch queue's message groups of each site, one per place in flight: a site's allowed requests overlap across
     * invocations. Every sender of fetch jobs and the fetch stage (a redirect to a URL of another group goes to that
     * group) derive them alike, from the overrides and the limiter's places.
     */
    private final Lazy<Lanes> lanes = lazy(() -> Lanes.of(RateLimiter.create(limiterSettings()), overrides.get()));
    private final Lazy<FetchQueue> fetchQueue = lazy(() -> new SqsFetchQueue(aws().sqs(),
            config().get(ConfigKeys.QUEUES_FETCH), lanes.get()));
    private final Lazy<NotifyQueue> notifyQueue = lazy(() -> new SqsNotifyQueue(aws().sqs(),
            config().get(ConfigKeys.QUEUES_NOTIFY)));
    /** Both stages' halves of telling the batches that asked for changes (ADR 18): one helper, both ends. */
    private final Lazy<ChangeNotices> changeNotices = lazy(() -> new ChangeNotices(urls(), notifyQueue()));
    private final Lazy<EventSink> events = lazy(() -> config().get(ConfigKeys.QUEUES_EVENTS)
            .<EventSink>map(url -> new SqsEventSink(aws().sqs(), url)).orElse(EventSink.NONE));
    private final Lazy<Frontier> frontier = lazy(this::buildFrontier);
    private final Lazy<BatchTracker> tracker = lazy(() -> new BatchTracker(batches(), batches(),
            new EmitCompletion(notifyQueue(), events())));
    private final Lazy<CallbackPolicy> callbacks = lazy(this::buildCallbacks);
    private final Lazy<Supplier<Clients>> clients = lazy(this::buildClients);
    private final Lazy<ApiAuth> apiAuth = lazy(this::buildApiAuth);
    private final Lazy<VertxPageFetcher> fetcher = lazy(this::buildFetcher);
    private final Lazy<Optional<Signing>> signing = lazy(this::buildSigning);
    private final Lazy<VertxWebhookSender> webhooks = lazy(() -> closing(new VertxWebhookSender(vertx())));
    private final Lazy<Ingest> ingest = lazy(() -> Ingest.builder().normalizer(normalizer()).batches(batches())
            .blobs(blobs()).clock(clock()).uploadUrlTtl(config().get(ConfigKeys.UPLOADS_URL_TTL))
            .callbacks(Optional.of(callbacks())).notifyQueue(Optional.of(notifyQueue())).pendingPlans(pendingPlans())
            .quotas(quotas()).build());
    // One planner for both ways a batch's URLs arrive, so a manifest and an upload claim URLs alike.
    private final Lazy<ItemPlanner> planner = lazy(() -> new ItemPlanner(urls(), tracker(), batchStores().origins(),
            ItemPlanner.Settings.DEFAULTS));
    private final Lazy<PlanningParts> planning = lazy(() -> PlanningParts.builder().blobs(blobs())
            .batches(batchStores()).planner(planner()).frontier(frontier()).clock(clock())
            .pendingPlans(pendingPlans()).build());
    private final Lazy<PlanQueue> planQueue = lazy(() -> new SqsPlanQueue(aws().sqs(),
            config().get(ConfigKeys.QUEUES_PLAN)));
    private final Lazy<PlanSitemap> planSitemap = lazy(() -> new PlanSitemap(planning.get(), normalizer(),
            tracker()));
    private final Lazy<PlanUpload> planUpload = lazy(() -> PlanUpload.builder().normalizer(normalizer())
            .planning(planning.get())
            .queue(planQueue.get())
            .settings(new PlanUpload.Settings(config().get(ConfigKeys.UPLOADS_CHUNK_BYTES))).tracker(tracker())
            .quotas(quotas()).build());
    private final Lazy<Canonicalize> canonicalize = lazy(() -> new Canonicalize(planning.get()));
    private final Lazy<ExtractContent> extract = lazy(() -> ExtractContent.builder().blobs(blobs()).urls(urls())
            .links(links()).extractor(HtmlExtractor.builder().robotsAgent(robotsAgent()).build())
            .canonical(new CanonicalLink(normalizer(), canonicalScope())).clock(clock())
            .settings(new ExtractContent.Settings(config().get(ConfigKeys.LINKS_ENABLED))).events(events())
            .notices(changeNotices()).build());
    private final Lazy<FetchPage> fetchPage = lazy(this::buildFetchPage);
    private final Lazy<Queries> queries = lazy(() -> Queries.builder().normalizer(normalizer()).headers(batches())
            .items(batches()).urls(urls()).blobs(blobs())
            .links(config().get(ConfigKeys.LINKS_ENABLED) ? Optional.of(links()) : Optional.empty())
            .robotsAgent(robotsAgent()).build());
    private final Lazy<BatchWaiting> waiting = lazy(this::buildWaiting);
    private final Lazy<CancelBatch> cancel = lazy(() -> new CancelBatch(batches(), batches(), clock(), tracker()));
    private final Lazy<UpdateFields> updateFields = lazy(() -> new UpdateFields(normalizer(), urls()));
    private final Lazy<NotifyBatch> notifyBatch = lazy(this::buildNotifyBatch);

    private Pipeline(Builder builder) {
        this.config = Objects.requireNonNull(builder.config, "config");
        this.vertx = Objects.requireNonNull(builder.vertx, "vertx");
        this.clock = Objects.requireNonNull(builder.clock, "clock");
        this.blobDecorator = builder.blobDecorator;
        this.metrics = builder.metrics;
        this.interceptors = List.copyOf(builder.interceptors);
        this.jsonLogs = config.get(ConfigKeys.LOG_FORMAT) == LogFormat.JSON;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** What the composition root is built from. */
    public static final class Builder {
        private FunctionConfig config;
        private Vertx vertx;
        private Clock clock = Clock.systemUTC();
        private UnaryOperator<BlobStore> blobDecorator = UnaryOperator.identity();
        private PrintStream metrics = System.out;
        private List<ExecutionInterceptor> interceptors = List.of();

        public Builder config(FunctionConfig config) {
            this.config = config;
            return this;
        }

        /** Shared with Quarkus on Lambda; the caller closes it. */
        public Builder vertx(Vertx vertx) {
            this.vertx = vertx;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * Wraps the blob store; the local runner uses it to raise the object-created events that S3 raises on AWS.
         */
        public Builder blobDecorator(UnaryOperator<BlobStore> decorator) {
            this.blobDecorator = decorator;
            return this;
        }

        /**
         * Where metrics go, as lines in CloudWatch's embedded metric format: standard output on Lambda, which sends
         * each line to the function's log group as it is.
         */
        public Builder metrics(PrintStream out) {
            this.metrics = out;
            return this;
        }

        /**
         * SDK interceptors set on every AWS client the pipeline builds (the local runner's queue pollers use the same
         * clients); the seam through which tests inject faults into the calls. None on Lambda.
         */
        public Builder interceptors(List<ExecutionInterceptor> interceptors) {
            this.interceptors = List.copyOf(interceptors);
            return this;
        }

        public Pipeline build() {
            return new Pipeline(this);
        }
    }

    public FunctionConfig config() {
        return config;
    }

    public Clock clock() {
        return clock;
    }

    /**
     * Whether the function's log lines are to be JSON ({@code spiderling.log.format}, read by every function). Quarkus
     * applies it at start-up ({@code Beans}); the local runner keeps its own readable format.
     */
    public boolean jsonLogs() {
        return jsonLogs;
    }

    /** Where handlers print their metrics. */
    public PrintStream metrics() {
        return metrics;
    }

    public Ingest ingest() {
        return ingest.get();
    }

    public Canonicalize canonicalize() {
        return canonicalize.get();
    }

    public PlanUpload planUpload() {
        return planUpload.get();
    }

    /** How the plan function brings a chunk whose planning failed back soon. */
    public RetrySoon planRetries() {
        return new RetrySoon(aws().sqs(), config().get(ConfigKeys.QUEUES_PLAN));
    }

    /** The plan function's planner of a sitemap's list, a chunk at a time (ADR 19). */
    public PlanSitemap planSitemap() {
        return planSitemap.get();
    }

    public FetchPage fetchPage() {
        return fetchPage.get();
    }

    /** The longest one GET may take, whole body included: a fetch handler starts none with less time left. */
    public Duration fetchTimeout() {
        return config.get(ConfigKeys.FETCH_TOTAL_TIMEOUT);
    }

    public ExtractContent extract() {
        return extract.get();
    }

    public Queries queries() {
        return queries.get();
    }

    /** What unfinished batches wait on, for their status. */
    public BatchWaiting waiting() {
        return waiting.get();
    }

    public CancelBatch cancel() {
        return cancel.get();
    }

    public Frontier frontier() {
        return frontier.get();
    }

    /** Each site's rate item in the sites table: for the fetcher, the status reports and a local resume. */
    public RateStore rateStore() {
        return new DynamoDbRateStore(aws().dynamoDb(), config.get(ConfigKeys.TABLES_SITES), clock);
    }

    /** The robots.txt cache in the sites table: for the fetcher, the status reports and a local resume. */
    public RobotsStore robotsStore() {
        return new DynamoDbRobotsStore(aws().dynamoDb(), config.get(ConfigKeys.TABLES_SITES));
    }

    public UpdateFields updateFields() {
        return updateFields.get();
    }

    public NotifyBatch notifyBatch() {
        return notifyBatch.get();
    }

    public ApiAuth apiAuth() {
        return apiAuth.get();
    }

    /** The Web Bot Auth key directory; empty while signing is off (ADR 21). */
    public Optional<KeyDirectory> keyDirectory() {
        return signing.get().map(Signing::directory);
    }

    /** The request signer and the directory of its keys, which share one key set. */
    private record Signing(RequestSigner signer, KeyDirectory directory) {}

    /**
     * Reads every signing key, on or off, so that a function reads the same keys whatever the deployment chose; the
     * keys themselves are read (and checked: a bad key set fails the cold start) only when signing is on.
     */
    private Optional<Signing> buildSigning() {
        boolean enabled = config.get(ConfigKeys.SIGNING_ENABLED);
        Optional<URI> agent = config.get(ConfigKeys.SIGNING_AGENT);
        Optional<String> file = config.get(ConfigKeys.SIGNING_KEYS_FILE);
        Optional<String> secret = config.get(ConfigKeys.SIGNING_KEYS_SECRET);
        Duration cache = config.get(ConfigKeys.SIGNING_KEYS_CACHE);
        Duration validity = config.get(ConfigKeys.SIGNING_VALIDITY);
        // The catalog entry's secret brings the Secrets Manager endpoint with it; read it off as on.
        config.get(ConfigKeys.AWS_ENDPOINT_SECRETSMANAGER);
        if (!enabled) {
            return Optional.empty();
        }
        if (agent.isEmpty() || file.isPresent() == secret.isPresent()) {
            throw new IllegalArgumentException(ConfigKeys.SIGNING_ENABLED.name() + " needs "
                    + ConfigKeys.SIGNING_AGENT.name() + ", and one of " + ConfigKeys.SIGNING_KEYS_FILE.name() + " and "
                    + ConfigKeys.SIGNING_KEYS_SECRET.name());
        }
        Refreshing<KeyRing> keys = new Refreshing<>(text(ConfigKeys.SIGNING_KEYS_FILE, file, secret),
                KeyRing::parse, "the signing keys", cache, clock);
        keys.get();
        return Optional.of(new Signing(new RequestSigner(keys, agent.get(), validity, NonceSource.secureRandom()),
                new KeyDirectory(keys, validity)));
    }

    /** The operators' kill switch. */
    public DynamoDbFetchSwitch fetchSwitch() {
        return fetchSwitch.get();
    }

    /** How long a function trusts what it read of the kill switch and the opt-out list. */
    public Duration controlCache() {
        return SWITCH_CACHE;
    }

    /** The one opt-out list the fetcher reads, and the API changes. */
    public OptOutList optOuts() {
        return optOuts.get();
    }

    /** The clients' quotas on URLs a day. */
    public Quotas quotas() {
        return quotas.get();
    }

    /** Who may call the operator routes (ADR 10). */
    public Admins admins() {
        return admins.get();
    }

    /** How long a manifest or upload may wait for its S3 event before the sweep plans it itself. */
    public Duration unplannedAfter() {
        return config.get(ConfigKeys.SWEEP_UNPLANNED_AFTER);
    }

    public AwsClients aws() {
        return aws.get();
    }

    private Vertx vertx() {
        return vertx;
    }

    private UrlNormalizer normalizer() {
        return normalizer.get();
    }

    private UnaryOperator<BlobStore> blobDecorator() {
        return blobDecorator;
    }

    private BlobStore blobs() {
        return blobs.get();
    }

    private DynamoDbBatchStore batches() {
        return batches.get();
    }

    /** The four batch ports, for the two use cases that plan a batch's URLs. */
    private BatchStores batchStores() {
        return BatchStores.of(batches(), batchOrigins.get());
    }

    private PendingPlans pendingPlans() {
        return pendingPlans.get();
    }

    private UrlStore urls() {
        return urls.get();
    }

    private LinkStore links() {
        return links.get();
    }

    private ChangeNotices changeNotices() {
        return changeNotices.get();
    }

    private NotifyQueue notifyQueue() {
        return notifyQueue.get();
    }

    private EventSink events() {
        return events.get();
    }

    private BatchTracker tracker() {
        return tracker.get();
    }

    private PlanQueue planQueue() {
        return planQueue.get();
    }

    private ItemPlanner planner() {
        return planner.get();
    }

    private CallbackPolicy callbacks() {
        return callbacks.get();
    }

    private Supplier<Clients> clients() {
        return clients.get();
    }

    private VertxWebhookSender webhooks() {
        return webhooks.get();
    }

    private AwsClients buildAws() {
        Optional<String> keyId = config.get(ConfigKeys.AWS_ACCESS_KEY_ID);
        Optional<String> secretKey = config.get(ConfigKeys.AWS_SECRET_ACCESS_KEY);
        if (keyId.isPresent() != secretKey.isPresent()) {
            throw new IllegalArgumentException(ConfigKeys.AWS_ACCESS_KEY_ID.name() + " and "
                    + ConfigKeys.AWS_SECRET_ACCESS_KEY.name() + " go together; set both or neither");
        }
        Optional<AwsClients.StaticCredentials> credentials = keyId.map(id ->
                new AwsClients.StaticCredentials(id, secretKey.orElseThrow()));
        return closing(AwsClients.create(config.get(ConfigKeys.AWS_REGION), credentials, this::endpoint,
                interceptors));
    }

    private Optional<URI> endpoint(AwsService service) {
        ConfigKey<Optional<URI>> key = switch (service) {
            case SQS -> ConfigKeys.AWS_ENDPOINT_SQS;
            case DYNAMODB -> ConfigKeys.AWS_ENDPOINT_DYNAMODB;
            case S3 -> ConfigKeys.AWS_ENDPOINT_S3;
            case SECRETS_MANAGER -> ConfigKeys.AWS_ENDPOINT_SECRETSMANAGER;
        };
        return config.get(key);
    }

    private Frontier buildFrontier() {
        return new Frontier(new DynamoDbFrontierStore(aws().dynamoDb(), config.get(ConfigKeys.TABLES_SITES)),
                fetchQueue.get(), clock, new Frontier.Settings(config.get(ConfigKeys.FRONTIER_DEPTH_CAP),
                        config.get(ConfigKeys.FRONTIER_SPACING), config.get(ConfigKeys.FRONTIER_LOST_AFTER))
                        .withLanes(lanes.get()),
                fetchSwitch());
    }

    private CallbackPolicy buildCallbacks() {
        return new CallbackPolicy(new CallbackPolicy.Settings(config.get(ConfigKeys.NOTIFY_ALLOWED_HOSTS),
                config.get(ConfigKeys.NOTIFY_ALLOW_HTTP)), addressPolicy(), CheckedAddress::resolve);
    }

    private AddressPolicy addressPolicy() {
        return config.get(ConfigKeys.FETCH_ALLOW_LOOPBACK) ? AddressPolicy.allowingLoopback() : AddressPolicy.strict();
    }

    /**
     * The clients file's text, from a Secrets Manager secret on AWS or a file locally, re-read after the cache time,
     * so a rotation needs no redeploy.
     */
    private Supplier<Clients> buildClients() {
        Optional<String> file = config.get(ConfigKeys.AUTH_CLIENTS_FILE);
        Optional<String> secret = config.get(ConfigKeys.AUTH_CLIENTS_SECRET);
        Duration cache = config.get(ConfigKeys.AUTH_CLIENTS_CACHE);
        if (file.isPresent() && secret.isPresent()) {
            throw new IllegalArgumentException(ConfigKeys.AUTH_CLIENTS_FILE.name() + " and "
                    + ConfigKeys.AUTH_CLIENTS_SECRET.name() + " are both set; set one");
        }
        if (file.isEmpty() && secret.isEmpty()) {
            return Clients::none;
        }
        return new Refreshing<>(text(ConfigKeys.AUTH_CLIENTS_FILE, file, secret), Clients::parse, "the clients",
                cache, clock);
    }

    /**
     * The text of a value kept in a Secrets Manager secret ({@code secret}, its ARN) or else a file ({@code file}, the
     * value of {@code fileKey}), read anew at each call: the callers check that one of the two is set.
     */
    private Supplier<String> text(ConfigKey<?> fileKey, Optional<String> file, Optional<String> secret) {
        if (secret.isPresent()) {
            return new SecretsManagerText(aws().secretsManager(), secret.get());
        }
        Path path = Path.of(file.orElseThrow());
        return () -> read(fileKey, path);
    }

    private ApiAuth buildApiAuth() {
        return switch (config.get(ConfigKeys.AUTH_MODE)) {
            case TOKEN_FILE -> new TokenFileAuth(clients());
            case GATEWAY -> new GatewayAuth(config.get(ConfigKeys.AUTH_CLIENT_CLAIM));
        };
    }

    private Admins buildAdmins() {
        return switch (config.get(ConfigKeys.AUTH_MODE)) {
            case TOKEN_FILE -> Admins.tokenFile(clients());
            case GATEWAY -> Admins.gateway(clients(), config.get(ConfigKeys.AUTH_GROUPS_CLAIM),
                    config.get(ConfigKeys.AUTH_ADMIN_GROUPS), config.get(ConfigKeys.AUTH_ADMIN_ROLES));
        };
    }

    private CanonicalLink.Scope canonicalScope() {
        return switch (config.get(ConfigKeys.EXTRACT_CANONICAL_SCOPE)) {
            case SAME_SITE -> CanonicalLink.Scope.SAME_SITE;
            case ANY_SITE -> CanonicalLink.Scope.ANY_SITE;
        };
    }

    private VertxPageFetcher buildFetcher() {
        return closing(new VertxPageFetcher(vertx, VertxPageFetcher.Settings.builder()
                .userAgent(config.get(ConfigKeys.FETCH_USER_AGENT))
                .connectTimeout(config.get(ConfigKeys.FETCH_CONNECT_TIMEOUT))
                .firstByteTimeout(config.get(ConfigKeys.FETCH_FIRST_BYTE_TIMEOUT))
                .totalTimeout(config.get(ConfigKeys.FETCH_TOTAL_TIMEOUT))
                .maxBodyBytes(config.get(ConfigKeys.FETCH_MAX_BODY_BYTES))
                .allowLoopback(config.get(ConfigKeys.FETCH_ALLOW_LOOPBACK))
                .signer(signing.get().map(Signing::signer))
                // An invocation may fetch a site's groups side by side, and the local stack shares one fetcher.
                .connectionsPerHost(limiterSettings().admission().maxInFlightCap()).build(), CheckedAddress::resolve,
                clock));
    }

    /**
     * The agent token of robots.txt, which is also the name pages' X-Robots-Tag and meta tags address Spiderling by;
     * checked and lower-cased as the robots policy does.
     */
    private String robotsAgent() {
        return RobotsPolicy.Settings.DEFAULTS.withAgent(config.get(ConfigKeys.FETCH_ROBOTS_AGENT)).agent();
    }

    /** The robots.txt policy as the fetcher applies it; the status reports use the same. */
    private RobotsPolicy robotsPolicy() {
        RobotsPolicy.Settings robotsDefaults = RobotsPolicy.Settings.DEFAULTS
                .withAgent(config.get(ConfigKeys.FETCH_ROBOTS_AGENT));
        return RobotsPolicy.create(RobotsPolicy.Settings.builder().agent(robotsDefaults.agent())
                .maxBodyBytes(robotsDefaults.maxBodyBytes()).maxStoredBytes(robotsDefaults.maxStoredBytes())
                .maxRedirects(robotsDefaults.maxRedirects()).minFreshness(robotsDefaults.minFreshness())
                .maxFreshness(robotsDefaults.maxFreshness()).ttl(robotsDefaults.ttl())
                .backoffBase(config.get(ConfigKeys.FETCH_ROBOTS_RETRY_BASE)).backoffCap(robotsDefaults.backoffCap())
                .unreachableAfter(robotsDefaults.unreachableAfter()).crawlDelayCap(robotsDefaults.crawlDelayCap())
                .build());
    }

    /** The rate limiter as the fetcher applies it; the status reports use the same. */
    private RateLimiter rateLimiter() {
        return RateLimiter.create(limiterSettings().withDefaultPause(config.get(ConfigKeys.FETCH_THROTTLE_PAUSE)));
    }

    /** The limiter's places in flight, on which a site's lanes depend as well as its slots. */
    private RateLimiter.Settings limiterSettings() {
        return RateLimiter.Settings.DEFAULTS.withMaxInFlightCap(config.get(ConfigKeys.FETCH_MAX_IN_FLIGHT_PER_SITE));
    }

    private BatchWaiting buildWaiting() {
        String sites = config.get(ConfigKeys.TABLES_SITES);
        return new BatchWaiting(new BatchWaiting.Stores(batchOrigins.get(),
                new DynamoDbFrontierStore(aws().dynamoDb(), sites), rateStore(), robotsStore(), fetchSwitch()),
                new WaitingReasons(robotsPolicy(), rateLimiter()), clock);
    }

    private FetchPage buildFetchPage() {
        RetryPolicy.Settings retries = RetryPolicy.Settings.DEFAULTS
                .withBackoffBase(config.get(ConfigKeys.FETCH_RETRY_BASE));
        SitePoliteness politeness = SitePoliteness.builder().robots(robotsPolicy())
                .robotsStore(robotsStore()).limiter(rateLimiter()).rates(rateStore()).overrides(overrides.get())
                .fetcher(fetcher.get()).normalizer(normalizer()).clock(clock).pause(Pipeline::sleepUntil)
                .jitter(jitter).build();
        ExtractContent extractContent = extract();
        ExpandSitemap.Settings sitemaps = sitemapSettings();
        EventSink sink = events();
        FetchPage.Listener listener = new FetchPage.Listener() {
            @Override
            public void reused(NormalizedUrl url, byte[] body, String contentType, String sha256, Instant at,
                    boolean markdown) {
                extractContent.extract(url, body, contentType, sha256, at, markdown);
            }

            @Override
            public void markdownWanted(FetchRecord record) {
                extractContent.ensureMarkdown(record);
            }

            @Override
            public void fetched(FetchRecord record, List<String> batchIds) {
                sink.publish(UrlFetchedEvent.TYPE, UrlFetchedEvent.id(record),
                        UrlFetchedEvent.toJson(record, batchIds));
            }

            /**
             * The attempt that recorded a fetch may have died before its extraction told of a change (a body it
             * extracted inline, whose object-created event never comes): extracting it again is idempotent, and
             * repeats the {@code url.changed} under its id.
             */
            @Override
            public void recordedBefore(FetchRecord record) {
                if (record.state() != ItemState.FETCHED || record.contentKey().isEmpty()
                        || record.contentSha256().isEmpty() || record.contentType().isEmpty()) {
                    return;
                }
                blobs().get(record.contentKey().get()).ifPresent(blob -> extractContent.extract(
                        NormalizedUrl.parse(record.url()), blob.bytes(), record.contentType().get(),
                        record.contentSha256().get(), record.fetchedAt()));
            }
        };
        return FetchPage.builder().fetcher(fetcher.get()).blobs(blobs()).urls(urls()).tracker(tracker())
                .frontier(frontier()).politeness(politeness).retry(RetryPolicy.create(retries))
                .fetchSwitch(fetchSwitch()).optOut(optOuts()).normalizer(normalizer()).clock(clock)
                .jitter(jitter)
                .settings(FetchPage.Settings.DEFAULTS
                        .withMaxRedirects(config.get(ConfigKeys.FETCH_MAX_REDIRECTS))
                        // The site's groups already overlap its requests (SqsFetchQueue): one lane per group.
                        .withLanesPerSite(1)
                        .withLanes(lanes.get())
                        .withCapture(config.get(ConfigKeys.CAPTURE_ENABLED)))
                .listener(listener)
                .sitemaps(sitemapReader(new ExpandSitemap(planning.get(), normalizer(), planQueue(), sitemaps),
                        new ReadRobotsTxt(planning.get(), normalizer(), sitemaps.expander().maxSitemapsPerIndex(),
                                sitemaps.maxSitemapsPerBatch())))
                .wake(new SqsWakeQueue(aws().sqs(), config.get(ConfigKeys.QUEUES_WAKE), clock))
                .notices(changeNotices())
                .build();
    }

    /** The limits of sitemaps (ADR 19). */
    private ExpandSitemap.Settings sitemapSettings() {
        SitemapExpander.Settings files = SitemapExpander.Settings.builder()
                .maxBytes(config.get(ConfigKeys.SITEMAPS_MAX_BYTES))
                .maxUrlsPerSitemap(config.get(ConfigKeys.SITEMAPS_MAX_URLS_PER_SITEMAP))
                .maxIndexDepth(config.get(ConfigKeys.SITEMAPS_MAX_INDEX_DEPTH))
                .maxSitemapsPerIndex(config.get(ConfigKeys.SITEMAPS_MAX_PER_INDEX)).build();
        return new ExpandSitemap.Settings(files, config.get(ConfigKeys.SITEMAPS_MAX_URLS_PER_BATCH),
                config.get(ConfigKeys.SITEMAPS_MAX_PER_BATCH));
    }

    /**
     * The fetch stage's sitemap reader: the planning side's {@link ExpandSitemap}, or {@link ReadRobotsTxt} for a
     * site's robots.txt, here, where the two stages meet, so that neither knows the other. The sitemap's location is
     * the URL that answered it.
     */
    private static SitemapReader sitemapReader(ExpandSitemap expand, ReadRobotsTxt robots) {
        return new SitemapReader() {
            @Override
            public int maxBodyBytes() {
                return expand.maxBodyBytes();
            }

            @Override
            public Answer read(FetchJob job, FetchJob at, FetchResult.Response response) {
                SitemapTask task = job.hop().sitemap().orElseThrow();
                ExpandSitemap.Read read = task.robotsTxt()
                        ? robots.read(job.batchId(), job.itemUrl(), at.request().value(), response.status(),
                                response.body(), response.contentType())
                        : expand.read(job.batchId(), job.itemUrl(), at.request().value(), task, response.body(),
                                response.contentType());
                return switch (read) {
                    case ExpandSitemap.Read.Ended ended -> new Ending(ended.reason(), ended.detail());
                    case ExpandSitemap.Read.Planning planning -> new Planning(planning.detail());
                };
            }
        };
    }

    private NotifyBatch buildNotifyBatch() {
        Supplier<Clients> webhookClients = clients();
        return NotifyBatch.builder().batches(batches()).queue(notifyQueue()).sender(webhooks())
                .secrets(client -> webhookClients.get().webhookSecret(client)).callbacks(callbacks())
                .delivery(DeliveryPolicy.create()).clock(clock).jitter(jitter).build();
    }

    /** A file a key names, read whole; an unreadable one stops the function with the key's name. */
    private static String read(ConfigKey<?> key, Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(key.name() + ": cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void sleepUntil(Instant when) {
        long millis = Duration.between(Instant.now(), when).toMillis();
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a rate slot", e);
            }
        }
    }

    private <T extends AutoCloseable> T closing(T closeable) {
        synchronized (closeables) {
            closeables.add(closeable);
        }
        return closeable;
    }

    /** Closes what was built, last built first (the AWS clients after the stores that use them). */
    @Override
    public void close() {
        List<AutoCloseable> built;
        synchronized (closeables) {
            built = new ArrayList<>(closeables);
            closeables.clear();
        }
        RuntimeException failure = null;
        for (int i = built.size() - 1; i >= 0; i--) {
            try {
                built.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing the pipeline failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static <T> Lazy<T> lazy(Supplier<T> build) {
        return new Lazy<>(build);
    }

    /**
     * A part built on first use, once, even when several threads ask at once (the local runner's pollers share one
     * pipeline).
     */
    private static final class Lazy<T> {
        private final Supplier<T> build;
        private volatile T value;

        Lazy(Supplier<T> build) {
            this.build = build;
        }

        T get() {
            T v = value;
            if (v == null) {
                synchronized (this) {
                    v = value;
                    if (v == null) {
                        v = Objects.requireNonNull(build.get());
                        value = v;
                    }
                }
            }
            return v;
        }
    }
}
