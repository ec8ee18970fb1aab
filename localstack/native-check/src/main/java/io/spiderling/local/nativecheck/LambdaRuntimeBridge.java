package io.spiderling.local.nativecheck;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Plays the part of Lambda's managed Java runtime for the JVM build, which this machine does not have: it loads the
 * handler named by {@code _HANDLER} ({@code class::method}, a {@link RequestStreamHandler}), then polls the Runtime API
 * at {@code AWS_LAMBDA_RUNTIME_API} and calls the handler once per invocation, as the java21 runtime does with
 * {@code io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest}.
 *
 * <p>Quarkus starts its own poll loop only in native (and dev/test) mode; on the JVM it expects the managed runtime to
 * do the polling, so the JVM build cannot be run against the mock Runtime API without this.
 *
 * <p>Run with the class path the java21 runtime gives a function: the unzipped {@code function.zip}'s root, then its
 * {@code lib/*.jar}, then this class. It therefore uses only the JDK and aws-lambda-java-core (which the function
 * brings), and it is one class with nested ones so the harness can copy it out on its own
 * ({@link Class#getNestMembers()}).
 */
public final class LambdaRuntimeBridge {

    private static final String RUNTIME = "/2018-06-01/runtime/";
    private static final String INIT_ERROR = "init/error";

    private final HttpClient http = HttpClient.newHttpClient();
    private final String api;
    private final Map<String, String> env;

    private LambdaRuntimeBridge(Map<String, String> env) {
        this.env = env;
        this.api = "http://" + required(env, "AWS_LAMBDA_RUNTIME_API") + RUNTIME;
    }

    public static void main(String[] args) throws Exception {
        new LambdaRuntimeBridge(System.getenv()).run();
    }

    private void run() throws IOException, InterruptedException {
        RequestStreamHandler handler;
        try {
            handler = load(required(env, "_HANDLER"));
        } catch (Throwable e) {
            // As the managed runtime does: report, then end the sandbox.
            post(INIT_ERROR, e);
            System.exit(1);
            return;
        }
        while (true) {
            HttpResponse<byte[]> next = http.send(HttpRequest.newBuilder(URI.create(api + "invocation/next")).GET()
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            if (next.statusCode() != 200) {
                throw new IllegalStateException("runtime API answered next with " + next.statusCode());
            }
            String requestId = next.headers().firstValue("Lambda-Runtime-Aws-Request-Id").orElseThrow();
            Invocation context = new Invocation(requestId,
                    next.headers().firstValue("Lambda-Runtime-Invoked-Function-Arn").orElse(""),
                    Long.parseLong(next.headers().firstValue("Lambda-Runtime-Deadline-Ms").orElse("0")),
                    env);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                handler.handleRequest(new ByteArrayInputStream(next.body()), out, context);
            } catch (Throwable e) {
                post("invocation/" + requestId + "/error", e);
                continue;
            }
            send(HttpRequest.newBuilder(URI.create(api + "invocation/" + requestId + "/response"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())).build());
        }
    }

    /** {@code class::method}; the method must be {@code handleRequest}, the only one a stream handler has. */
    private static RequestStreamHandler load(String handler) throws ReflectiveOperationException {
        String[] parts = handler.split("::", 2);
        if (parts.length == 2 && !parts[1].equals("handleRequest")) {
            throw new IllegalArgumentException("only RequestStreamHandler::handleRequest is supported, not " + handler);
        }
        Class<?> type = Class.forName(parts[0], true, LambdaRuntimeBridge.class.getClassLoader());
        return (RequestStreamHandler) type.getDeclaredConstructor().newInstance();
    }

    /** The error document Lambda's runtimes post: message, type (the exception's class) and stack trace. */
    private void post(String path, Throwable e) throws IOException, InterruptedException {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        String body = "{\"errorMessage\":" + quote(String.valueOf(e.getMessage())) + ",\"errorType\":"
                + quote(e.getClass().getName()) + ",\"stackTrace\":["
                + String.join(",", Arrays.stream(trace.toString().split("\n")).map(String::strip)
                        .map(LambdaRuntimeBridge::quote).toList()) + "]}";
        send(HttpRequest.newBuilder(URI.create(api + path)).header("Lambda-Runtime-Function-Error-Type",
                e.getClass().getName())
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private void send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
            throw new IllegalStateException(request.uri() + " answered " + response.statusCode() + ": "
                    + response.body());
        }
    }

    static String quote(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set");
        }
        return value;
    }

    /** The {@link Context} of one invocation, from the Runtime API's headers and the function's environment. */
    private record Invocation(String requestId, String functionArn, long deadlineMillis, Map<String, String> env)
            implements Context {

        @Override
        public String getAwsRequestId() {
            return requestId;
        }

        @Override
        public String getLogGroupName() {
            return env.getOrDefault("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + getFunctionName());
        }

        @Override
        public String getLogStreamName() {
            return env.getOrDefault("AWS_LAMBDA_LOG_STREAM_NAME", "local");
        }

        @Override
        public String getFunctionName() {
            return env.getOrDefault("AWS_LAMBDA_FUNCTION_NAME", "");
        }

        @Override
        public String getFunctionVersion() {
            return env.getOrDefault("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        }

        @Override
        public String getInvokedFunctionArn() {
            return functionArn;
        }

        @Override
        public CognitoIdentity getIdentity() {
            return null;
        }

        @Override
        public ClientContext getClientContext() {
            return null;
        }

        @Override
        public int getRemainingTimeInMillis() {
            return (int) Math.max(0, deadlineMillis - System.currentTimeMillis());
        }

        @Override
        public int getMemoryLimitInMB() {
            return Integer.parseInt(env.getOrDefault("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "128"));
        }

        @Override
        public LambdaLogger getLogger() {
            return StdoutLogger.INSTANCE;
        }
    }

    /** What a function logs through its context goes to standard output, as on Lambda. */
    private enum StdoutLogger implements LambdaLogger {
        INSTANCE;

        @Override
        public void log(String message) {
            System.out.print(message);
        }

        @Override
        public void log(byte[] message) {
            System.out.print(new String(message, StandardCharsets.UTF_8));
        }
    }
}
