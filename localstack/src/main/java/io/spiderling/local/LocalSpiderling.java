package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import io.spiderling.core.content.ContentKey;
import io.spiderling.core.pipeline.Ingest;
import io.spiderling.core.pipeline.PlanUpload;
import io.spiderling.lambda.plan.PlanHandler;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.PipelineSettings;
import io.spiderling.lambda.api.ApiHandler;
import io.spiderling.lambda.canonicalize.CanonicalizeHandler;
import io.spiderling.lambda.config.Beans;
import io.spiderling.lambda.config.SpiderlingConfig;
import io.spiderling.lambda.extract.ExtractHandler;
import io.spiderling.lambda.fetch.FetchDeadLetterHandler;
import io.spiderling.lambda.fetch.FetchHandler;
import io.spiderling.lambda.ingest.IngestHttpHandler;
import io.spiderling.lambda.ingest.IngestQueueHandler;
import io.spiderling.lambda.notify.NotifyDeadLetterHandler;
import io.spiderling.lambda.notify.NotifyHandler;
import io.spiderling.lambda.internal.HttpJson;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.StackResources;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The whole pipeline in one JVM on the embedded AWS stack. The same handler classes that run on Lambda are wired to
 * a local event-source loop:
 *
 * <ul>
 *   <li>SQS → handler with Lambda's batch semantics (ingest queue, FIFO fetch queue);</li>
 *   <li>S3 ObjectCreated → canonicalize ({@code manifests/}) or extract ({@code content/}), retried like an
 *       asynchronous invocation;</li>
 *   <li>HTTP on 127.0.0.1 → ingest ({@code POST /batches}) or the read API;</li>
 *   <li>a one-second timer → the frontier sweep (an EventBridge schedule on AWS).</li>
 * </ul>
 */
