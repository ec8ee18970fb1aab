package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Metrics;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OperationsTest {

    @Test
    void alarms_whenDeployed_watchEveryDeadLetterQueueAndTheFailedS3Events() {
        Synthesized jvm = Synth.jvmIam();
        List<String> watched = new ArrayList<>();
        for (Queue queue : Queue.all()) {
            if (queue.isDeadLetterQueue()) {
                watched.add(jvm.queueId(queue));
            }
        }
        watched.add(jvm.objectEventFailuresId());
        for (String queue : watched) {
            Map<String, Object> alarm = alarmOn(jvm, "ApproximateNumberOfMessagesVisible", "QueueName", queue);
            assertEquals(0, ((Number) alarm.get("Threshold")).intValue(), queue);
            assertEquals("GreaterThanThreshold", alarm.get("ComparisonOperator"), queue);
            assertEquals("notBreaching", alarm.get("TreatMissingData"), queue);
        }
    }

    @Test
    void alarms_whenDeployed_watchEachFunctionsErrorsAndThrottles() {
        Synthesized jvm = Synth.jvmIam();
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            for (String metric : List.of("Errors", "Throttles")) {
                Map<String, Object> alarm = alarmOn(jvm, metric, "FunctionName", jvm.functionId(spec.name()));
                assertEquals("AWS/Lambda", alarm.get("Namespace"));
                assertEquals(0, ((Number) alarm.get("Threshold")).intValue());
            }
        }
    }

    @Test
    void frontierLagAlarm_whenDeployed_watchesTheSweepsMetricAtTheThreshold() {
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt())) {
            Map<String, Object> alarm = alarmOn(deployment, Metrics.FRONTIER_LAG_SECONDS, Metrics.FUNCTION_DIMENSION,
                    deployment.functionId(FunctionNames.SWEEP));
            assertEquals(Metrics.NAMESPACE, alarm.get("Namespace"));
            assertEquals(deployment.props().frontierLagAlarm().toSeconds(),
                    ((Number) alarm.get("Threshold")).longValue());
            assertEquals("breaching", alarm.get("TreatMissingData"));
        }
        assertEquals(900, Synth.jvmIam().props().frontierLagAlarm().toSeconds());
    }

    @Test
    void alarms_whenDeployed_allNotifyTheEncryptedTlsOnlyTopic() {
        Synthesized jvm = Synth.jvmIam();
        var topics = jvm.resources("AWS::SNS::Topic");
        assertEquals(1, topics.size());
        String topic = topics.keySet().iterator().next();
        String key = Synthesized.ref(jvm.properties(topic).get("KmsMasterKeyId"));
        assertEquals("AWS::KMS::Key", jvm.resource(key).get("Type"));
        assertEquals(true, jvm.properties(key).get("EnableKeyRotation"));
        assertTrue(jvm.properties(key).toString().contains("Service=cloudwatch.amazonaws.com"));
        Map<String, Object> policy = Synthesized.properties(jvm.resources("AWS::SNS::TopicPolicy").values().iterator()
                .next());
        assertTrue(policy.toString().contains("aws:SecureTransport=false"), policy::toString);

        var alarms = jvm.resources("AWS::CloudWatch::Alarm");
        long deadLetterQueues = Queue.all().stream().filter(Queue::isDeadLetterQueue).count();
        assertEquals(deadLetterQueues + 1 + 2L * Catalog.FUNCTIONS.size() + 1, alarms.size());
        for (Map<String, Object> alarm : alarms.values()) {
            assertEquals(List.of(topic), ((List<?>) Synthesized.properties(alarm).get("AlarmActions")).stream()
                    .map(Synthesized::ref).toList());
        }
    }

    @Test
    void dashboard_whenDeployed_showsEveryFunctionQueueAndTheFrontierLag() {
        Synthesized jvm = Synth.jvmIam();
        var dashboards = jvm.resources("AWS::CloudWatch::Dashboard");
        assertEquals(1, dashboards.size());
        String body = Synthesized.properties(dashboards.values().iterator().next()).get("DashboardBody").toString();
        for (FunctionSpec spec : Catalog.FUNCTIONS) {
            assertTrue(body.contains("\"title\":\"" + spec.name() + "\""), spec.name());
        }
        for (Queue queue : Queue.all()) {
            assertTrue(body.contains(queue.nameIn(Synth.PREFIX)), queue.name());
        }
        assertTrue(body.contains(Metrics.FRONTIER_LAG_SECONDS));
        assertTrue(body.contains("ApproximateAgeOfOldestMessage"));
        assertTrue(body.contains("Duration"));
    }

    @Test
    void dashboard_whenDeployed_graphsEveryFetchStageMetricOfTheCatalog() {
        Synthesized jvm = Synth.jvmIam();
        var dashboards = jvm.resources("AWS::CloudWatch::Dashboard");
        String body = Synthesized.properties(dashboards.values().iterator().next()).get("DashboardBody").toString();
        for (String metric : Metrics.FETCH_STAGE) {
            assertTrue(body.contains("\"" + Metrics.NAMESPACE + "\",\"" + metric + "\"")
                    || body.contains("MetricName=\\\"" + metric + "\\\""), () -> metric + " not graphed: " + body);
        }
        for (String metric : Metrics.BY_OUTCOME) {
            assertTrue(body.contains("SEARCH('{" + Metrics.NAMESPACE + "," + Metrics.FUNCTION_DIMENSION + ","
                    + Metrics.OUTCOME_DIMENSION + "} MetricName=\\\"" + metric + "\\\""), metric);
        }
        // Each custom metric is the publishing function's own: the fetch function, and the two dead-letter consumers.
        for (String function : List.of(FunctionNames.FETCH, FunctionNames.FETCH_DLQ, FunctionNames.NOTIFY_DLQ)) {
            assertTrue(body.contains(jvm.functionId(function)), function);
        }
    }

    @Test
    void outputs_whenDeployed_nameWhatAnOperatorNeeds() {
        Synthesized jvm = Synth.jvmIam();
        var outputs = jvm.outputs();
        Set<String> expected = new HashSet<>(Set.of("ApiUrl", "IngestQueueUrl", "BucketName", "AlarmTopicArn"));
        Table.all().forEach(t -> expected.add(Names.constructId(t.suffix()) + "TableName"));
        Secret.all().forEach(s -> expected.add(Names.constructId(s.suffix()) + "SecretArn"));
        assertEquals(expected, outputs.keySet());
        assertEquals(jvm.queueId(Queue.INGEST), Synthesized.ref(outputs.get("IngestQueueUrl").get("Value")));
        assertEquals(StorageTest.bucketId(jvm), Synthesized.ref(outputs.get("BucketName").get("Value")));
        for (Table table : Table.all()) {
            assertEquals(jvm.tableId(table), Synthesized.ref(outputs.get(Names.constructId(table.suffix())
                    + "TableName").get("Value")));
        }
        assertTrue(Synthesized.ref(outputs.get("ApiUrl").get("Value")).startsWith("https://"));
        assertEquals(jvm.resources("AWS::SNS::Topic").keySet().iterator().next(),
                Synthesized.ref(outputs.get("AlarmTopicArn").get("Value")));
    }

    /** The one alarm on {@code metric} whose dimension {@code dimension} points at {@code target}. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> alarmOn(Synthesized deployment, String metric, String dimension,
            String target) {
        List<Map<String, Object>> alarms = deployment.resources("AWS::CloudWatch::Alarm").values().stream()
                .map(Synthesized::properties)
                .filter(a -> metric.equals(a.get("MetricName")))
                .filter(a -> ((List<Map<String, Object>>) a.get("Dimensions")).stream()
                        .anyMatch(d -> dimension.equals(d.get("Name")) && target.equals(Synthesized.ref(d.get("Value")))))
                .toList();
        assertEquals(1, alarms.size(), () -> metric + " on " + target);
        return alarms.get(0);
    }
}
