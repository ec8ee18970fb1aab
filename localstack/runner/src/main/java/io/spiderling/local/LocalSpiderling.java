package io.spiderling.local;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.spiderling.catalog.AuthMode;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Routes;
import io.spiderling.lambda.Handlers;
import io.spiderling.lambda.Pipeline;
import io.spiderling.lambda.config.FunctionConfig;
import io.spiderling.lambda.internal.HttpJson;
import io.spiderling.testkit.DataFolder;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.StackResources;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * The whole pipeline in one JVM on the embedded AWS stack. Every function of the {@link Catalog} runs its handler,
 * the same class that runs on Lambda, wired to a local loop for its event source:
 *
 * <ul>
 *   <li>a queue → pollers that hand batches to the handler with Lambda's batch semantics;</li>
 *   <li>S3 ObjectCreated on its prefixes → the handler on its own threads, retried like an asynchronous invocation
 *       ({@link S3Notifications});</li>
 *   <li>HTTP on 127.0.0.1 → the handler of the route the request matches in {@link Routes};</li>
 *   <li>a schedule → a timer (every second by default, so a demo does not wait for EventBridge's minute).</li>
 * </ul>
 *
 * Nothing here names a function: adding one to the catalog adds it to the local stack.
 *
 * <p>On a stack started on a {@link DataFolder} that held a stack before, the start first resumes the dead process's
 * fetch jobs ({@link LocalResume}), before any poller runs.
 */
public final class LocalSpiderling implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LocalSpiderling.class.getName());

    /**
     * @param apiPort the local HTTP API's port; 0 picks a free one
     * @param fetchConcurrency the most concurrent fetch invocations, as the fetch queue's mapping allows on Lambda
     *     (by default the catalog's maximum, {@link Catalog#DEFAULT_FETCH_CONCURRENCY}); each runs on a virtual
     *     thread of its own, and a FIFO queue hands out one batch per message group at a time, so the invocations
     *     follow the sites that have work; 0 runs no fetcher. Other queue functions get {@link #PLAN_POLLERS} (plan)
     *     or one poller, each running its batches itself
     * @param config configuration keys set over the functions' own (application.properties), as a deployment's
     *     environment would
     * @param sweepEvery how often scheduled functions run (EventBridge's schedule on AWS is a minute; locally a
     *     second, so a demo does not wait)
     * @param interceptors SDK interceptors on every AWS client of the stack ({@link Pipeline.Builder#interceptors}):
     *     how fault tests reach its calls; none by default
     * @param meter what a benchmark's meter sees of the run ({@link Meter}); {@link Meter#NONE} by default
     */
    public record Options(int apiPort, int fetchConcurrency, Clock clock, Map<String, String> config,
            Duration sweepEvery, List<ExecutionInterceptor> interceptors, Meter meter) {
        /**
         * Concurrent fetch invocations, as the deployed mapping allows. A fetcher waits up to a second for its site's
         * slot, so with fewer invocations than active sites the sites would wait for each other; on AWS, Lambda runs
         * about one invocation per message group. They mostly wait, on virtual threads, so fifty cost little even on
         * two cores.
         */
        public static final int DEFAULT_FETCH_CONCURRENCY = Catalog.DEFAULT_FETCH_CONCURRENCY;

        public Options {
            config = Map.copyOf(config);
            interceptors = List.copyOf(interceptors);
            Objects.requireNonNull(meter, "meter");
        }

        public Options(int apiPort, int fetchConcurrency, Clock clock) {
            this(apiPort, fetchConcurrency, clock, Map.of(), Duration.ofSeconds(1), List.of(), Meter.NONE);
        }

        public Options withSweepEvery(Duration every) {
            return new Options(apiPort, fetchConcurrency, clock, config, every, interceptors, meter);
        }

        public Options withInterceptors(List<ExecutionInterceptor> added) {
            return new Options(apiPort, fetchConcurrency, clock, config, sweepEvery, added, meter);
        }

        public Options withFetchConcurrency(int count) {
            return new Options(apiPort, count, clock, config, sweepEvery, interceptors, meter);
        }

        /** The run shown to {@code metering}: a benchmark's cost meter. */
        public Options withMetering(Meter metering) {
            return new Options(apiPort, fetchConcurrency, clock, config, sweepEvery, interceptors, metering);
        }

        public static Options defaults() {
            return new Options(0, DEFAULT_FETCH_CONCURRENCY, Clock.systemUTC());
        }

        public Options withConfig(String key, String value) {
            Map<String, String> more = new java.util.HashMap<>(config);
            more.put(key, value);
            return new Options(apiPort, fetchConcurrency, clock, more, sweepEvery, interceptors, meter);
        }
    }

    /** The configuration key of the clients file (tokens and webhook secrets). */
    public static final String CLIENTS_FILE = "spiderling.auth.clients-file";
    /** The made-up client's file in a data folder, reused by every run on it. */
    public static final String LOCAL_CLIENTS_FILE = "local-clients.txt";

    private final Optional<LocalResume.Resumed> resumed;

    private final StackResources resources;
    private final Optional<LocalClient> localClient;
    private final Vertx vertx = Vertx.vertx();
    private final Pipeline pipeline;
    /** The handler of each function with an HTTP source, by name. */
    private final Map<String, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> http = new HashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> pollers = new ArrayList<>();
    private final S3Notifications notifications;
    /** Who hears the events queue's messages ({@link #listen}); nobody by default. */
    private volatile Consumer<String> eventListener = body -> { };
    private final LocalApiServer apiServer;
    private final UploadWatcher uploads;
    /** Chunks of uploaded manifests planned at once, as concurrent plan invocations would. */
    static final int PLAN_POLLERS = 2;
    /**
     * Receivers of a mapping that dispatches ({@link SqsPoller#dispatching}): each waits for a free invocation, then
     * receives a batch and hands it over; two keep up with invocations that each take a good part of a second.
     */
    static final int RECEIVERS = 2;
    /**
     * The fetch receivers poll without waiting, and pause this long after a poll that brought less than a full batch.
     * A long poll of ElasticMQ's FIFO queue spins while it waits: it tries to answer again as soon as the earliest
     * message is due, and a message of a group in flight is due but cannot be handed out, so it tries every
     * millisecond, each time walking every group. A profile of {@code bench-fetch --urls 5000 --sites 50 --qps 10}
     * found 36 % of the JVM's samples there (docs/BENCHMARKS.md). On AWS the mapping long-polls; here a send to the
     * queue cuts the pause short ({@link Doorbell}), so a job sent to an idle queue is received at once.
     */
    static final Duration FIFO_RECEIVE_PAUSE = Duration.ofMillis(50);
    /** Rung by every send to the fetch queue: its receivers poll again at once rather than after their pause. */
    private final Doorbell fetchSent;
    /** What the functions call, recorded when the e2e suites ask ({@link CallRecorder}). */
    private final Optional<CallRecorder> recorder;
    private final Meter meter;
    /** The fetch invocations, a virtual thread each. */
    private final ExecutorService invocationThreads = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("invoke-fetch-", 0).factory());
    /** Scheduled functions and the upload watch, so a long sweep does not hold up an upload's event. */
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2,
            Thread.ofPlatform().name("scheduled-", 0).daemon().factory());

    private LocalSpiderling(EmbeddedAws aws, StackResources resources, Options given) {
        this.resources = resources;
        // The e2e suites record every function's calls for the least-privilege check (CallRecorder).
        this.recorder = CallRecorder.fromSystemProperties(resources);
        Options options = recorder.map(r -> given.withMetering(Meter.both(given.meter(), r))).orElse(given);
        this.meter = options.meter();
        Map<String, String> config = new HashMap<>(options.config());
        if (!config.containsKey(CLIENTS_FILE)) {
            this.localClient = Optional.of(aws.dataFolder()
                    .map(folder -> LocalClient.loadOrCreate(folder.file(LOCAL_CLIENTS_FILE)))
                    .orElseGet(LocalClient::create));
            config.put(CLIENTS_FILE, localClient.get().file().toString());
        } else {
            this.localClient = Optional.empty();
        }
        this.notifications = new S3Notifications(resources.bucket());
        this.fetchSent = new Doorbell(resources.fetchQueueUrl());
        this.pipeline = Pipeline.builder()
                .config(FunctionConfig.of(configuration(aws, resources, config)))
                .vertx(vertx)
                .clock(options.clock())
                .blobDecorator(blobs -> new NotifyingBlobStore(blobs, notifications::objectCreated, meter))
                // The sweep's CloudWatch metrics (log lines on Lambda) go nowhere locally; a meter counts log bytes.
                .metrics(meter.logStream())
                .interceptors(Stream.of(options.interceptors(), meter.interceptors(), List.of(fetchSent.onSends()))
                        .flatMap(List::stream).toList())
                .build();
        // Before any poller: the resumed jobs go out first, and nothing consumes the fetch queue while it is emptied.
        this.resumed = aws.dataFolder().filter(DataFolder::usedBefore)
                // The runner's own, as the rest of a resume after a kill: nothing of a deployment's.
                .map(folder -> meter.standIn(() -> LocalResume.resume(new LocalResume.Parts(pipeline.aws().sqs(),
                        resources.fetchQueueUrl(), pipeline.frontier(), pipeline.rateStore(),
                        pipeline.robotsStore()), options.clock().instant())));
        for (FunctionSpec function : Catalog.FUNCTIONS) {
            wire(function, options);
        }
        // In place of the deployment's listener, which nothing else is locally (see listen).
        startPoller("events-listener", meter.standIn(new SqsPoller(pipeline.aws().sqs(),
                resources.eventsQueueUrl(), this::hear, running).pausing(Duration.ofSeconds(1))));
        this.uploads = new UploadWatcher(pipeline.aws().s3(), resources.bucket(), notifications::objectCreated);
        this.apiServer = new LocalApiServer(options.apiPort(), this::http);
        // S3's notifications for uploads, which s3proxy does not raise.
        scheduler.scheduleWithFixedDelay(meter.standIn(this::watchUploads), 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Starts the local loop of the function's event source, as its catalog entry describes it. Each handler call is
     * metered as an invocation of the function; a poller's own receives and deletes as its event source's.
     */
    private void wire(FunctionSpec function, Options options) {
        Meter meter = options.meter();
        switch (function.source()) {
            case EventSource.QueueSource queue -> {
                RequestHandler<SQSEvent, SQSBatchResponse> handler =
                        meter.handler(function, handlerOf(function));
                SqsPoller poller = new SqsPoller(pipeline.aws().sqs(), resources.queueUrl(queue.queue()),
                        e -> handler.handleRequest(e, null), running, queue.batchSize());
                if (function.name().equals(FunctionNames.FETCH)) {
                    int concurrency = options.fetchConcurrency();
                    SqsPoller.Invocations invocations = new SqsPoller.Invocations(new Semaphore(concurrency),
                            task -> invocationThreads.execute(meter.eventSource(function, task)));
                    for (int i = 0; i < Math.min(concurrency, RECEIVERS); i++) {
                        startPoller(function.name() + "-" + i, meter.eventSource(function,
                                poller.pausing(FIFO_RECEIVE_PAUSE).wokenBy(fetchSent).dispatching(invocations)));
                    }
                    return;
                }
                int count = function.name().equals(FunctionNames.PLAN) ? PLAN_POLLERS : 1;
                for (int i = 0; i < count; i++) {
                    startPoller(function.name() + "-" + i, meter.eventSource(function, poller));
                }
            }
            case EventSource.ObjectCreated s3 -> {
                RequestHandler<S3Event, Object> handler =
                        meter.handler(function, handlerOf(function));
                notifications.subscribe(function.name(), s3.prefixes(), handler);
            }
            case EventSource.Http api -> http.put(function.name(),
                    meter.httpHandler(function, handlerOf(function)));
            case EventSource.Schedule schedule -> {
                RequestHandler<ScheduledEvent, Object> handler =
                        meter.handler(function, handlerOf(function));
                long every = options.sweepEvery().toMillis();
                scheduler.scheduleWithFixedDelay(() -> runScheduled(function.name(), handler), every, every,
                        TimeUnit.MILLISECONDS);
            }
        }
    }

    /** {@code function}'s handler, built as Lambda's init phase builds it: with the function's role. */
    private <I, O> RequestHandler<I, O> handlerOf(FunctionSpec function) {
        return meter.init(function, () -> Handlers.<I, O>create(function.name(), pipeline));
    }

    public static LocalSpiderling start(EmbeddedAws aws, StackResources resources, Options options) {
        LocalLogging.configure();
        return new LocalSpiderling(aws, resources, options);
    }

    /**
     * The functions' own configuration (application.properties, then environment and system properties), with the
     * embedded stack's endpoints and resource names on top, then the runner's options.
     */
    static SmallRyeConfig configuration(EmbeddedAws aws, StackResources r, Map<String, String> overrides) {
        Map<String, String> local = new HashMap<>(aws.functionConfig(r));
        // The local sites live on 127.0.0.x; the SSRF guard still refuses every other private range.
        local.put(ConfigKeys.FETCH_ALLOW_LOOPBACK.name(), "true");
        // Bearer tokens from a clients file, and webhooks to local receivers over plain http.
        local.put(ConfigKeys.AUTH_MODE.name(), AuthMode.TOKEN_FILE.wireName());
        local.put(ConfigKeys.NOTIFY_ALLOW_HTTP.name(), "true");
        URL properties = Pipeline.class.getClassLoader().getResource("application.properties");
        try {
            return new SmallRyeConfigBuilder()
                    .addDefaultSources()
                    .addDefaultInterceptors()
                    .withSources(new PropertiesConfigSource(properties, 250))
                    .withSources(new PropertiesConfigSource(local, "embedded-stack", 500))
                    .withSources(new PropertiesConfigSource(overrides, "runner-options", 600))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + properties, e);
        }
    }

    private void startPoller(String name, Runnable poller) {
        Thread thread = Thread.ofPlatform().name("poll-" + name).daemon().start(poller);
        pollers.add(thread);
    }

    /**
     * API Gateway's routing, from the one route table: each request goes to the function its route names, with the
     * route's key set as API Gateway sets it; a request no route matches gets API Gateway's own 404.
     */
    public APIGatewayV2HTTPResponse http(APIGatewayV2HTTPEvent event) {
        Optional<Routes.Match> match = Routes.match(HttpJson.method(event), HttpJson.path(event));
        if (match.isEmpty()) {
            return APIGatewayV2HTTPResponse.builder().withStatusCode(404)
                    .withHeaders(Map.of("content-type", "application/json"))
                    .withBody("{\"message\":\"Not Found\"}").build();
        }
        event.setRouteKey(match.get().route().routeKey());
        event.setPathParameters(match.get().parameters().isEmpty() ? null : match.get().parameters());
        return http.get(match.get().route().function()).handleRequest(event, null);
    }

    /**
     * Hands each message of the events queue ({@code url.fetched}, {@code batch.completed}) to {@code listener} from
     * now on, one at a time, as a deployment's listener would receive them: at least once, in no set order. The local
     * stack drains the queue whether anyone listens or not: nothing else reads it locally, and ElasticMQ keeps what is
     * queued in the heap, about 1.5 KB a fetched URL, which a long run showed as a heap growing with the URLs.
     */
    public void listen(Consumer<String> listener) {
        this.eventListener = Objects.requireNonNull(listener, "listener");
    }

    private SQSBatchResponse hear(SQSEvent event) {
        event.getRecords().forEach(message -> eventListener.accept(message.getBody()));
        return SQSBatchResponse.builder().withBatchItemFailures(List.of()).build();
    }

    /** S3 notifications raised and not yet handled: a backlog, when the functions they invoke lag behind. */
    public int s3EventsWaiting() {
        return notifications.waiting();
    }

    /** Waits until every S3 notification raised so far has been handled. Returns false on timeout. */
    public boolean awaitS3Events(Duration timeout) throws InterruptedException {
        return notifications.await(timeout);
    }

    private static void runScheduled(String function, RequestHandler<ScheduledEvent, ?> handler) {
        try {
            handler.handleRequest(new ScheduledEvent(), null);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, function + " failed; it runs again at its next time", e);
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

    /**
     * What the start did to resume the work of an earlier process on the same data folder (see {@link LocalResume});
     * empty on a stack in memory or on a data folder used for the first time.
     */
    public Optional<LocalResume.Resumed> resumed() {
        return resumed;
    }

    /** The client the runner made up when no clients file was configured: its id, token and webhook secret. */
    public Optional<LocalClient> localClient() {
        return localClient;
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    /**
     * Runs {@code work} as an invocation of {@code function}: for a test that drives a use case of the pipeline
     * itself, in the function's place, so that a meter and the call recorder see its calls as the function's.
     */
    public <T> T asInvocationOf(String function, Supplier<T> work) {
        RequestHandler<Object, T> handler = meter.handler(Catalog.function(function), (input, context) -> work.get());
        return handler.handleRequest(null, null);
    }

    public StackResources resources() {
        return resources;
    }

    @Override
    public void close() {
        running.set(false);
        scheduler.shutdownNow();
        apiServer.close();
        for (Thread poller : pollers) {
            try {
                poller.join(Duration.ofSeconds(3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        // The invocations under way finish, or their messages come back after their visibility timeout.
        invocationThreads.shutdown();
        try {
            invocationThreads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        notifications.close();
        pipeline.close();
        vertx.close();
        recorder.ifPresent(CallRecorder::close);
    }
}
