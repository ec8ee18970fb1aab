package io.spiderling.local.nativecheck;

import io.spiderling.catalog.FunctionSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Starts one function's process of a {@link LambdaBuild} in a fresh sandbox-like environment, gives it one event
 * through a {@link MockRuntimeApi}, and reports what came back, how long the process took to ask for work, and its peak
 * resident memory. The process is stopped afterwards: every invocation is a cold start.
 */
public final class Invoker {

    /** Lambda's account and region in the ARNs the mock hands out; nothing reads them back. */
    private static final String ARN_PREFIX = "arn:aws:lambda:us-east-1:000000000000:function:";
    /**
     * How often the harness looks for an answer or a dead process while the function works. The cold start is timed by
     * the mock's own clock when next arrives, not by this.
     */
    private static final long POLL_MILLIS = 5;
    /** Time allowed beyond the function's own timeout, for a JVM to start on a busy machine. */
    private static final Duration GRACE = Duration.ofSeconds(60);

    /**
     * What the process showed besides its answer.
     *
     * @param startMillis milliseconds from starting the process to its first {@code next}; empty if it never asked
     * @param peakRssKib peak resident set (VmHWM) in KiB while it was up; empty if it ended before it was read
     * @param exitStatus how it ended once stopped (143 for the SIGTERM it is sent); empty if it would not end
     * @param log its standard output and error
     */
    public record Measured(OptionalLong startMillis, OptionalLong peakRssKib, OptionalInt exitStatus, Path log) {

        /**
         * Ended other than by the SIGTERM it was sent, or cleanly: a crash while shutting down, after answering.
         * Quarkus exits 0 or 143 on SIGTERM; 128 + n is signal n.
         */
        public boolean stoppedAbnormally() {
            return exitStatus.isPresent() && exitStatus.getAsInt() != 0 && exitStatus.getAsInt() != 143;
        }
    }

    /** What one invocation came to. */
    public sealed interface Result {
        Measured measured();

        /** The handler returned {@code body}. */
        record Answered(String body, Measured measured) implements Result {}

        /** Anything else: an error posted, an init error, a process that died or never answered. */
        record Failed(String reason, Measured measured) implements Result {}
    }

    /** What the process did before it was stopped: an answer or why there is none. */
    private sealed interface Outcome {
        record Answer(String body) implements Outcome {}

        record Failure(String reason) implements Outcome {}
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
                    .redirectErrorStream(true);
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
            // The log starts with what the process was given, so a failure can be reproduced by hand.
            Files.writeString(log, "# " + String.join(" ", builder.command()) + "\n" + new TreeMap<>(env).entrySet()
                    .stream().map(e -> "# " + e.getKey() + "=" + e.getValue() + "\n").collect(Collectors.joining()));
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            long started = System.nanoTime();
            Process process = builder.start();
            Outcome outcome;
            OptionalLong rss;
            try {
                outcome = await(api, process, started, function.timeout().plus(GRACE));
                // Read before stopping: VmHWM is the high-water mark, and it goes with the process.
                rss = peakRss(process);
            } catch (RuntimeException e) {
                stop(process);
                throw e;
            }
            Measured measured = new Measured(startMillis(api, started), rss, stop(process), log);
            return switch (outcome) {
                case Outcome.Answer answer -> new Result.Answered(answer.body(), measured);
                case Outcome.Failure failure -> new Result.Failed(failure.reason(), measured);
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + function.name() + " of the " + build.label() + " build", e);
        }
    }

    private static Outcome await(MockRuntimeApi api, Process process, long started, Duration limit) {
        long deadline = started + limit.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                return switch (api.outcome().get(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    case MockRuntimeApi.Outcome.InitFailed init -> new Outcome.Failure(
                            "init error " + init.errorType().orElse("") + ": " + abbreviate(init.body()));
                    case MockRuntimeApi.Outcome.Answered answered -> switch (answered.answers().getFirst()) {
                        case MockRuntimeApi.Answer.Response response -> new Outcome.Answer(response.body());
                        case MockRuntimeApi.Answer.Failure failure -> new Outcome.Failure("/error "
                                + failure.errorType().orElse("") + ": " + abbreviate(failure.body()));
                    };
                };
            } catch (TimeoutException stillWorking) {
                if (!process.isAlive()) {
                    return new Outcome.Failure("process exited with status " + process.exitValue()
                            + " before answering");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the function", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("the mock runtime API failed", e);
            }
        }
        return new Outcome.Failure("no answer within " + limit.toSeconds() + " s");
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

    /** SIGTERM first, so the function can shut down as Lambda would let it; then SIGKILL. Returns the exit status. */
    private static OptionalInt stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
    }

    private static String abbreviate(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 300) + "…";
    }
}