public final class LocalSpiderling implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LocalSpiderling.class.getName());
    private static final int S3_EVENT_ATTEMPTS = 3;

    /**
     * @param apiPort the local HTTP API's port; 0 picks a free one
     * @param fetchPollers concurrent fetch "invocations"; FIFO groups still keep one site's messages in order
     * @param config configuration keys set over the functions' own (application.properties), as a deployment's
     *     environment would
     * @param sweepEvery how often the frontier sweep runs (EventBridge's schedule on AWS is a minute; locally a
     *     second, so a demo does not wait)
     */
    public record Options(int apiPort, int fetchPollers, Clock clock, Map<String, String> config,
            Duration sweepEvery) {
        /**
         * Concurrent fetch "invocations". A fetcher waits up to a second for its site's slot, so with fewer pollers
         * than active sites the sites wait for each other; on AWS, Lambda runs about one invocation per message
         * group. They mostly sleep, so six cost little even on two cores.
         */
        public static final int DEFAULT_FETCH_POLLERS = 6;

        public Options {
            config = Map.copyOf(config);
        }

        public Options(int apiPort, int fetchPollers, Clock clock) {
            this(apiPort, fetchPollers, clock, Map.of(), Duration.ofSeconds(1));
        }

        public Options withSweepEvery(Duration every) {
            return new Options(apiPort, fetchPollers, clock, config, every);
        }

        public static Options defaults() {
            return new Options(0, DEFAULT_FETCH_POLLERS, Clock.systemUTC());
        }

        public Options withConfig(String key, String value) {
            Map<String, String> more = new java.util.HashMap<>(config);
            more.put(key, value);
            return new Options(apiPort, fetchPollers, clock, more, sweepEvery);
        }
    }

    /** The configuration key of the clients file (tokens and webhook secrets). */
    public static final String CLIENTS_FILE = "spiderling.auth.clients-file";

    private final StackResources resources;
    private final Optional<LocalClient> localClient;
    private final PipelineSettings settings;
    private final Vertx vertx = Vertx.vertx();
    private final Pipeline pipeline;
    private final IngestHttpHandler ingest;
    private final ApiHandler api;
    private final CanonicalizeHandler canonicalize;
    private final ExtractHandler extract;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> pollers = new ArrayList<>();
    private final ExecutorService s3Events = Executors.newFixedThreadPool(2, Thread.ofPlatform().name("s3-events-", 0)
            .daemon().factory());
    private final Object s3Lock = new Object();
    private int s3InFlight;
    private final LocalApiServer apiServer;
    private final UploadWatcher uploads;
    /** Chunks of uploaded manifests planned at once, as concurrent plan invocations would. */
    private static final int PLAN_POLLERS = 2;
    /** Two threads: the sweep and the upload watch, so a long sweep does not hold up an upload's event. */
    private final ScheduledExecutorService sweeper = Executors.newScheduledThreadPool(2,
            Thread.ofPlatform().name("scheduled-", 0).daemon().factory());

    private LocalSpiderling(EmbeddedAws aws, StackResources resources, Options options) {
        this.resources = resources;
        Map<String, String> config = new java.util.HashMap<>(options.config());
        if (!config.containsKey(CLIENTS_FILE)) {
            this.localClient = Optional.of(LocalClient.create());
            config.put(CLIENTS_FILE, localClient.get().file().toString());
        } else {
            this.localClient = Optional.empty();
        }
        this.settings = settings(aws, resources, config);
        this.pipeline = Pipeline.create(settings, vertx,
                blobs -> new NotifyingBlobStore(blobs, this::objectCreated), options.clock());
        this.ingest = new IngestHttpHandler(pipeline.ingest(), pipeline.apiAuth());
        this.api = new ApiHandler(pipeline.queries(), pipeline.cancel(), pipeline.updateFields(), pipeline.apiAuth(),
                options.clock());
        this.canonicalize = new CanonicalizeHandler(pipeline.canonicalize(), pipeline.planUpload());
        this.extract = new ExtractHandler(pipeline.extract());
        FetchHandler fetch = new FetchHandler(pipeline.fetchPage(), settings.fetch().totalTimeout());
        FetchDeadLetterHandler deadLetters = new FetchDeadLetterHandler(pipeline.fetchPage());
        IngestQueueHandler ingestQueue = new IngestQueueHandler(pipeline.ingest());
        var sqs = pipeline.clients().sqs();
        startPoller("ingest-queue", new SqsPoller(sqs, resources.ingestQueueUrl(),
                e -> ingestQueue.handleRequest(e, null), running));
        for (int i = 0; i < options.fetchPollers(); i++) {
            startPoller("fetch-" + i, new SqsPoller(sqs, resources.fetchQueueUrl(),
                    e -> fetch.handleRequest(e, null), running));
        }
        startPoller("fetch-dlq", new SqsPoller(sqs, resources.fetchDlqUrl(), e -> deadLetters.handleRequest(e, null),
                running));
        PlanHandler plan = new PlanHandler(pipeline.planUpload());
        for (int i = 0; i < PLAN_POLLERS; i++) {
            // Batch size 1, as the plan function's event source mapping: a chunk can take minutes.
            startPoller("plan-" + i, new SqsPoller(sqs, resources.planQueueUrl(), e -> plan.handleRequest(e, null),
                    running, 1));
        }
        NotifyHandler notify = new NotifyHandler(pipeline.notifyBatch());
        startPoller("notify", new SqsPoller(sqs, resources.notifyQueueUrl(), e -> notify.handleRequest(e, null),
                running));
        NotifyDeadLetterHandler notifyDeadLetters = new NotifyDeadLetterHandler(pipeline.notifyBatch());
        startPoller("notify-dlq", new SqsPoller(sqs, resources.notifyDlqUrl(),
                e -> notifyDeadLetters.handleRequest(e, null), running));
        this.uploads = new UploadWatcher(pipeline.clients().s3(), resources.bucket(), this::objectCreated);
        this.apiServer = new LocalApiServer(options.apiPort(), this::http);
        // EventBridge's schedule, locally; and S3's notifications for uploads, which s3proxy does not raise.
        long sweepMillis = options.sweepEvery().toMillis();
        sweeper.scheduleWithFixedDelay(this::sweep, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
        sweeper.scheduleWithFixedDelay(this::watchUploads, 1, 1, TimeUnit.SECONDS);
    }

    public static LocalSpiderling start(EmbeddedAws aws, StackResources resources, Options options) {
        return new LocalSpiderling(aws, resources, options);
    }

    /**
     * The functions' own configuration (application.properties, then environment and system properties), with the
     * embedded stack's endpoints and resource names on top.
     */
    static PipelineSettings settings(EmbeddedAws aws, StackResources r) {
        return settings(aws, r, Map.of());
    }

    static PipelineSettings settings(EmbeddedAws aws, StackResources r, Map<String, String> overrides) {
        Map<String, String> local = new java.util.HashMap<>(aws.functionConfig(r));
        // The local sites live on 127.0.0.x; the SSRF guard still refuses every other private range.
        local.put("spiderling.fetch.allow-loopback", "true");
        // Bearer tokens from a clients file, and webhooks to local receivers over plain http.
        local.put("spiderling.auth.mode", "token-file");
        local.put("spiderling.notify.allow-http", "true");
        URL properties = Beans.class.getClassLoader().getResource("application.properties");
        try {
            SmallRyeConfig config = new SmallRyeConfigBuilder()
                    .addDefaultSources()
                    .addDefaultInterceptors()
                    .withSources(new PropertiesConfigSource(properties, 250))
                    .withSources(new PropertiesConfigSource(local, "embedded-stack", 500))
                    .withSources(new PropertiesConfigSource(overrides, "runner-options", 600))
                    // Quarkus's own duration syntax ("5s"), so the properties file reads the same in both places.
                    .withConverter(Duration.class, 200, new DurationConverter())
                    .withMapping(SpiderlingConfig.class)
                    .build();
            return Beans.settings(config.getConfigMapping(SpiderlingConfig.class));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + properties, e);
        }
    }

    private void startPoller(String name, Runnable poller) {
        Thread thread = Thread.ofPlatform().name("poll-" + name).daemon().start(poller);
        pollers.add(thread);
    }

    /**
     * API Gateway's routing: POST /batches and POST /batches/uploads go to the ingest function, everything else to
     * the api function.
     */
    public APIGatewayV2HTTPResponse http(APIGatewayV2HTTPEvent event) {
        String path = HttpJson.path(event);
        if (("/batches".equals(path) || "/batches/uploads".equals(path)) && "POST".equals(HttpJson.method(event))) {
            return ingest.handleRequest(event, null);
        }
        return api.handleRequest(event, null);
    }

    private void objectCreated(String key, long size) {
        Consumer<S3Event> target;
        if (key.startsWith(Ingest.MANIFEST_PREFIX) || key.startsWith(PlanUpload.UPLOAD_PREFIX)) {
            target = e -> canonicalize.handleRequest(e, null);
        } else if (key.startsWith(ContentKey.PREFIX)) {
            target = e -> extract.handleRequest(e, null);
        } else {
            return;
        }
        S3Event event = LocalEvents.objectCreated(resources.bucket(), key, size, java.time.Instant.now());
        synchronized (s3Lock) {
            s3InFlight++;
        }
        s3Events.execute(() -> {
            try {
                deliver(key, event, target);
            } finally {
                synchronized (s3Lock) {
                    s3InFlight--;
                    s3Lock.notifyAll();
                }
            }
        });
    }

    /** Asynchronous invocations are retried twice on error; Lambda waits minutes, locally it is a second. */
    private static void deliver(String key, S3Event event, Consumer<S3Event> target) {
        for (int attempt = 1; attempt <= S3_EVENT_ATTEMPTS; attempt++) {
            try {
                target.accept(event);
                return;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "S3 event for " + key + " failed (attempt " + attempt + ")", e);
                try {
                    Thread.sleep(Duration.ofMillis(250L * attempt));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        LOG.log(System.Logger.Level.ERROR, "S3 event for " + key + " dropped after " + S3_EVENT_ATTEMPTS + " attempts");
    }

    /** Waits until every S3 notification raised so far has been handled. Returns false on timeout. */
    public boolean awaitS3Events(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (s3Lock) {
            while (s3InFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(s3Lock, left);
            }
        }
        return true;
    }

    private void sweep() {
        try {
            pipeline.frontier().sweep();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "frontier sweep failed; trying again at the next sweep", e);
        }
    }

    private void watchUploads() {
        try {
            uploads.poll();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "listing uploads failed; trying again in a second", e);
        }
    }

    public URI apiUri() {
        return apiServer.uri();
    }

    /** A request to the local API, as the runner's own client when it made one up. */
    public java.net.http.HttpRequest.Builder apiRequest(String pathAndQuery) {
        var builder = java.net.http.HttpRequest.newBuilder(apiUri().resolve(pathAndQuery));
        localClient.ifPresent(c -> builder.header("authorization", "Bearer " + c.token()));
        return builder;
    }

    /** The client the runner made up when no clients file was configured: its id, token and webhook secret. */
    public Optional<LocalClient> localClient() {
        return localClient;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    public PipelineSettings settings() {
        return settings;
    }

    public StackResources resources() {
        return resources;
    }

    @Override
    public void close() {
        running.set(false);
        sweeper.shutdownNow();
        apiServer.close();
        for (Thread poller : pollers) {
            try {
                poller.join(Duration.ofSeconds(3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        s3Events.shutdown();
        pipeline.close();
        vertx.close();
    }
}
