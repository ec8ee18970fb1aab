package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class EnvironmentTest {

    /** The functions' configuration reference, relative to this module (surefire runs in the module directory). */
    static final Path APPLICATION_PROPERTIES =
            Path.of("../functions/lambdas/src/main/resources/application.properties");

    /** Lambda's limit on a function's whole environment: names and values. */
    static final int LAMBDA_ENVIRONMENT_LIMIT = 4096;

    /**
     * What a CloudFormation reference in the environment stands for at most: queue URLs
     * ({@code https://sqs.<region>.amazonaws.com/<account>/<name>}), the secret's ARN and table and bucket names
     * are all well under this for our names.
     */
    static final int LONGEST_RESOLVED_REFERENCE = 200;

    private static final Pattern DEFAULT_LINE = Pattern.compile("^([a-z][A-Za-z0-9.\\-]*)\\s*=");

    @Test
    void environment_whenDeployed_holdsOnlyKeysTheFunctionReads() {
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt(), Synth.nativeWithExtraEntries())) {
            for (FunctionSpec spec : deployment.props().functions()) {
                Set<String> declared = spec.configKeys().stream().map(ConfigKey::envName).collect(Collectors.toSet());
                Set<String> set = new TreeSet<>(deployment.environment(spec.name()).keySet());
                set.remove(ConfigValues.HANDLER_VARIABLE);
                assertTrue(declared.containsAll(set), () -> spec.name() + " gets keys it does not read: "
                        + set.stream().filter(k -> !declared.contains(k)).toList());
            }
        }
    }

    @Test
    void environment_whenDeployed_setsEveryRequiredKeyWithoutADefault() throws IOException {
        Set<String> defaulted = keysWithDefaults();
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt())) {
            for (FunctionSpec spec : Catalog.FUNCTIONS) {
                Map<String, Object> environment = deployment.environment(spec.name());
                List<String> missing = spec.configKeys().stream()
                        .filter(key -> !key.optional() && !defaulted.contains(key.name()))
                        .filter(key -> !environment.containsKey(key.envName()))
                        .map(ConfigKey::name)
                        .toList();
                assertEquals(List.of(), missing, () -> spec.name() + " would not start: required, no default in "
                        + APPLICATION_PROPERTIES + ", and not deployed");
            }
        }
    }

    @Test
    void environment_whenDeployed_neverSetsEndpointsCredentialsOrRegion() {
        Set<String> forbidden = ConfigValues.NEVER_DEPLOYED.stream().map(ConfigKey::envName)
                .collect(Collectors.toSet());
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            Set<String> set = new HashSet<>(Synth.jvmJwt().environment(spec.name()).keySet());
            set.retainAll(forbidden);
            assertEquals(Set.of(), set, spec.name());
        }
    }

    @Test
    void environment_whenDeployed_staysWellUnderLambdasLimit() {
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt())) {
            for (FunctionSpec spec : Catalog.FUNCTIONS) {
                int size = 0;
                for (Map.Entry<String, Object> variable : deployment.environment(spec.name()).entrySet()) {
                    size += variable.getKey().getBytes(StandardCharsets.UTF_8).length
                            + (variable.getValue() instanceof String text ? text.getBytes(StandardCharsets.UTF_8).length
                                    : LONGEST_RESOLVED_REFERENCE);
                }
                int bound = size;
                // At most two thirds: every reference counted at its longest still leaves over 1.3 KB, room for a
                // dozen more settings. (The fetcher, with the signing-keys secret, passed 60 %.)
                assertTrue(bound < LAMBDA_ENVIRONMENT_LIMIT * 2 / 3, () -> spec.name() + ": up to " + bound
                        + " bytes");
            }
        }
    }

    @Test
    void environment_whenDeployed_namesEachResourceByItsKey() {
        Synthesized jvm = Synth.jvmIam();
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            Map<String, Object> environment = jvm.environment(spec.name());
            for (Table table : spec.tables()) {
                assertEquals(jvm.tableId(table), Synthesized.ref(environment.get(table.configKey().envName())));
            }
            for (Queue queue : spec.sends()) {
                queue.configKey().ifPresent(key -> assertEquals(jvm.queueId(queue),
                        Synthesized.ref(environment.get(key.envName())), spec.name() + " " + queue));
            }
            assertEquals(!spec.objects().isEmpty(), environment.containsKey(ConfigKeys.BUCKET.envName()), spec.name());
            for (Secret secret : spec.secrets()) {
                assertEquals(jvm.secretId(secret), Synthesized.ref(environment.get(secret.configKey().envName())),
                        spec.name() + " " + secret);
            }
            if (spec.configKeys().contains(ConfigKeys.AUTH_MODE)) {
                assertEquals("gateway", environment.get(ConfigKeys.AUTH_MODE.envName()), spec.name());
                assertEquals("sub", environment.get(ConfigKeys.AUTH_CLIENT_CLAIM.envName()), spec.name());
            }
        }
    }

    @Test
    void environment_whenSettingsGiven_reachExactlyTheFunctionsReadingThem() {
        Synthesized jwt = Synth.jvmJwt();
        Map<ConfigKey<?>, String> expected = new java.util.HashMap<>(Map.of(
                ConfigKeys.AUTH_ADMIN_GROUPS, String.join(",", Synth.ADMIN_GROUPS),
                ConfigKeys.AUTH_ADMIN_ROLES, String.join(",", Synth.ADMIN_ROLES),
                ConfigKeys.QUOTA_URLS_PER_DAY, Long.toString(Synth.QUOTA_URLS_PER_DAY)));
        expected.putAll(Map.of(
                ConfigKeys.AUTH_CLIENT_CLAIM, Synth.CLIENT_CLAIM,
                ConfigKeys.FETCH_USER_AGENT, Synth.USER_AGENT,
                ConfigKeys.FETCH_ROBOTS_AGENT, Synth.ROBOTS_AGENT,
                ConfigKeys.NOTIFY_ALLOWED_HOSTS, String.join(",", Synth.CALLBACK_HOSTS),
                ConfigKeys.FRONTIER_LOST_AFTER, Synth.LOST_AFTER.toString(),
                ConfigKeys.FETCH_RATE_OVERRIDES_FILE, "/opt/spiderling/rate-overrides.txt",
                ConfigKeys.FETCH_OPT_OUT_FILE, "/opt/spiderling/opt-out.txt"));
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            Map<String, Object> environment = jwt.environment(spec.name());
            expected.forEach((key, value) -> {
                if (spec.configKeys().contains(key)) {
                    assertEquals(value, environment.get(key.envName()), spec.name() + " " + key);
                } else {
                    assertFalse(environment.containsKey(key.envName()), spec.name() + " " + key);
                }
            });
        }
    }

    @Test
    void siteLists_whenGiven_shippedAsALayerOnlyToTheFunctionsReadingThem() {
        Synthesized jwt = Synth.jvmJwt();
        assertEquals(1, jwt.resources("AWS::Lambda::LayerVersion").size());
        String layer = jwt.resources("AWS::Lambda::LayerVersion").keySet().iterator().next();
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            boolean reads = spec.configKeys().contains(ConfigKeys.FETCH_OPT_OUT_FILE)
                    || spec.configKeys().contains(ConfigKeys.FETCH_RATE_OVERRIDES_FILE);
            Object layers = jwt.properties(jwt.functionId(spec.name())).get("Layers");
            if (reads) {
                assertEquals(List.of(layer), ((List<?>) layers).stream().map(Synthesized::ref).toList(), spec.name());
            } else {
                assertEquals(null, layers, spec.name());
            }
        }
        assertEquals(0, Synth.jvmIam().resources("AWS::Lambda::LayerVersion").size());
    }

    @Test
    void eventsQueue_whenLeftOut_neitherCreatedNorNamed() {
        Synthesized jwt = Synth.jvmJwt();
        assertTrue(jwt.resources("AWS::SQS::Queue").values().stream()
                .noneMatch(q -> Queue.EVENTS.nameIn(Synth.PREFIX).equals(Synthesized.properties(q).get("QueueName"))));
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            assertFalse(jwt.environment(spec.name()).containsKey(ConfigKeys.QUEUES_EVENTS.envName()), spec.name());
        }
        assertTrue(Synth.jvmIam().environment("fetch").containsKey(ConfigKeys.QUEUES_EVENTS.envName()));
    }

    /** Keys with a {@code key=} line in the functions' application.properties (profile lines excluded). */
    static Set<String> keysWithDefaults() throws IOException {
        Set<String> keys = new HashSet<>();
        for (String line : Files.readAllLines(APPLICATION_PROPERTIES)) {
            Matcher matcher = DEFAULT_LINE.matcher(line);
            if (matcher.find()) {
                keys.add(matcher.group(1));
            }
        }
        return keys;
    }
}
