package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.Access;
import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Table;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Each function's role reaches exactly what its catalog entry names, read back from the synthesized policies: no
 * more resources, and no write where the entry says read (or the reverse).
 */
class IamTest {

    private static final Set<String> TABLE_WRITES = Set.of("dynamodb:PutItem", "dynamodb:UpdateItem",
            "dynamodb:DeleteItem", "dynamodb:BatchWriteItem");
    private static final Set<String> TABLE_READS = Set.of("dynamodb:GetItem", "dynamodb:Query", "dynamodb:Scan",
            "dynamodb:BatchGetItem");
    private static final Set<String> QUEUE_RECEIVE = Set.of("sqs:ReceiveMessage", "sqs:DeleteMessage",
            "sqs:ChangeMessageVisibility");

    @Test
    void roles_whenDeployed_reachExactlyWhatTheCatalogNames() {
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt(), Synth.nativeWithExtraEntries())) {
            for (FunctionSpec spec : deployment.props().functions()) {
                Map<String, Set<String>> granted = grants(deployment, spec);
                assertEquals(new TreeSet<>(expected(deployment, spec)), new TreeSet<>(granted.keySet()),
                        () -> spec.name() + " in " + deployment.props().auth());
            }
        }
    }

    @Test
    void roles_whenCatalogSaysReadOrWrite_grantOnlyThat() {
        Synthesized jvm = Synth.jvmIam();
        for (FunctionSpec spec : jvm.props().functions()) {
            Map<String, Set<String>> granted = grants(jvm, spec);
            spec.tables().forEach((table, access) -> {
                Set<String> actions = granted.get(jvm.tableId(table));
                assertEquals(access.writes(), actions.stream().anyMatch(TABLE_WRITES::contains), spec.name() + table);
                assertEquals(access.reads(), actions.stream().anyMatch(TABLE_READS::contains), spec.name() + table);
            });
            String bucket = StorageTest.bucketId(jvm);
            spec.objects().forEach((prefix, access) -> {
                Set<String> actions = granted.get(bucket + "/" + prefix.prefix() + "*");
                assertEquals(access.writes(), actions.contains("s3:PutObject"), spec.name() + prefix);
                assertEquals(access.reads(), actions.contains("s3:GetObject*"), spec.name() + prefix);
                assertEquals(access == Access.READ_WRITE, actions.contains("s3:DeleteObject*"), spec.name() + prefix);
            });
            for (Queue queue : spec.sends()) {
                Set<String> actions = granted.get(jvm.queueId(queue));
                assertTrue(actions.contains("sqs:SendMessage"), spec.name() + queue);
                boolean consumes = spec.source() instanceof EventSource.QueueSource q && q.queue() == queue;
                assertEquals(consumes, actions.stream().anyMatch(QUEUE_RECEIVE::contains), spec.name() + queue);
            }
        }
    }

    @Test
    void roles_whenDeployed_haveNoManagedPolicies() {
        Synthesized jvm = Synth.jvmIam();
        for (FunctionSpec spec : jvm.props().functions()) {
            String role = Synthesized.ref(jvm.properties(jvm.functionId(spec.name())).get("Role"));
            assertFalse(jvm.properties(role).containsKey("ManagedPolicyArns"), spec.name());
        }
    }

    /** What the catalog entry names, as the logical ids (with object patterns) the policies should hold. */
    private static Set<String> expected(Synthesized deployment, FunctionSpec spec) {
        Set<String> expected = new HashSet<>();
        for (Table table : spec.tables().keySet()) {
            expected.add(deployment.tableId(table));
            if (!table.localIndexes().isEmpty()) {
                expected.add(deployment.tableId(table) + "/index/*");
            }
        }
        for (Queue queue : spec.sends()) {
            if (!deployment.props().omittedQueues().contains(queue)) {
                expected.add(deployment.queueId(queue));
            }
        }
        String bucket = StorageTest.bucketId(deployment);
        spec.objects().forEach((prefix, access) -> {
            expected.add(bucket + "/" + prefix.prefix() + "*");
            if (access.reads()) {
                expected.add(bucket); // listing, which S3 grants on the bucket itself
            }
        });
        spec.secrets().forEach(secret -> expected.add(deployment.secretId(secret)));
        switch (spec.source()) {
            case EventSource.QueueSource source -> expected.add(deployment.queueId(source.queue()));
            case EventSource.ObjectCreated source -> expected.add(deployment.objectEventFailuresId());
            case EventSource.Http http -> { }
            case EventSource.Schedule schedule -> { }
        }
        @SuppressWarnings("unchecked")
        var logging = (Map<String, Object>) deployment.properties(deployment.functionId(spec.name()))
                .get("LoggingConfig");
        expected.add(Synthesized.ref(logging.get("LogGroup")));
        return expected;
    }

    /** Every resource the function's role may touch, with the actions allowed on it. */
    @SuppressWarnings("unchecked")
    private static Map<String, Set<String>> grants(Synthesized deployment, FunctionSpec spec) {
        String role = Synthesized.ref(deployment.properties(deployment.functionId(spec.name())).get("Role"));
        Map<String, Set<String>> granted = new HashMap<>();
        for (Map<String, Object> policy : deployment.resources("AWS::IAM::Policy").values()) {
            Map<String, Object> properties = Synthesized.properties(policy);
            List<String> roles = ((List<Object>) properties.get("Roles")).stream().map(Synthesized::ref).toList();
            if (!roles.contains(role)) {
                continue;
            }
            var document = (Map<String, Object>) properties.get("PolicyDocument");
            for (Map<String, Object> statement : (List<Map<String, Object>>) document.get("Statement")) {
                assertEquals("Allow", statement.get("Effect"), spec.name());
                for (Object resource : asList(statement.get("Resource"))) {
                    String target = Synthesized.ref(resource);
                    assertFalse(target.equals("*"), spec.name() + " may touch anything: " + statement);
                    granted.computeIfAbsent(target, t -> new HashSet<>())
                            .addAll(asList(statement.get("Action")).stream().map(String::valueOf).toList());
                }
            }
        }
        return granted;
    }

    private static List<Object> asList(Object value) {
        return value instanceof List<?> list ? new ArrayList<>(list) : List.of(value);
    }
}
