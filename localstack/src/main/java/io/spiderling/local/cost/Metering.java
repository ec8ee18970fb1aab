package io.spiderling.local.cost;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.spiderling.catalog.FunctionSpec;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Counts what this JVM uses of AWS, and on whose behalf: every SDK call ({@link io.spiderling.local.RequestCounter}
 * sees them all), every handler invocation of the local runner, the bytes the invocations log, and the bytes written
 * to S3.
 *
 * <p>A call belongs to the <em>account</em> running on its thread. The local runner calls each handler on a thread of
 * its own (a queue poller, an S3-event worker, the API server, the scheduler) through {@link #handler}, which makes
 * the function the account for the invocation; the SDK's synchronous clients run interceptors on the calling thread, so
 * the handler's calls are its own. Outside invocations a thread has a standing account: a queue poller's receives
 * and deletes belong to the queue's event source (on AWS, Lambda's event source mapping makes them); the harness's
 * own calls to {@link #HARNESS}, and requests it marks with {@link #HARNESS_HEADER}; the local runner's stand-ins for
 * what AWS does itself to {@link #LOCAL}. Anything else is {@link #UNATTRIBUTED}, so that a call on an unexpected
 * thread shows instead of vanishing.
 *
 * <p>Counting requests is always on, as cheap as the counter it replaces. {@link #enable()} turns on the rest: asking
 * DynamoDB for consumed capacity (see {@link DynamoDbBilling}) and counting log bytes.
 */
public final class Metering {

    /** The benchmark harness: its setup and status polls. Not part of the pipeline's figures. */
    public static final String HARNESS = "harness";
    /** What the local runner does in AWS's place (listing uploads/ for S3's notification). Not billed on AWS. */
    public static final String LOCAL = "local stand-in";
    /** A call made outside any invocation on a thread with no standing account. */
    public static final String UNATTRIBUTED = "unattributed";
    /** A client of the deployment (the presigned upload of a manifest), billed to the deployment's account. */
    public static final String CLIENT = "client";
    /** A request to the local API carrying this header (any value) is the harness's, not a client's. */
    public static final String HARNESS_HEADER = "x-spiderling-meter";

    /** Inherited, so that the threads an invocation starts (the fetch stage's lanes) are billed to it. */
    private static final ThreadLocal<String> INVOCATION = new InheritableThreadLocal<>();
    private static final ThreadLocal<String> STANDING = new ThreadLocal<>();
    private static final ThreadLocal<Boolean> ASIDE = new ThreadLocal<>();
    private static final Map<Usage.Call, CallCounter> CALLS = new ConcurrentHashMap<>();
    private static final Map<String, InvocationCounter> INVOCATIONS = new ConcurrentHashMap<>();
    private static final Map<String, LongAdder> STORED = new ConcurrentHashMap<>();
    private static final AtomicBoolean ENABLED = new AtomicBoolean();
    private static final AtomicBoolean LOG_METER = new AtomicBoolean();

    private Metering() {}

    /** Turns on billing: consumed capacity from DynamoDB, and log bytes. */
    public static void enable() {
        if (LOG_METER.compareAndSet(false, true)) {
            Logger.getLogger("").addHandler(LogMeter.withFunctionLevels());
        }
        ENABLED.set(true);
    }

    /** Turns billing off again (tests that share a JVM with others); requests are still counted. */
    public static void disable() {
        ENABLED.set(false);
    }

    static boolean enabled() {
        return ENABLED.get();
    }

    /** The account of a queue's consumer outside its invocations: Lambda's event source mapping on AWS. */
    public static String eventSource(String function) {
        return function + " (SQS event source)";
    }

    /** Whether the account is part of the pipeline (a function, an event source or a client), not the harness's. */
    public static boolean pipeline(String account) {
        return !account.equals(HARNESS) && !account.equals(LOCAL) && !account.equals(UNATTRIBUTED);
    }

    /** The account calls on this thread belong to now. */
    public static String account() {
        String invocation = INVOCATION.get();
        if (invocation != null) {
            return invocation;
        }
        String standing = STANDING.get();
        return standing == null ? UNATTRIBUTED : standing;
    }

    /** Makes {@code account} the standing account of the current thread. */
    public static void actAs(String account) {
        STANDING.set(account);
    }

    /** {@code task}, run with {@code account} as its thread's standing account. */
    public static Runnable as(String account, Runnable task) {
        return () -> {
            String before = STANDING.get();
            STANDING.set(account);
            try {
                task.run();
            } finally {
                STANDING.set(before);
            }
        };
    }

    /** Runs {@code call} as the local runner's stand-in for AWS, even inside an invocation. */
    public static <T> T standIn(Supplier<T> call) {
        String invocation = INVOCATION.get();
        String standing = STANDING.get();
        INVOCATION.remove();
        STANDING.set(LOCAL);
        try {
            return call.get();
        } finally {
            STANDING.set(standing);
            if (invocation != null) {
                INVOCATION.set(invocation);
            }
        }
    }

    /** Runs the meter's own calls (reads of item sizes), which no count includes. */
    static void aside(Runnable calls) {
        ASIDE.set(true);
        try {
            calls.run();
        } finally {
            ASIDE.remove();
        }
    }

    /** Whether the calls on this thread now are the meter's own. */
    public static boolean isAside() {
        return ASIDE.get() != null;
    }

    /** The handler, each of whose calls is counted as an invocation of {@code function}. */
    public static <I, O> RequestHandler<I, O> handler(FunctionSpec function, RequestHandler<I, O> handler) {
        return (input, context) -> invoke(function.name(), function.memoryMb(),
                () -> handler.handleRequest(input, context));
    }

    /**
     * An HTTP function's handler: each call is an API Gateway request and an invocation of {@code function}, or of
     * the harness when the request carries {@link #HARNESS_HEADER}.
     */
    public static <O> RequestHandler<APIGatewayV2HTTPEvent, O> httpHandler(FunctionSpec function,
            RequestHandler<APIGatewayV2HTTPEvent, O> handler) {
        return (event, context) -> {
            Map<String, String> headers = event.getHeaders() == null ? Map.of() : event.getHeaders();
            String account = headers.containsKey(HARNESS_HEADER) ? HARNESS : function.name();
            recordCall(account, "API Gateway", "HTTP API request", 1, 0, 0, false);
            return invoke(account, function.memoryMb(), () -> handler.handleRequest(event, context));
        };
    }

    /**
     * Runs one invocation as Lambda would bill it: its wall time, which includes any wait inside the handler (a rate
     * slot, a site's answer), rounded up to the millisecond, at {@code memoryMb}; plus Lambda's own log lines.
     */
    public static <T> T invoke(String account, int memoryMb, Supplier<T> call) {
        String outer = INVOCATION.get();
        INVOCATION.set(account);
        long start = System.nanoTime();
        try {
            return call.get();
        } finally {
            long millis = Billing.lambdaBilledMillis(System.nanoTime() - start);
            InvocationCounter counter = INVOCATIONS.computeIfAbsent(account, a -> new InvocationCounter());
            counter.count.increment();
            counter.billedMillis.add(millis);
            counter.gbSeconds.add(Billing.gbSeconds(millis, memoryMb));
            counter.logBytes.add(Billing.LAMBDA_PLATFORM_LOG_BYTES);
            if (outer == null) {
                INVOCATION.remove();
            } else {
                INVOCATION.set(outer);
            }
        }
    }

    /** Where handlers print what goes to standard output on Lambda (the sweep's metrics): counted as log bytes. */
    public static PrintStream logStream() {
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
    static void logged(long bytes) {
        String account = INVOCATION.get();
        if (account != null) {
            INVOCATIONS.computeIfAbsent(account, a -> new InvocationCounter()).logBytes.add(bytes);
        }
    }

    static boolean invoking() {
        return INVOCATION.get() != null;
    }

    /** Counts one call of {@code account}'s. */
    public static void recordCall(String account, String service, String operation, long billedRequests,
            double readUnits, double writeUnits, boolean refused) {
        CallCounter c = CALLS.computeIfAbsent(new Usage.Call(account, service, operation), k -> new CallCounter());
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
    public static void clientPut(String prefix, long bytes) {
        recordCall(CLIENT, "S3", "PutObject", 1, 0, 0, false);
        stored(prefix, bytes);
    }

    static void stored(String prefix, long bytes) {
        STORED.computeIfAbsent(prefix, p -> new LongAdder()).add(bytes);
    }

    /** Everything counted so far. */
    public static Usage snapshot() {
        Map<Usage.Call, Usage.Calls> calls = new HashMap<>();
        CALLS.forEach((k, c) -> calls.put(k, new Usage.Calls(c.calls.sum(), c.billedRequests.sum(), c.readUnits.sum(),
                c.writeUnits.sum(), c.refused.sum())));
        Map<String, Usage.Invocations> invocations = new HashMap<>();
        INVOCATIONS.forEach((k, c) -> invocations.put(k, new Usage.Invocations(c.count.sum(), c.billedMillis.sum(),
                c.gbSeconds.sum(), c.logBytes.sum())));
        Map<String, Long> stored = new HashMap<>();
        STORED.forEach((k, v) -> stored.put(k, v.sum()));
        return new Usage(calls, invocations, stored);
    }

    private static final class CallCounter {
        final LongAdder calls = new LongAdder();
        final LongAdder billedRequests = new LongAdder();
        final DoubleAdder readUnits = new DoubleAdder();
        final DoubleAdder writeUnits = new DoubleAdder();
        final LongAdder refused = new LongAdder();
    }

    private static final class InvocationCounter {
        final LongAdder count = new LongAdder();
        final LongAdder billedMillis = new LongAdder();
        final DoubleAdder gbSeconds = new DoubleAdder();
        final LongAdder logBytes = new LongAdder();
    }
}
