package io.spiderling.local.nativecheck;

import io.spiderling.catalog.FunctionSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts one function's process of a {@link LambdaBuild} in a fresh sandbox-like environment, gives it one event
 * through a {@link MockRuntimeApi}, and reports what came back, how long the process took to ask for work, and its peak
 * resident memory. The process is stopped afterwards: every invocation is a cold start.
 */
public final class Invoker {

    /** Lambda's account and region in the ARNs the mock hands out; nothing reads them back. */
    private static final String ARN_PREFIX = "arn:aws:lambda:us-east-1:000000000000:function:";
    /** How often the process is looked at while it works: short against a native cold start of some 15 ms. */
    private static final long POLL_MILLIS = 5;
    /** Time allowed beyond the function's own timeout, for a JVM to start on a busy machine. */
    private static final Duration GRACE = Duration.ofSeconds(60);

    /** What one invocation came to. */
    public sealed interface Result {
        /** Milliseconds from starting the process to its first {@code next}; empty if it never asked. */
        OptionalLong startMillis();

        /** Peak resident set (VmHWM) in KiB while the process was up; empty if it ended before it was read. */
        OptionalLong peakRssKib();

        Path log();

        /** The handler returned {@code body}. */
        record Answered(String body, OptionalLong startMillis, OptionalLong peakRssKib, Path log) implements Result {}

        /** Anything else: an error posted, an init error, a process that died or never answered. */
        record Failed(String reason, OptionalLong startMillis, OptionalLong peakRssKib, Path log) implements Result {}
    }

    private final Map<String, String> baseEnvironment;

    /** @param baseEnvironment what every function process gets besides its own variables (PATH, LANG, …) */
    public Invoker(Map<String, String> baseEnvironment) {
        this.baseEnvironment = Map.copyOf(baseEnvironment);
    }

    /**
     * @param configuration the function's configuration variables ({@link FunctionEnvironment#variablesFor})
     * @param log where the process's standard output and error go
     */
    public Result invoke(LambdaBuild build, FunctionSpec function, Map<String, String> configuration, String event,
            Path log) {
        var invocation = new MockRuntimeApi.Invocation(UUID.randomUUID().toString(), event, function.timeout());
        try (MockRuntimeApi api = MockRuntimeApi.start(ARN_PREFIX + function.name(), List.of(invocation))) {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(build.command(function))
                    .directory(build.taskRoot().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            Map<String, String> env = builder.environment();
            // Nothing of this JVM's environment leaks in: the function sees what Lambda would give it, and no more.
            env.clear();
            env.putAll(baseEnvironment);
            env.putAll(configuration);
            env.putAll(build.runtimeVariables(function));
            env.put("AWS_LAMBDA_RUNTIME_API", api.address());
            env.put("AWS_LAMBDA_FUNCTION_NAME", function.name());
            env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", String.valueOf(function.memoryMb()));
            env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
            env.put("QUARKUS_LAMBDA_HANDLER", function.name());
            long started = System.nanoTime();
            Process process = builder.start();
            try {
                return await(api, process, started, function.timeout().plus(GRACE), log);
            } finally {
                stop(process);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + function.name() + " of the " + build.label() + " build", e);
        }
    }

    private static Result await(MockRuntimeApi api, Process process, long started, Duration limit, Path log) {
        long deadline = started + limit.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                MockRuntimeApi.Outcome outcome = api.outcome().get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                OptionalLong start = startMillis(api, started);
                OptionalLong rss = peakRss(process);
                return switch (outcome) {
                    case MockRuntimeApi.Outcome.InitFailed init -> new Result.Failed(
                            "init error " + init.errorType().orElse("") + ": " + abbreviate(init.body()), start, rss,
                            log);
                    case MockRuntimeApi.Outcome.Answered answered -> switch (answered.answers().getFirst()) {
                        case MockRuntimeApi.Answer.Response response -> new Result.Answered(response.body(), start,
                                rss, log);
                        case MockRuntimeApi.Answer.Failure failure -> new Result.Failed("/error "
                                + failure.errorType().orElse("") + ": " + abbreviate(failure.body()), start, rss, log);
                    };
                };
            } catch (TimeoutException stillWorking) {
                if (!process.isAlive()) {
                    return new Result.Failed("process exited with status " + process.exitValue()
                            + " before answering", startMillis(api, started), OptionalLong.empty(), log);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the function", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("the mock runtime API failed", e);
            }
        }
        return new Result.Failed("no answer within " + limit.toSeconds() + " s", startMillis(api, started),
                peakRss(process), log);
    }

    private static OptionalLong startMillis(MockRuntimeApi api, long started) {
        OptionalLong first = api.firstNextNanos();
        return first.isPresent() ? OptionalLong.of((first.getAsLong() - started) / 1_000_000) : OptionalLong.empty();
    }

    /** VmHWM, the kernel's high-water mark of the resident set, so one read after the answer gives the peak. */
    static OptionalLong peakRss(Process process) {
        Path status = Path.of("/proc", String.valueOf(process.pid()), "status");
        try {
            return Files.readAllLines(status).stream()
                    .filter(line -> line.startsWith("VmHWM:"))
                    .mapToLong(line -> Long.parseLong(line.replaceAll("[^0-9]", "")))
                    .findFirst();
        } catch (IOException | UncheckedIOException gone) {
            return OptionalLong.empty();
        }
    }

    /** SIGTERM first, so the function can shut down as Lambda would let it; then SIGKILL. */
    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static String abbreviate(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 300) + "…";
    }
}
