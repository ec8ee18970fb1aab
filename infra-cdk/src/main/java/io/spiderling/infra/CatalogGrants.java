package io.spiderling.infra;

import io.spiderling.catalog.Access;
import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.s3.IBucket;

/**
 * A function's IAM permissions, from its catalog entry and nothing else: the tables it names with the access it
 * names, the queues it sends to, its bucket prefixes, the secrets it reads. What its event source needs (consuming
 * its queue, sending failed S3 events to their queue) is granted where the source is wired, by CDK.
 */
final class CatalogGrants {

    /** The wildcard actions of CDK's S3 object grants: grantRead, grantPut, and grantReadWrite's delete. */
    private static final List<String> S3_READ_ACTIONS = List.of("s3:GetObject*", "s3:GetBucket*", "s3:List*");
    private static final List<String> S3_WRITE_ACTIONS = List.of("s3:Abort*");
    private static final List<String> S3_DELETE_ACTIONS = List.of("s3:DeleteObject*");

    private CatalogGrants() {}

    static void apply(FunctionSpec function, IGrantable grantee, Storage storage, Queues queues) {
        for (Map.Entry<Table, Access> entry : function.tables().entrySet()) {
            ITable table = storage.table(entry.getKey());
            switch (entry.getValue()) {
                case READ -> table.grantReadData(grantee);
                case WRITE -> table.grantWriteData(grantee);
                case READ_WRITE -> table.grantReadWriteData(grantee);
            }
        }
        for (Queue queue : function.sends()) {
            // A queue the deployment left out (the events queue) is not sent to: its key is unset too.
            queues.queue(queue).ifPresent(q -> q.grantSendMessages(grantee));
        }
        IBucket bucket = storage.bucket();
        for (Map.Entry<BucketPrefix, Access> entry : function.objects().entrySet()) {
            String objects = entry.getKey().prefix() + "*";
            switch (entry.getValue()) {
                case READ -> bucket.grantRead(grantee, objects);
                case WRITE -> bucket.grantPut(grantee, objects);
                case READ_WRITE -> bucket.grantReadWrite(grantee, objects);
            }
        }
        for (Secret secret : function.secrets()) {
            storage.secret(secret).grantRead(grantee);
        }
    }

    /**
     * The wildcards the grants above put in {@code function}'s policy, as cdk-nag names them: objects under a
     * prefix need {@code arn/prefix/*}, CDK's S3 grants use action wildcards, and a table's local indexes are
     * granted as {@code arn/index/*}. Computed from the same catalog entry, so a wildcard it does not explain is
     * never accepted.
     */
    static List<String> wildcards(FunctionSpec function, Storage storage) {
        Set<String> findings = new LinkedHashSet<>();
        for (Map.Entry<BucketPrefix, Access> entry : function.objects().entrySet()) {
            findings.add("Resource::<" + Nag.logicalId(storage.bucket()) + ".Arn>/" + entry.getKey().prefix() + "*");
            Access access = entry.getValue();
            if (access.reads()) {
                S3_READ_ACTIONS.forEach(action -> findings.add("Action::" + action));
            }
            if (access.writes()) {
                S3_WRITE_ACTIONS.forEach(action -> findings.add("Action::" + action));
            }
            if (access == Access.READ_WRITE) {
                S3_DELETE_ACTIONS.forEach(action -> findings.add("Action::" + action));
            }
        }
        for (Table table : function.tables().keySet()) {
            if (!table.localIndexes().isEmpty()) {
                findings.add("Resource::<" + Nag.logicalId(storage.table(table)) + ".Arn>/index/*");
            }
        }
        return List.copyOf(findings);
    }
}
