package io.spiderling.lambda;

import io.spiderling.aws.AwsClients;
import io.spiderling.aws.DynamoDbLinkStore;
import io.spiderling.aws.SqsEventSink;
import io.spiderling.aws.SqsNotifyQueue;
import io.spiderling.core.auth.Clients;
import io.spiderling.core.extract.CanonicalLink;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.net.AddressPolicy;
import io.spiderling.core.notify.CallbackPolicy;
import io.spiderling.core.notify.DeliveryPolicy;
import io.spiderling.core.notify.UrlFetchedEvent;
import io.spiderling.core.pipeline.EmitCompletion;
import io.spiderling.core.pipeline.NotifyBatch;
import io.spiderling.core.pipeline.UpdateFields;
import io.spiderling.core.port.EventSink;
import io.spiderling.core.port.LinkStore;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.lambda.api.ApiAuth;
import io.spiderling.lambda.api.GatewayAuth;
import io.spiderling.lambda.api.TokenFileAuth;
import io.spiderling.lambda.notify.VertxWebhookSender;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.aws.DynamoDbFetchSwitch;
import io.spiderling.aws.DynamoDbFrontierStore;
import io.spiderling.aws.DynamoDbRateStore;
import io.spiderling.aws.DynamoDbRobotsStore;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.aws.S3BlobStore;
import io.spiderling.aws.SqsFetchQueue;
import io.spiderling.aws.SqsPlanQueue;
import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.pipeline.CancelBatch;
import io.spiderling.core.pipeline.Canonicalize;
import io.spiderling.core.pipeline.ExtractContent;
import io.spiderling.core.pipeline.FetchPage;
import io.spiderling.core.pipeline.Ingest;
import io.spiderling.core.pipeline.PlanUpload;
import io.spiderling.core.pipeline.Queries;
import io.spiderling.core.pipeline.SitePoliteness;
import io.spiderling.core.politeness.RateLimiter;
import io.spiderling.core.politeness.RateOverrides;
import io.spiderling.core.politeness.RetryPolicy;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.url.SiteKey;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.url.UrlNormalizer;
import io.spiderling.lambda.fetch.VertxPageFetcher;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.stream.Collectors;
import java.util.function.UnaryOperator;

/**
 * The composition root: adapters and use cases built from {@link PipelineSettings}. One place assembles them, for the
 * Lambda functions (through CDI) and for the local runner alike, so both run the same objects.
 */
public final class Pipeline implements AutoCloseable {

    private final AwsClients clients;
    private final VertxPageFetcher fetcher;
    private final Ingest ingest;
    private final Canonicalize canonicalize;
    private final PlanUpload planUpload;
    private final FetchPage fetchPage;
    private final ExtractContent extract;
    private final Queries queries;
    private final CancelBatch cancel;
    private final Frontier frontier;
    private final DynamoDbFetchSwitch fetchSwitch;
    private final UpdateFields updateFields;
    private final NotifyBatch notifyBatch;
    private final ApiAuth apiAuth;
    private final VertxWebhookSender webhooks;
    /** How long a function trusts the kill switch it read. */
    private static final Duration SWITCH_CACHE = Duration.ofSeconds(5);

