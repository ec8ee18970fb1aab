package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.FunctionSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EventSourcesTest {

    @Test
    void mappings_whenCatalogHasQueueSources_oneEachOnTheAliasWithTheCatalogsSettings() {
        Synthesized jvm = Synth.jvmIam();
        List<FunctionSpec> consumers = Catalog.FUNCTIONS.stream()
                .filter(f -> f.source() instanceof EventSource.QueueSource).toList();
        assertEquals(consumers.size(), jvm.resources("AWS::Lambda::EventSourceMapping").size());
        for (FunctionSpec spec : consumers) {
            EventSource.QueueSource source = (EventSource.QueueSource) spec.source();
            Map<String, Object> mapping = mappingOf(jvm, spec);
            assertEquals(source.batchSize(), ((Number) mapping.get("BatchSize")).intValue(), spec.name());
            assertEquals(source.reportsBatchItemFailures(),
                    List.of("ReportBatchItemFailures").equals(mapping.get("FunctionResponseTypes")), spec.name());
            if (source.batchingWindow().isZero()) {
                assertFalse(mapping.containsKey("MaximumBatchingWindowInSeconds"), spec.name());
            } else {
                assertEquals(source.batchingWindow().toSeconds(),
                        ((Number) mapping.get("MaximumBatchingWindowInSeconds")).longValue(), spec.name());
            }
            Optional<Integer> concurrency = source.maxConcurrency();
            assertEquals(concurrency.orElse(null), concurrencyOf(mapping), spec.name());
        }
    }

    @Test
    void mappings_whenQueueIsFifo_haveNoBatchingWindow() {
        Synthesized jvm = Synth.jvmIam();
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            if (spec.source() instanceof EventSource.QueueSource source && source.queue().fifo()) {
                assertFalse(mappingOf(jvm, spec).containsKey("MaximumBatchingWindowInSeconds"), spec.name());
            }
        }
    }

    @Test
    void fetchMapping_whenConcurrencyGiven_usesItElseTheCatalogs() {
        FunctionSpec fetch = Catalog.function(FunctionNames.FETCH);
        assertEquals(Catalog.DEFAULT_FETCH_CONCURRENCY, concurrencyOf(mappingOf(Synth.jvmIam(), fetch)));
        assertEquals(Synth.FETCH_CONCURRENCY, concurrencyOf(mappingOf(Synth.jvmJwt(), fetch)));
    }

    @Test
    void notifications_whenCatalogHasObjectCreatedSources_exactlyOnePerPrefixToItsFunctionsAlias() {
        Synthesized jvm = Synth.jvmIam();
        Map<String, String> expected = new HashMap<>();
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            if (spec.source() instanceof EventSource.ObjectCreated source) {
                source.prefixes().forEach(prefix -> expected.put(prefix.prefix(), jvm.aliasId(spec.name())));
            }
        }
        assertFalse(expected.containsKey(BucketPrefix.PLANNED.prefix()));

        List<Map<String, Object>> configurations = notificationConfigurations(jvm);
        List<String> prefixes = new ArrayList<>();
        for (Map<String, Object> configuration : configurations) {
            assertEquals(List.of("s3:ObjectCreated:*"), configuration.get("Events"));
            String prefix = prefixOf(configuration);
            prefixes.add(prefix);
            assertEquals(expected.get(prefix), Synthesized.ref(configuration.get("LambdaFunctionArn")), prefix);
        }
        assertEquals(expected.size(), prefixes.size(), prefixes::toString);
        assertEquals(expected.keySet(), new java.util.HashSet<>(prefixes));
    }

    @Test
    void notifications_whenToAnAlias_waitForTheAliasPermission() {
        Synthesized jvm = Synth.jvmIam();
        Map<String, Object> notifications = jvm.resources("Custom::S3BucketNotifications").values().iterator().next();
        List<?> dependsOn = (List<?>) notifications.get("DependsOn");
        for (Map.Entry<String, Map<String, Object>> permission : jvm.resources("AWS::Lambda::Permission").entrySet()) {
            Map<String, Object> properties = Synthesized.properties(permission.getValue());
            if ("s3.amazonaws.com".equals(properties.get("Principal"))) {
                String target = Synthesized.ref(properties.get("FunctionName"));
                assertEquals("AWS::Lambda::Alias", jvm.resource(target).get("Type"), permission.getKey());
                assertTrue(dependsOn.contains(permission.getKey()), permission.getKey());
            }
        }
    }

    @Test
    void asyncConfig_whenFunctionTakesS3Events_retriesTwiceThenKeepsTheEventInTheFailureQueue() {
        Synthesized jvm = Synth.jvmIam();
        List<FunctionSpec> notified = Catalog.FUNCTIONS.stream()
                .filter(f -> f.source() instanceof EventSource.ObjectCreated).toList();
        var configs = jvm.resources("AWS::Lambda::EventInvokeConfig");
        assertEquals(notified.size(), configs.size());
        for (FunctionSpec spec : notified) {
            Map<String, Object> config = configs.values().stream().map(Synthesized::properties)
                    .filter(p -> jvm.functionId(spec.name()).equals(Synthesized.ref(p.get("FunctionName"))))
                    .findFirst().orElseThrow();
            assertEquals(EventSources.OBJECT_EVENT_RETRIES, ((Number) config.get("MaximumRetryAttempts")).intValue());
            @SuppressWarnings("unchecked")
            var destination = (Map<String, Map<String, Object>>) config.get("DestinationConfig");
            assertEquals(jvm.objectEventFailuresId(), Synthesized.ref(destination.get("OnFailure").get("Destination")));
            // The qualifier is the alias's (its ARN's last part), so S3's invocations of the alias use it.
            assertTrue(config.get("Qualifier").toString().contains(jvm.aliasId(spec.name())), spec.name());
        }
    }

    @Test
    void schedule_whenCatalogHasOne_ruleRunsTheAliasAtItsRate() {
        Synthesized jvm = Synth.jvmIam();
        List<FunctionSpec> scheduled = Catalog.FUNCTIONS.stream()
                .filter(f -> f.source() instanceof EventSource.Schedule).toList();
        var rules = jvm.resources("AWS::Events::Rule");
        assertEquals(scheduled.size(), rules.size());
        for (FunctionSpec spec : scheduled) {
            long minutes = ((EventSource.Schedule) spec.source()).every().toMinutes();
            Map<String, Object> rule = rules.values().stream().map(Synthesized::properties)
                    .filter(p -> targets(p).contains(jvm.aliasId(spec.name()))).findFirst().orElseThrow();
            assertEquals("rate(" + minutes + " minute" + (minutes == 1 ? "" : "s") + ")", rule.get("ScheduleExpression"));
        }
    }

    static Map<String, Object> mappingOf(Synthesized deployment, FunctionSpec spec) {
        EventSource.QueueSource source = (EventSource.QueueSource) spec.source();
        String queue = deployment.queueId(source.queue());
        String alias = deployment.aliasId(spec.name());
        List<Map<String, Object>> mappings = deployment.resources("AWS::Lambda::EventSourceMapping").values().stream()
                .map(Synthesized::properties)
                .filter(m -> queue.equals(Synthesized.ref(m.get("EventSourceArn"))))
                .toList();
        assertEquals(1, mappings.size(), spec.name());
        // The mapping names the function as name:live, built from the alias.
        assertTrue(mappings.get(0).get("FunctionName").toString().contains(alias), spec.name());
        assertTrue(mappings.get(0).get("FunctionName").toString().contains(":live"), spec.name());
        return mappings.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Integer concurrencyOf(Map<String, Object> mapping) {
        var scaling = (Map<String, Object>) mapping.get("ScalingConfig");
        return scaling == null ? null : ((Number) scaling.get("MaximumConcurrency")).intValue();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> notificationConfigurations(Synthesized deployment) {
        var resources = deployment.resources("Custom::S3BucketNotifications");
        assertEquals(1, resources.size());
        var configuration = (Map<String, Object>) Synthesized.properties(resources.values().iterator().next())
                .get("NotificationConfiguration");
        return (List<Map<String, Object>>) configuration.get("LambdaFunctionConfigurations");
    }

    @SuppressWarnings("unchecked")
    static String prefixOf(Map<String, Object> configuration) {
        var key = (Map<String, Object>) ((Map<String, Object>) configuration.get("Filter")).get("Key");
        var rules = (List<Map<String, Object>>) key.get("FilterRules");
        assertEquals(1, rules.size());
        assertEquals("prefix", rules.get(0).get("Name"));
        return (String) rules.get(0).get("Value");
    }

    @SuppressWarnings("unchecked")
    static List<String> targets(Map<String, Object> rule) {
        return ((List<Map<String, Object>>) rule.get("Targets")).stream().map(t -> Synthesized.ref(t.get("Arn")))
                .toList();
    }
}
