package io.spiderling.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import io.spiderling.lambda.config.FunctionConfig;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each function, assembled as on Lambda with a deployment's configuration, reads exactly the keys its catalog entry
 * names: no more (it would fail on AWS, or quietly run on a default the stack never sets), no fewer (the stack would
 * set, and IAM allow, what it does not use). Building a handler reads its configuration; no AWS call is made.
 */
class FunctionKeysTest {

    private static Vertx vertx;

    @TempDir
    static Path files;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    static Set<String> functions() {
        return Catalog.FUNCTIONS.stream().map(FunctionSpec::name).collect(Collectors.toCollection(TreeSet::new));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("functions")
    void handler_whenBuiltWithTheDeploymentsConfiguration_readsExactlyItsCatalogKeys(String name) throws IOException {
        FunctionConfig config = FunctionConfig.of(deployment());
        try (Pipeline pipeline = Pipeline.builder().config(config).vertx(vertx)
                .metrics(new PrintStream(OutputStream.nullOutputStream())).build()) {
            Handlers.create(name, pipeline);

            assertEquals(names(Catalog.function(name).configKeys()), names(config.keysRead()));
        }
    }

    /**
     * What a deployed function sees: {@code application.properties} (without the test profile), and over it what the
     * CDK stack sets: every resource name, gateway authentication, the clients secret, the operator's files, and the
     * opt-in links index.
     */
    private static SmallRyeConfig deployment() throws IOException {
        Map<String, String> stack = new HashMap<>();
        stack.put(ConfigKeys.BUCKET.name(), "spiderling-content");
        for (Table table : Table.values()) {
            stack.put(table.configKey().name(), table.nameIn("spiderling"));
        }
        for (Queue queue : Queue.values()) {
            queue.configKey().ifPresent(key -> stack.put(key.name(),
                    "https://sqs.us-east-1.amazonaws.com/123456789012/" + queue.nameIn("spiderling")));
        }
        for (Secret secret : Secret.values()) {
            stack.put(secret.configKey().name(),
                    "arn:aws:secretsmanager:us-east-1:123456789012:secret:" + secret.nameIn("spiderling") + "-AbCdEf");
        }
        stack.put(ConfigKeys.AUTH_MODE.name(), "gateway");
        stack.put(ConfigKeys.FETCH_RATE_OVERRIDES_FILE.name(),
                Files.writeString(files.resolve("rates.txt"), "example.com 2\n").toString());
        stack.put(ConfigKeys.FETCH_OPT_OUT_FILE.name(),
                Files.writeString(files.resolve("opt-out.txt"), "example.org\n").toString());
        // Every optional feature on: the links index is opt-in, and with it off the API never names its table.
        stack.put(ConfigKeys.LINKS_ENABLED.name(), "true");
        URL properties = Pipeline.class.getClassLoader().getResource("application.properties");
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, 250))
                .withSources(new PropertiesConfigSource(stack, "stack", 500))
                .build();
    }

    private static Set<String> names(Set<ConfigKey<?>> keys) {
        assertTrue(!keys.isEmpty());
        return keys.stream().map(ConfigKey::name).collect(Collectors.toCollection(TreeSet::new));
    }
}