    private Pipeline(PipelineSettings settings, AwsClients clients, VertxPageFetcher fetcher,
            VertxWebhookSender webhooks, UnaryOperator<BlobStore> blobDecorator, Clock clock) {
        this.clients = clients;
        this.fetcher = fetcher;
        this.webhooks = webhooks;
        var r = settings.resources();
        UrlNormalizer normalizer = UrlNormalizer.create();
        BlobStore blobs = blobDecorator.apply(new S3BlobStore(clients.s3(), clients.s3Presigner(), r.bucket()));
        var batches = new DynamoDbBatchStore(clients.dynamoDb(), r.batchesTable());
        var urls = new DynamoDbUrlStore(clients.dynamoDb(), r.urlsTable());
        var queue = new SqsFetchQueue(clients.sqs(), r.fetchQueueUrl());
        var fetchSwitch = new DynamoDbFetchSwitch(clients.dynamoDb(), r.sitesTable(), clock, SWITCH_CACHE);
        this.fetchSwitch = fetchSwitch;
        this.frontier = new Frontier(new DynamoDbFrontierStore(clients.dynamoDb(), r.sitesTable()), queue, clock,
                settings.frontier(), fetchSwitch);
        var f = settings.fetch();
        DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();
        SitePoliteness politeness = new SitePoliteness(
                RobotsPolicy.create(robotsSettings(f)),
                new DynamoDbRobotsStore(clients.dynamoDb(), r.sitesTable()), RateLimiter.create(rateSettings(f)),
                new DynamoDbRateStore(clients.dynamoDb(), r.sitesTable(), clock),
                f.rateOverrides().isBlank() ? RateOverrides.none() : RateOverrides.parse(f.rateOverrides()),
                fetcher, clock, Pipeline::sleepUntil, jitter);
        var serving = settings.serving();
        Clients clientsFile = serving.clients().isBlank() ? Clients.none() : Clients.parse(serving.clients());
        this.apiAuth = switch (serving.authMode()) {
            case "token-file" -> new TokenFileAuth(clientsFile);
            case "gateway" -> new GatewayAuth(serving.clientClaim());
            default -> throw new IllegalArgumentException(
                    "spiderling.auth.mode must be token-file or gateway, was " + serving.authMode());
        };
        CallbackPolicy callbacks = new CallbackPolicy(new CallbackPolicy.Settings(serving.callbackHosts(),
                serving.callbackHttp()), f.allowLoopback() ? AddressPolicy.allowingLoopback() : AddressPolicy.strict(),
                Pipeline::resolve);
        NotifyQueue notifyQueue = new SqsNotifyQueue(clients.sqs(), r.notifyQueueUrl());
        EventSink events = r.eventsQueueUrl().isBlank() ? EventSink.NONE
                : new SqsEventSink(clients.sqs(), r.eventsQueueUrl());
        BatchTracker tracker = new BatchTracker(batches, new EmitCompletion(notifyQueue, events));
        LinkStore links = new DynamoDbLinkStore(clients.dynamoDb(), r.linksTable());
        this.ingest = new Ingest(normalizer, batches, blobs, clock, settings.uploads().urlTtl(),
                Optional.of(callbacks), Optional.of(notifyQueue));
        this.planUpload = new PlanUpload(normalizer, blobs, batches, urls, frontier,
                new SqsPlanQueue(clients.sqs(), r.planQueueUrl()), clock,
                new PlanUpload.Settings(settings.uploads().chunkBytes()), tracker);
        this.cancel = new CancelBatch(batches, clock, tracker);
        this.canonicalize = new Canonicalize(blobs, batches, urls, frontier, clock, tracker);
        this.extract = new ExtractContent(blobs, urls, links, HtmlExtractor.create(),
                new CanonicalLink(normalizer, serving.canonicalScope()), clock,
                new ExtractContent.Settings(serving.indexLinks()));
        FetchPage.Listener listener = new FetchPage.Listener() {
            @Override
            public void reused(NormalizedUrl url, byte[] body, String contentType, String sha256, Instant at) {
                extract.reused(url, body, contentType, sha256, at);
            }

            @Override
            public void fetched(FetchRecord record, List<String> batchIds) {
                events.publish(UrlFetchedEvent.TYPE, UrlFetchedEvent.id(record),
                        UrlFetchedEvent.toJson(record, batchIds));
            }
        };
        this.fetchPage = new FetchPage(fetcher, blobs, urls, tracker, frontier, politeness,
                RetryPolicy.create(retrySettings(f)), fetchSwitch, normalizer, clock, jitter, new FetchPage.Settings(
                        f.optOut().stream().map(SiteKey::new).collect(Collectors.toSet()), f.maxRedirects(),
                        FetchPage.Settings.DEFAULTS.pausedRecheck(), FetchPage.Settings.DEFAULTS.freshMin(),
                        FetchPage.Settings.DEFAULTS.freshMax()), listener);
        this.queries = new Queries(normalizer, batches, urls, blobs,
                serving.indexLinks() ? Optional.of(links) : Optional.empty());
        this.updateFields = new UpdateFields(normalizer, urls);
        this.notifyBatch = new NotifyBatch(batches, notifyQueue, webhooks, clientsFile::webhookSecret, callbacks,
                DeliveryPolicy.create(), clock, jitter);
    }

