package io.spiderling.local.cost;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.local.Attribution;
import io.spiderling.local.Meter;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.logging.Logger;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Counts what one measurement uses of AWS, and on whose behalf: every call of the SDK clients that carry its
 * {@link #interceptor()} (the local runner's, once a benchmark hands it this meter through
 * {@code LocalSpiderling.Options.withMetering}), every handler invocation of the runner, the bytes the invocations
 * log, and the bytes written to S3. A benchmark creates one and reads it with {@link #snapshot()}; a run that is not
 * given one is not metered at all.
 *
 * <p>A call belongs to the {@link Account} running on its thread. The local runner calls each handler on a thread of
 * its own (a queue poller, an S3-event worker, the API server, the scheduler) through {@link #handler}, which makes
 * the function the account for the invocation; the SDK's synchronous clients run interceptors on the calling thread,
 * so the handler's calls are its own. One set of SDK clients serves every function, so the account can only be told
 * per thread: this meter keeps it in thread locals of its own. Outside invocations a thread has a standing account: a
 * queue poller's receives and deletes belong to the queue's event source (on AWS, Lambda's event source mapping makes
 * them); the harness's own calls to {@link Account#HARNESS}, and requests it marks with {@link #HARNESS_HEADER}; the
 * local runner's stand-ins for what AWS does itself to {@link Account#LOCAL}. Anything else is
 * {@link Account#UNATTRIBUTED}, so that a call on an unexpected thread shows instead of vanishing. The runner's
 * {@link Attribution} keeps the accounts, as it does for the call recorder.
 *
 * <p>{@link #counting()} counts requests and invocations, about as cheap as a counter. {@link #billing()} also asks
 * DynamoDB for consumed capacity and reads transactions' items on the side (see {@link DynamoDbBilling}), and counts
 * the bytes the invocations log; close it when the measurement ends.
 */
public final class Metering implements Meter, AutoCloseable {

    /** A request to the local API carrying this header (any value) is the harness's, not a client's. */
    public static final String HARNESS_HEADER = "x-spiderling-meter";

    private final boolean billing;
    /** Inherited by the threads an invocation starts (the fetch stage's lanes), so they are billed to it. */
    private final Attribution<Account> accounts = new Attribution<>(Account.UNATTRIBUTED);
    private final Map<Usage.Call, CallCounter> calls = new ConcurrentHashMap<>();
    private final Map<Account, InvocationCounter> invocations = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> stored = new ConcurrentHashMap<>();
    private final Map<Usage.Key, KeyCounter> keys = new ConcurrentHashMap<>();
    /** The pipeline's DynamoDB calls by account, operation and key shapes ({@link Usage#shapes}). */
    private final Map<Usage.Call, LongAdder> shapeCalls = new ConcurrentHashMap<>();
    private final List<KeyListener> keyListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final RequestCounter interceptor = new RequestCounter(this);
    private final TransactionItems transactionItems = new TransactionItems();
    private final Optional<LogMeter> logMeter;

    private Metering(boolean billing) {
        this.billing = billing;
        this.logMeter = billing ? Optional.of(LogMeter.withFunctionLevels(this)) : Optional.empty();
        logMeter.ifPresent(Logger.getLogger("")::addHandler);
    }

    /** Counts requests, invocations and stored bytes. */
    public static Metering counting() {
        return new Metering(false);
    }

    /** Counts, and bills as AWS would: consumed capacity from DynamoDB, transactions' items, and log bytes. */
    public static Metering billing() {
        return new Metering(true);
    }

    /** Whether this meter bills ({@link #billing()}), not only counts. */
    public boolean bills() {
        return billing;
    }

    /** The interceptor that counts the calls of a client; set it on every client whose calls count. */
    public ExecutionInterceptor interceptor() {
        return interceptor;
    }

    @Override
    public List<ExecutionInterceptor> interceptors() {
        return List.of(interceptor);
    }

    TransactionItems transactionItems() {
        return transactionItems;
    }

    /** The account calls on this thread belong to now. */
    Account account() {
        return accounts.current();
    }

    /** Makes {@code account} the standing account of the current thread. */
    public void actAs(Account account) {
        accounts.actAs(account);
    }

    /** {@code task}, run with {@code account} as its thread's standing account. */
    public Runnable as(Account account, Runnable task) {
        return accounts.as(account, task);
    }

    @Override
    public Runnable eventSource(FunctionSpec function, Runnable poller) {
        return as(Account.eventSource(function.name()), poller);
    }

    @Override
    public Runnable standIn(Runnable task) {
        return as(Account.LOCAL, task);
    }

    /** Runs {@code call} as the local runner's stand-in for AWS, even inside an invocation. */
    @Override
    public <T> T standIn(Supplier<T> call) {
        return accounts.outside(Account.LOCAL, call);
    }

    /** The handler, each of whose calls is counted as an invocation of {@code function}. */
    @Override
    public <I, O> RequestHandler<I, O> handler(FunctionSpec function, RequestHandler<I, O> handler) {
        Account account = Account.function(function.name());
        return (input, context) -> invoke(account, function.memoryMb(), () -> handler.handleRequest(input, context));
    }

    /**
     * An HTTP function's handler: each call is an API Gateway request and an invocation of {@code function}, or of
     * the harness when the request carries {@link #HARNESS_HEADER}.
     */
    @Override
    public <O> RequestHandler<APIGatewayV2HTTPEvent, O> httpHandler(FunctionSpec function,
            RequestHandler<APIGatewayV2HTTPEvent, O> handler) {
        return (event, context) -> {
            Map<String, String> headers = event.getHeaders() == null ? Map.of() : event.getHeaders();
            Account account = headers.containsKey(HARNESS_HEADER) ? Account.HARNESS
                    : Account.function(function.name());
            recordCall(account, "API Gateway", "HTTP API request", 1, 0, 0, false);
            return invoke(account, function.memoryMb(), () -> handler.handleRequest(event, context));
        };
    }

    /**
     * Runs one invocation as Lambda would bill it: its wall time, which includes any wait inside the handler (a rate
     * slot, a site's answer), rounded up to the millisecond, at {@code memoryMb}; plus Lambda's own log lines.
     */
    private <T> T invoke(Account account, int memoryMb, Supplier<T> call) {
        long start = System.nanoTime();
        try {
            return accounts.invoke(account, call);
        } finally {
            long millis = Billing.lambdaBilledMillis(System.nanoTime() - start);
            InvocationCounter counter = invocations.computeIfAbsent(account, a -> new InvocationCounter());
            counter.count.increment();
            counter.billedMillis.add(millis);
            counter.gbSeconds.add(Billing.gbSeconds(millis, memoryMb));
            counter.logBytes.add(Billing.LAMBDA_PLATFORM_LOG_BYTES);
        }
    }

    /** Where handlers print what goes to standard output on Lambda (the sweep's metrics): counted as log bytes. */
    @Override
    public PrintStream logStream() {
        return new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                logged(1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                logged(len);
            }
        }, true);
    }

    /** Counts bytes logged on this thread, if an invocation is running on it (outside one, Lambda logs nothing). */
    void logged(long bytes) {
        Account account = accounts.invocation();
        if (account != null) {
            invocations.computeIfAbsent(account, a -> new InvocationCounter()).logBytes.add(bytes);
        }
    }

    boolean invoking() {
        return accounts.invocation() != null;
    }

    /**
     * Told of every DynamoDB call's units per partition key, whoever made it (the harness's status polls load the
     * batch header too), when the meter has billed the call: how the scale model ({@code ScaleModel}) charges its
     * buckets from the meter's own figures.
     */
    interface KeyListener {
        void charged(List<KeyAttribution.Charge> charges);
    }

    /** Tells {@code listener} of every call's units per key from now on; only a billing meter has any. */
    void listen(KeyListener listener) {
        keyListeners.add(listener);
    }

    /**
     * Counts one DynamoDB call of {@code account}'s, and its units per partition key: into the figures per key when
     * the account is the pipeline's, and to the listeners whoever's it is.
     */
    void recordDynamoDbCall(Account account, String operation, DynamoDbBilling.Units units, boolean refused) {
        recordCall(account, "DynamoDB", operation, 1, units.read(), units.write(), refused);
        if (account.pipeline()) {
            shapeCalls.computeIfAbsent(Usage.shapes(account, operation, units.charges().stream()
                    .map(KeyAttribution.Charge::key).toList()), x -> new LongAdder()).increment();
        }
        if (units.charges().isEmpty()) {
            return;
        }
        if (account.pipeline()) {
            for (KeyAttribution.Charge charge : units.charges()) {
                KeyCounter k = keys.computeIfAbsent(charge.key(), x -> new KeyCounter());
                k.readUnits.add(charge.read());
                k.writeUnits.add(charge.write());
            }
        }
        keyListeners.forEach(l -> l.charged(units.charges()));
    }

    /** Counts one call of {@code account}'s. */
    void recordCall(Account account, String service, String operation, long billedRequests, double readUnits,
            double writeUnits, boolean refused) {
        CallCounter c = calls.computeIfAbsent(new Usage.Call(account, service, operation), k -> new CallCounter());
        c.calls.increment();
        c.billedRequests.add(billedRequests);
        c.readUnits.add(readUnits);
        c.writeUnits.add(writeUnits);
        if (refused) {
            c.refused.increment();
        }
    }

    /**
     * A client's PUT of {@code bytes} under {@code prefix} through a presigned URL: not an SDK call here, but an S3
     * request and storage that AWS bills to the deployment.
     */
    public void clientPut(String prefix, long bytes) {
        recordCall(Account.CLIENT, "S3", "PutObject", 1, 0, 0, false);
        stored(prefix, bytes);
    }

    void stored(String prefix, long bytes) {
        stored.computeIfAbsent(prefix, p -> new LongAdder()).add(bytes);
    }

    /** Everything counted so far. */
    public Usage snapshot() {
        Map<Usage.Call, Usage.Calls> c = new HashMap<>();
        calls.forEach((k, v) -> c.put(k, new Usage.Calls(v.calls.sum(), v.billedRequests.sum(), v.readUnits.sum(),
                v.writeUnits.sum(), v.refused.sum())));
        Map<Account, Usage.Invocations> i = new HashMap<>();
        invocations.forEach((k, v) -> i.put(k, new Usage.Invocations(v.count.sum(), v.billedMillis.sum(),
                v.gbSeconds.sum(), v.logBytes.sum())));
        Map<String, Long> s = new HashMap<>();
        stored.forEach((k, v) -> s.put(k, v.sum()));
        Map<Usage.Key, Usage.KeyLoad> k = new HashMap<>();
        keys.forEach((key, v) -> k.put(key, new Usage.KeyLoad(v.readUnits.sum(), v.writeUnits.sum())));
        Map<Usage.Call, Long> sc = new HashMap<>();
        shapeCalls.forEach((key, v) -> sc.put(key, v.sum()));
        return new Usage(c, i, s, k, sc);
    }

    /** Stops counting log records, and closes the meter's own client. */
    @Override
    public void close() {
        logMeter.ifPresent(Logger.getLogger("")::removeHandler);
        transactionItems.close();
    }

    private static final class CallCounter {
        final LongAdder calls = new LongAdder();
        final LongAdder billedRequests = new LongAdder();
        final DoubleAdder readUnits = new DoubleAdder();
        final DoubleAdder writeUnits = new DoubleAdder();
        final LongAdder refused = new LongAdder();
    }

    private static final class KeyCounter {
        final DoubleAdder readUnits = new DoubleAdder();
        final DoubleAdder writeUnits = new DoubleAdder();
    }

    private static final class InvocationCounter {
        final LongAdder count = new LongAdder();
        final LongAdder billedMillis = new LongAdder();
        final DoubleAdder gbSeconds = new DoubleAdder();
        final LongAdder logBytes = new LongAdder();
    }
}
