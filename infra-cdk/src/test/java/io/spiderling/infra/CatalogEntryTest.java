package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Table;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An entry the catalog does not have gets its function, event source, environment and grants from the entry alone. */
class CatalogEntryTest {

    @Test
    void newScheduledEntry_whenAddedToTheCatalog_getsFunctionRuleEnvironmentAndAlarms() {
        Synthesized deployment = Synth.nativeWithExtraEntries();
        String report = deployment.functionId(Synth.REPORT.name());
        Map<String, Object> function = deployment.properties(report);
        assertEquals(Synth.REPORT.memoryMb(), ((Number) function.get("MemorySize")).intValue());
        assertEquals(Synth.REPORT.timeout().toSeconds(), ((Number) function.get("Timeout")).longValue());

        String alias = deployment.aliasId(Synth.REPORT.name());
        assertTrue(deployment.resources("AWS::Events::Rule").values().stream().map(Synthesized::properties)
                .anyMatch(rule -> "rate(5 minutes)".equals(rule.get("ScheduleExpression"))
                        && EventSourcesTest.targets(rule).contains(alias)));

        Map<String, Object> environment = deployment.environment(Synth.REPORT.name());
        assertEquals(deployment.tableId(Table.URLS), Synthesized.ref(environment.get("SPIDERLING_TABLES_URLS")));
        assertEquals(deployment.queueId(Queue.NOTIFY), Synthesized.ref(environment.get("SPIDERLING_QUEUES_NOTIFY")));
        assertTrue(environment.containsKey(ConfigKeys.BUCKET.envName()));
        assertEquals(Map.of("QUARKUS_LAMBDA_HANDLER", "report"), Map.of("QUARKUS_LAMBDA_HANDLER",
                environment.get("QUARKUS_LAMBDA_HANDLER")));

        assertTrue(deployment.resources("AWS::CloudWatch::Alarm").values().stream().map(Synthesized::properties)
                .anyMatch(a -> "Errors".equals(a.get("MetricName")) && a.get("Dimensions").toString().contains(report)));
    }

    @Test
    void newQueueEntry_whenAddedToTheCatalog_getsItsMappingOnTheQueue() {
        Synthesized deployment = Synth.nativeWithExtraEntries();
        Map<String, Object> mapping = EventSourcesTest.mappingOf(deployment, Synth.LISTEN);
        assertEquals(5, ((Number) mapping.get("BatchSize")).intValue());
        assertEquals(deployment.queueId(Queue.EVENTS), Synthesized.ref(mapping.get("EventSourceArn")));
        assertEquals(deployment.tableId(Table.BATCHES),
                Synthesized.ref(deployment.environment(Synth.LISTEN.name()).get("SPIDERLING_TABLES_BATCHES")));
    }
}