    /** Every address of a host; none when the name does not resolve (the callback policy says so). */
    private static List<InetAddress> resolve(String host) {
        try {
            return Arrays.asList(InetAddress.getAllByName(host));
        } catch (UnknownHostException e) {
            return List.of();
        }
    }

    public static Pipeline create(PipelineSettings settings, Vertx vertx, Clock clock) {
        return create(settings, vertx, UnaryOperator.identity(), clock);
    }

    /**
     * @param blobDecorator wraps the blob store; the local runner uses it to raise the object-created events that
     *     S3 raises on AWS
     */
    public static Pipeline create(PipelineSettings settings, Vertx vertx, UnaryOperator<BlobStore> blobDecorator,
            Clock clock) {
        return new Pipeline(settings, AwsClients.create(settings.aws()), new VertxPageFetcher(vertx, settings.fetch()),
                new VertxWebhookSender(vertx), blobDecorator, clock);
    }

    public Ingest ingest() {
        return ingest;
    }

    public Canonicalize canonicalize() {
        return canonicalize;
    }

    public PlanUpload planUpload() {
        return planUpload;
    }

    public FetchPage fetchPage() {
        return fetchPage;
    }

    public ExtractContent extract() {
        return extract;
    }

    public Queries queries() {
        return queries;
    }

    public CancelBatch cancel() {
        return cancel;
    }

    public Frontier frontier() {
        return frontier;
    }

    public UpdateFields updateFields() {
        return updateFields;
    }

    public NotifyBatch notifyBatch() {
        return notifyBatch;
    }

    public ApiAuth apiAuth() {
        return apiAuth;
    }

    private static RobotsPolicy.Settings robotsSettings(PipelineSettings.Fetch f) {
        var d = RobotsPolicy.Settings.DEFAULTS.withAgent(f.robotsAgent());
        return new RobotsPolicy.Settings(d.agent(), d.maxBodyBytes(), d.maxStoredBytes(), d.maxRedirects(),
                d.minFreshness(), d.maxFreshness(), d.ttl(), f.robotsRetryBase(), d.backoffCap(), d.unreachableAfter(),
                d.crawlDelayCap());
    }

    private static RateLimiter.Settings rateSettings(PipelineSettings.Fetch f) {
        var d = RateLimiter.Settings.DEFAULTS;
        return new RateLimiter.Settings(d.defaultInterval(), d.maxDelay(), d.maxInFlight(), d.lease(), d.maxInterval(),
                d.responseFactor(), d.smoothing(), d.recoverAfter(), f.throttlePause(), d.maxPause(), d.pauseJitter());
    }

    private static RetryPolicy.Settings retrySettings(PipelineSettings.Fetch f) {
        var d = RetryPolicy.Settings.DEFAULTS;
        return new RetryPolicy.Settings(d.maxAttempts(), d.maxThrottledAttempts(), f.retryBase(),
                d.backoffMultiplier(), d.maxBackoff(), d.maxRetryAfter(), d.retryAfterJitter());
    }

    /** The operators' kill switch. */
    public DynamoDbFetchSwitch fetchSwitch() {
        return fetchSwitch;
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

    public AwsClients clients() {
        return clients;
    }

    @Override
    public void close() {
        fetcher.close();
        webhooks.close();
        clients.close();
    }
}
