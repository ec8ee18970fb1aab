package io.spiderling.local.nativecheck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.StackResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./spiderling native-check}: runs every catalog function of the native build and of the JVM build, each with
 * each of its sample events, against the embedded AWS stack, and fails unless every handler answers the same in both.
 *
 * <p>Each build gets its own resource set, provisioned and seeded identically ({@link StackSeed}), and runs the
 * scenarios in the same order ({@link Scenarios}). Every invocation is a fresh process given exactly the environment
 * the function would have on Lambda: the configuration keys its catalog entry lists (or, with {@code --keys=all},
 * all of the deployment's, to tell a missing key from a native defect), the runtime's variables, and
 * {@code AWS_LAMBDA_RUNTIME_API} pointing at a {@link MockRuntimeApi}. The JVM build runs under
 * {@link LambdaRuntimeBridge}, in place of the managed java21 runtime.
 *
 * <p>Usage: {@code NativeCheck --native DIR --jvm DIR --events DIR --work DIR [--keys=catalog|all]
 * [--only=function,…]}, where the two directories are the unzipped {@code function.zip} of each build. Exit status 0
 * when every row is the same, 1 otherwise, 2 on a usage error. {@code --only} is for chasing one function: the
 * scenarios build on one another's state, so rows of later stages fail their expectations without earlier ones.
 */
public final class NativeCheck {

    static final String NATIVE_PREFIX = "nc-native";
    static final String JVM_PREFIX = "nc-jvm";

    /** The command line, read. */
    record Options(Path nativeRoot, Path jvmRoot, Path events, Path work, FunctionEnvironment.Keys keys,
            Set<String> only) {

        static Options parse(String[] args) {
            Map<String, String> named = new LinkedHashMap<>();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (!arg.startsWith("--")) {
                    throw new IllegalArgumentException("unexpected argument " + arg);
                }
                int equals = arg.indexOf('=');
                if (equals > 0) {
                    named.put(arg.substring(2, equals), arg.substring(equals + 1));
                } else if (i + 1 < args.length) {
                    named.put(arg.substring(2), args[++i]);
                } else {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
            }
            Options options = new Options(path(named, "native"), path(named, "jvm"), path(named, "events"),
                    path(named, "work"), keys(named.getOrDefault("keys", "catalog")),
                    named.containsKey("only") ? Set.of(named.get("only").split(",")) : Set.of());
            named.keySet().removeAll(Set.of("native", "jvm", "events", "work", "keys", "only"));
            if (!named.isEmpty()) {
                throw new IllegalArgumentException("unknown options " + named.keySet());
            }
            return options;
        }

        private static Path path(Map<String, String> named, String name) {
            String value = named.get(name);
            if (value == null) {
                throw new IllegalArgumentException("--" + name + " is required");
            }
            return Path.of(value).toAbsolutePath();
        }

        private static FunctionEnvironment.Keys keys(String value) {
            return switch (value) {
                case "all" -> FunctionEnvironment.Keys.ALL;
                case "catalog" -> FunctionEnvironment.Keys.CATALOG;
                default -> throw new IllegalArgumentException("--keys must be all or catalog, was " + value);
            };
        }
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("native-check: " + e.getMessage());
            System.err.println("usage: NativeCheck --native DIR --jvm DIR --events DIR --work DIR"
                    + " [--keys=catalog|all] [--only=function,...]");
            System.exit(2);
            return;
        }
        List<Row> rows = run(options);
        System.exit(rows.stream().allMatch(Row::passed) ? 0 : 1);
    }

    static List<Row> run(Options options) {
        Instant started = Instant.now();
        SampleEvents events = new SampleEvents(options.events());
        LambdaBuild nativeBuild = new LambdaBuild.Native(options.nativeRoot());
        LambdaBuild jvmBuild = new LambdaBuild.Jvm(options.jvmRoot(),
                Path.of(System.getProperty("java.home"), "bin", "java"),
                LambdaBuild.Jvm.copyBridge(options.work().resolve("bridge")));
        List<FunctionSpec> functions = Catalog.FUNCTIONS.stream()
                .filter(f -> options.only().isEmpty() || options.only().contains(f.name())).toList();
        try (EmbeddedAws aws = EmbeddedAws.start(); Fixture fixture = Fixture.start(options.work())) {
            StackResources nativeResources = aws.provision(NATIVE_PREFIX);
            StackResources jvmResources = aws.provision(JVM_PREFIX);
            StackSeed.seed(aws, nativeResources, fixture, events);
            StackSeed.seed(aws, jvmResources, fixture, events);
            Side nativeSide = new Side(nativeBuild, FunctionEnvironment.of(
                    deployment(aws, nativeResources, fixture), options.keys()));
            Side jvmSide = new Side(jvmBuild, FunctionEnvironment.of(
                    deployment(aws, jvmResources, fixture), options.keys()));
            AnswerNormalizer normalizer = AnswerNormalizer.erasing(List.of(NATIVE_PREFIX, JVM_PREFIX));
            Invoker invoker = new Invoker(lambdaSandbox());
            Runner runner = new Runner(invoker, fixture, options.work().resolve("logs"));
            List<Scenario> scenarios = Scenarios.forCatalog(functions, fixture);
            System.out.printf("native-check: %d events of %d functions, keys: %s%n", scenarios.size(),
                    functions.size(), options.keys().name().toLowerCase(Locale.ROOT));
            List<Row> rows = new ArrayList<>();
            for (Scenario scenario : scenarios) {
                if (!events.exists(scenario.event())) {
                    rows.add(Row.notRun(scenario, "events/" + scenario.event() + " is missing"));
                    continue;
                }
                String event = scenario.eventFrom(events).toString();
                Row row = Row.compare(scenario, runner.run(nativeSide, scenario, event),
                        runner.run(jvmSide, scenario, event), normalizer);
                rows.add(row);
                System.out.printf("  %-13s %-31s %s%n", scenario.function(), scenario.event(), verdict(row));
            }
            String report = Report.render(rows, scenarios, options, Duration.between(started, Instant.now()));
            System.out.println();
            System.out.println(report);
            Files.writeString(options.work().resolve("report.txt"), report);
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What Lambda sets in every sandbox, whatever the function: the region, and the execution role's credentials. The
     * functions' own variables come per function. Lambda's credentials are temporary and come with
     * {@code AWS_SESSION_TOKEN}; s3proxy answers 501 to a request carrying a session token, so it is left out here.
     */
    static Map<String, String> lambdaSandbox() {
        return Map.of("PATH", "/usr/local/bin:/usr/bin:/bin", "LANG", "en_US.UTF-8",
                "AWS_REGION", EmbeddedAws.REGION, "AWS_DEFAULT_REGION", EmbeddedAws.REGION,
                "AWS_ACCESS_KEY_ID", EmbeddedAws.ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", EmbeddedAws.SECRET_KEY);
    }

    /**
     * The deployment's configuration, by key name: the embedded stack's endpoints, resource names and the clients
     * secret's ARN, as the CDK stack sets them, and what this deployment sets differently from the defaults (API
     * Gateway's JWT authorizer decides the client, as the sample events carry its claims; the local site and the
     * webhook receiver are on loopback over http; small upload chunks, so the sample upload spans several; the opt-in
     * links index on, so the inlinks sample has something to show).
     *
     * <p>The static credentials keys are left out: the functions then take the role's credentials from the sandbox
     * ({@link #lambdaSandbox()}) through the SDK's default provider chain, the path they take on AWS.
     */
    static Map<String, String> deployment(EmbeddedAws aws, StackResources resources, Fixture fixture) {
        Map<String, String> values = new LinkedHashMap<>(aws.functionConfigWithSecrets(resources));
        values.remove(ConfigKeys.AWS_ACCESS_KEY_ID.name());
        values.remove(ConfigKeys.AWS_SECRET_ACCESS_KEY.name());
        values.put("spiderling.auth.mode", "gateway");
        values.put("spiderling.fetch.allow-loopback", "true");
        values.put("spiderling.notify.allow-http", "true");
        values.put("spiderling.fetch.rate-overrides-file", fixture.rateOverrides().toString());
        values.put("spiderling.uploads.chunk-bytes", "16384");
        values.put("spiderling.links.enabled", "true");
        return values;
    }

    private static String verdict(Row row) {
        return switch (row.verdict()) {
            case Row.Verdict.Same same -> "same";
            case Row.Verdict.Different different -> "DIFFERENT";
            case Row.Verdict.Failed failed -> "FAILED: " + String.join("; ", failed.problems());
        };
    }

    /** One build with its deployment's configuration. */
    record Side(LambdaBuild build, FunctionEnvironment environment) {}

    /** Runs scenarios: one fresh process per event, with the requests the local sites saw while it ran. */
    static final class Runner {
        private final Invoker invoker;
        private final Fixture fixture;
        private final Path logs;

        Runner(Invoker invoker, Fixture fixture, Path logs) {
            this.invoker = invoker;
            this.fixture = fixture;
            this.logs = logs;
        }

        Run run(Side side, Scenario scenario, String event) {
            FunctionSpec function = Catalog.function(scenario.function());
            int seen = fixture.requestCount();
            Path log = logs.resolve(side.build().label())
                    .resolve(function.name() + "--" + scenario.event().replace(".json", "") + ".log");
            Invoker.Result result = invoker.invoke(side.build(), function, side.environment().variablesFor(function),
                    event, log);
            if (!(result instanceof Invoker.Result.Answered answered)) {
                return new Run(result, List.of());
            }
            // Kept for whoever reads a difference: the report shows answers normalized and shortened.
            Path saved = logs.resolveSibling("answers").resolve(side.build().label())
                    .resolve(function.name() + "--" + scenario.event());
            try {
                Files.createDirectories(saved.getParent());
                Files.writeString(saved, answered.body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            var observation = new Expectation.Observation(parse(answered.body()), fixture.requestsSince(seen));
            return new Run(result, scenario.expectations().stream().map(e -> e.problem(observation))
                    .flatMap(Optional::stream).toList());
        }

        private static JsonNode parse(String body) {
            try {
                return SampleEvents.JSON.readTree(body);
            } catch (IOException notJson) {
                return JsonNodeFactory.instance.textNode(body);
            }
        }
    }
}
