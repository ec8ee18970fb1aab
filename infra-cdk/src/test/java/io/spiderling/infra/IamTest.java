package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Permission;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Each function's role allows exactly what its catalog entry declares, read back from the synthesized policies: each
 * declared action on its one resource, and besides those only what the wiring needs (its log group, its event
 * source). {@code LeastPrivilegeTest} then holds the declarations to the calls the code makes.
 */
class IamTest {

    private static final Set<String> MAPPING_ACTIONS = Set.of("sqs:ReceiveMessage", "sqs:DeleteMessage",
            "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes", "sqs:GetQueueUrl");

    @Test
    void roles_whenDeployed_grantExactlyTheDeclaredActions() {
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt(), Synth.nativeWithExtraEntries())) {
            for (FunctionSpec spec : deployment.props().functions()) {
                Set<String> granted = new TreeSet<>();
                for (Policies.Grant grant : Policies.grants(deployment, spec)) {
                    if (!wiring(deployment, spec, grant)) {
                        granted.add(grant.action() + " " + grant.resource()
                                + (grant.prefixes().isEmpty() ? "" : " " + grant.prefixes()));
                    }
                }
                Set<String> declared = new TreeSet<>();
                for (Permission p : spec.permissions()) {
                    if (p instanceof Permission.SendsTo send
                            && deployment.props().omittedQueues().contains(send.queue())) {
                        continue;
                    }
                    declared.add(p.resource().startsWith("bucket:")
                            ? p.iamAction() + " bucket [" + p.resource().substring("bucket:".length()) + "*]"
                            : p.iamAction() + " " + p.resource());
                }
                assertEquals(declared, granted, () -> spec.name() + " in " + deployment.props().auth());
            }
        }
    }

    @Test
    void roles_whenDeployed_haveNoWildcardActionsOrResources() {
        Synthesized jvm = Synth.jvmIam();
        for (FunctionSpec spec : jvm.props().functions()) {
            for (Policies.Grant grant : Policies.grants(jvm, spec)) {
                assertFalse(grant.action().contains("*"), spec.name() + ": " + grant.shown());
                assertFalse(grant.resource().equals("*"), spec.name() + " may touch anything: " + grant.shown());
                assertTrue(!grant.resource().contains("*") || grant.resource().startsWith("object:"),
                        spec.name() + ": " + grant.shown());
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

    /** What the function's wiring needs, not its code: its own log group, its queue's mapping, its S3 failures. */
    @SuppressWarnings("unchecked")
    private static boolean wiring(Synthesized deployment, FunctionSpec spec, Policies.Grant grant) {
        var logging = (Map<String, Object>) deployment.properties(deployment.functionId(spec.name()))
                .get("LoggingConfig");
        if (grant.resource().equals("other:" + Synthesized.ref(logging.get("LogGroup")))) {
            return grant.action().startsWith("logs:");
        }
        return switch (spec.source()) {
            case EventSource.QueueSource source -> grant.resource().equals("queue:" + source.queue().name())
                    && MAPPING_ACTIONS.contains(grant.action());
            case EventSource.ObjectCreated s3 ->
                    grant.resource().equals("other:" + deployment.objectEventFailuresId());
            case EventSource.Http http -> false;
            case EventSource.Schedule schedule -> false;
        };
    }
}
