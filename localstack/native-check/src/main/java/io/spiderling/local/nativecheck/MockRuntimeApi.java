package io.spiderling.local.nativecheck;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for the Lambda Runtime API (the {@code 2018-06-01} interface a custom runtime, such as Quarkus's native
 * poll loop, talks to), on a free port of 127.0.0.1, handing out a fixed list of invocations.
 *
 * <p>It serves {@code GET /2018-06-01/runtime/invocation/next} with the event as the body and the request id, deadline
 * and function ARN in the {@code Lambda-Runtime-*} headers; takes {@code POST …/invocation/{id}/response} and
 * {@code …/error}; and takes {@code POST /2018-06-01/runtime/init/error}. Like the real one, {@code next} blocks
 * while there is nothing to hand out: once every invocation is answered the runtime waits there until its process is
 * stopped, which is how a warm Lambda sandbox idles.
 *
 * <p>What the runtime did is available as {@link #outcome()}: complete when every invocation has an answer, or at the
 * first init error. {@link #firstNextNanos()} records when the runtime first asked for work (by
 * {@link System#nanoTime()}), which ends its cold start.
 */
public final class MockRuntimeApi implements AutoCloseable {

    static final String BASE = "/2018-06-01/runtime/";
    private static final Pattern ANSWER = Pattern.compile(BASE + "invocation/([^/]+)/(response|error)");
    private static final String ACCEPTED = "{\"status\":\"OK\"}";

    /**
     * One invocation to hand out.
     *
     * @param requestId the {@code Lambda-Runtime-Aws-Request-Id}
     * @param payload the event, as JSON
     * @param timeout the function's timeout; the deadline is the moment {@code next} hands it out plus this
     */
    public record Invocation(String requestId, String payload, Duration timeout) {}

    /** How the runtime answered one invocation. */
    public sealed interface Answer {
        String requestId();

        /** {@code POST …/response}: what the handler returned. */
        record Response(String requestId, String body) implements Answer {}

        /** {@code POST …/error}: the handler threw; {@code errorType} is the header Lambda reports as its type. */
        record Failure(String requestId, Optional<String> errorType, String body) implements Answer {}
    }

    /** What the runtime did, once it is decided. */
    public sealed interface Outcome {
        /** Every invocation was answered, in the order the answers came. */
        record Answered(List<Answer> answers) implements Outcome {}

        /** The runtime reported that it could not start ({@code POST /runtime/init/error}). */
        record InitFailed(Optional<String> errorType, String body) implements Outcome {}
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final String functionArn;
    private final Clock clock;
    private final LongSupplier nanoTime;
    private final LinkedBlockingQueue<Invocation> pending;
    private final Map<String, Invocation> handedOut = new LinkedHashMap<>();
    private final List<Answer> answers = new ArrayList<>();
    private final int expected;
    private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile long firstNext;
    private volatile boolean askedForWork;

    private MockRuntimeApi(String functionArn, List<Invocation> invocations, Clock clock, LongSupplier nanoTime)
            throws IOException {
        this.functionArn = functionArn;
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.pending = new LinkedBlockingQueue<>(invocations);
        this.expected = invocations.size();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        // A thread per exchange: next blocks for as long as there is no work, and must not hold up the answers.
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext(BASE, this::handle);
        server.start();
    }

    /**
     * Starts serving {@code invocations}, in order, to the runtime of the function {@code functionArn} names.
     *
     * @throws IllegalArgumentException if two invocations share a request id
     */
    public static MockRuntimeApi start(String functionArn, List<Invocation> invocations) {
        return start(functionArn, invocations, Clock.systemUTC(), System::nanoTime);
    }

    static MockRuntimeApi start(String functionArn, List<Invocation> invocations, Clock clock, LongSupplier nanoTime) {
        if (invocations.stream().map(Invocation::requestId).distinct().count() != invocations.size()) {
            throw new IllegalArgumentException("request ids must be unique: " + invocations);
        }
        try {
            return new MockRuntimeApi(functionArn, invocations, clock, nanoTime);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the mock Lambda Runtime API", e);
        }
    }

    /** The value of {@code AWS_LAMBDA_RUNTIME_API}: host and port. */
    public String address() {
        return server.getAddress().getHostString() + ":" + server.getAddress().getPort();
    }

    public CompletableFuture<Outcome> outcome() {
        return outcome;
    }

    /** When the runtime first asked for an invocation; empty while it has not. */
    public OptionalLong firstNextNanos() {
        return askedForWork ? OptionalLong.of(firstNext) : OptionalLong.empty();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            // Read before answering, so an early reply never leaves a client blocked on its upload.
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            if (method.equals("GET") && path.equals(BASE + "invocation/next")) {
                next(exchange);
            } else if (method.equals("POST") && path.equals(BASE + "init/error")) {
                initError(exchange, body);
            } else if (method.equals("POST") && ANSWER.matcher(path).matches()) {
                answer(exchange, ANSWER.matcher(path), body);
            } else {
                reply(exchange, 404, error("NotFound", "no " + method + " " + path + " in the runtime API"));
            }
        }
    }

    private void next(HttpExchange exchange) throws IOException {
        synchronized (this) {
            if (!askedForWork) {
                firstNext = nanoTime.getAsLong();
                askedForWork = true;
            }
        }
        Invocation invocation = takeUntilClosed();
        if (invocation == null) {
            reply(exchange, 500, error("ServiceUnavailable", "the runtime API is shutting down"));
            return;
        }
        synchronized (this) {
            handedOut.put(invocation.requestId(), invocation);
        }
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", "application/json");
        headers.set("Lambda-Runtime-Aws-Request-Id", invocation.requestId());
        headers.set("Lambda-Runtime-Deadline-Ms",
                String.valueOf(clock.instant().plus(invocation.timeout()).toEpochMilli()));
        headers.set("Lambda-Runtime-Invoked-Function-Arn", functionArn);
        headers.set("Lambda-Runtime-Trace-Id", String.format("Root=1-%08x-%024x;Sampled=0",
                clock.instant().getEpochSecond(), invocation.requestId().hashCode() & 0xffffffffL));
        reply(exchange, 200, invocation.payload());
    }

    /** The next invocation, waiting for one as long as the server is up; null once it is closed. */
    private Invocation takeUntilClosed() {
        try {
            while (closed.getCount() > 0) {
                Invocation invocation = pending.poll(100, TimeUnit.MILLISECONDS);
                if (invocation != null) {
                    return invocation;
                }
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void answer(HttpExchange exchange, Matcher path, String body) throws IOException {
        path.matches();
        String requestId = path.group(1);
        Answer answer = path.group(2).equals("response") ? new Answer.Response(requestId, body)
                : new Answer.Failure(requestId, errorType(exchange), body);
        synchronized (this) {
            if (!handedOut.containsKey(requestId) || answers.stream().anyMatch(a -> a.requestId().equals(requestId))) {
                reply(exchange, 400, error("InvalidRequestID", "no open invocation " + requestId));
                return;
            }
            answers.add(answer);
            if (answers.size() == expected) {
                outcome.complete(new Outcome.Answered(List.copyOf(answers)));
            }
        }
        reply(exchange, 202, ACCEPTED);
    }

    private void initError(HttpExchange exchange, String body) throws IOException {
        outcome.complete(new Outcome.InitFailed(errorType(exchange), body));
        reply(exchange, 202, ACCEPTED);
    }

    private static Optional<String> errorType(HttpExchange exchange) {
        return Optional.ofNullable(exchange.getRequestHeaders().getFirst("Lambda-Runtime-Function-Error-Type"));
    }

    private static String error(String type, String message) {
        return "{\"errorType\":\"" + type + "\",\"errorMessage\":\"" + message.replace("\"", "'") + "\"}";
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops serving; a runtime still waiting in {@code next} gets a 500. */
    @Override
    public void close() {
        closed.countDown();
        // Up to a second for a waiting next to be answered; it returns as soon as no exchange is open.
        server.stop(1);
        executor.shutdownNow();
    }
}
