package io.spiderling.infra;

import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Permission;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.iam.PolicyStatement;

/**
 * A function's IAM permissions, from its catalog entry's {@link Permission}s and nothing else: each action its code
 * calls, on the one table, index, bucket prefix, queue or secret it calls it on. CDK's grant helpers are not used:
 * they grant by read or write, so every reader could scan and every writer batch-write, and every S3 writer could
 * set legal holds. What an event source needs (consuming its queue, sending failed S3 events to their queue) is
 * granted where the source is wired, by CDK, as the mapping's own.
 *
 * <p>infra-cdk's {@code LeastPrivilegeTest} holds these statements to the calls the end-to-end suites record.
 */
final class CatalogGrants {

    private CatalogGrants() {}

    static void apply(FunctionSpec function, IGrantable grantee, Storage storage, Queues queues) {
        for (PolicyStatement statement : statements(function, storage, queues)) {
            grantee.getGrantPrincipal().addToPrincipalPolicy(statement);
        }
    }

    /** One statement per resource, with the actions the entry declares on it, in a stable order. */
    static List<PolicyStatement> statements(FunctionSpec function, Storage storage, Queues queues) {
        Map<String, Set<String>> actions = new TreeMap<>();
        Map<String, Permission> byResource = new TreeMap<>();
        for (Permission permission : function.permissions()) {
            if (permission instanceof Permission.SendsTo send && queues.queue(send.queue()).isEmpty()) {
                continue; // a queue the deployment left out (the events queue) is not sent to: its key is unset too
            }
            actions.computeIfAbsent(permission.resource(), r -> new TreeSet<>()).add(permission.iamAction());
            byResource.putIfAbsent(permission.resource(), permission);
        }
        List<PolicyStatement> statements = new ArrayList<>();
        actions.forEach((resource, granted) -> statements.add(statement(byResource.get(resource),
                List.copyOf(granted), storage, queues)));
        return statements;
    }

    private static PolicyStatement statement(Permission permission, List<String> actions, Storage storage,
            Queues queues) {
        PolicyStatement.Builder statement = PolicyStatement.Builder.create().actions(actions);
        switch (permission) {
            case Permission.OnTable t -> statement.resources(List.of(storage.table(t.table()).getTableArn()
                    + t.index().map(index -> "/index/" + index).orElse("")));
            case Permission.OnObjects o when o.action().onBucket() -> statement
                    .resources(List.of(storage.bucket().getBucketArn()))
                    .conditions(Map.of("StringLike", Map.of("s3:prefix", List.of(o.prefix().prefix() + "*"))));
            case Permission.OnObjects o -> statement.resources(List.of(
                    storage.bucket().arnForObjects(o.prefix().prefix() + "*")));
            case Permission.SendsTo s -> statement.resources(List.of(queues.queue(s.queue()).orElseThrow()
                    .getQueueArn()));
            case Permission.ReadsSecret r -> statement.resources(List.of(storage.secret(r.secret())
                    .getSecretArn()));
        }
        return statement.build();
    }

    /**
     * The wildcards the statements above put in {@code function}'s policy, as cdk-nag names them: the objects under
     * a prefix are {@code arn/prefix/*}. Computed from the same catalog entry, so a wildcard it does not explain is
     * never accepted.
     */
    static List<String> wildcards(FunctionSpec function, Storage storage) {
        Set<String> findings = new LinkedHashSet<>();
        for (Permission permission : function.permissions()) {
            if (permission instanceof Permission.OnObjects o && !o.action().onBucket()) {
                findings.add("Resource::<" + Nag.logicalId(storage.bucket()) + ".Arn>/" + o.prefix().prefix() + "*");
            }
        }
        return List.copyOf(findings);
    }
}
