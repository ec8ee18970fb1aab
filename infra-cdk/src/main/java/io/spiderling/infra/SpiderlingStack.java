package io.spiderling.infra;

import io.spiderling.catalog.AuthMode;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.constructs.Construct;

/**
 * One Spiderling deployment, derived from the catalog: {@link Storage}, {@link Queues}, {@link Functions} (with
 * their environments and grants), {@link EventSources}, the {@link HttpApiConstruct HTTP API} and
 * {@link Operations}. Adding a catalog entry is enough for its function, event source, environment and grants to
 * appear here.
 */
public final class SpiderlingStack extends Stack {

    /**
     * Feature flags the stack relies on, set on the stack itself so the tests and {@code cdk synth} agree without a
     * cdk.json. recognizeLayerVersion: a changed site-lists layer must publish a new version (otherwise the alias
     * keeps serving the old lists). serverAccessLogsUseBucketPolicy: the access-log bucket admits S3's log delivery
     * by bucket policy, since ACLs are disabled on new buckets.
     */
    static final Map<String, Object> FEATURE_FLAGS = Map.of(
            "@aws-cdk/aws-lambda:recognizeLayerVersion", true,
            "@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy", true);

    /** {@code spiderling.auth.mode} on AWS: an API Gateway authorizer has already checked the caller (ADR 10). */
    static final String GATEWAY_AUTH_MODE = AuthMode.GATEWAY.wireName();

    public SpiderlingStack(Construct scope, String id, SpiderlingStackProps props) {
        super(scope, id, StackProps.builder()
                .description("Spiderling: a polite serverless URL fetcher (infra-cdk, derived from the catalog)")
                .build());
        FEATURE_FLAGS.forEach(getNode()::setContext);

        FunctionArtifact artifact = FunctionArtifact.inspect(props.artifact());
        CpuArchitecture architecture = architecture(artifact, props);
        String prefix = props.resourcePrefix();

        Storage storage = new Storage(this, "Storage", Storage.StorageProps.builder()
                .resourcePrefix(prefix)
                .deletionProtection(props.deletionProtection())
                .versioned(props.bucketVersioning())
                .contentExpiry(props.contentExpiry())
                .build());
        Queues queues = new Queues(this, "Queues", Queues.QueuesProps.builder()
                .resourcePrefix(prefix)
                .omitted(props.omittedQueues())
                .consumed(consumedQueues(props))
                .build());
        Optional<SiteLists> siteLists = props.siteLists().isEmpty() ? Optional.empty()
                : Optional.of(new SiteLists(this, "SiteLists", props.siteLists()));

        Functions functions = new Functions(this, "Functions", Functions.FunctionsProps.builder()
                .functions(props.functions())
                .resourcePrefix(prefix)
                .artifact(artifact)
                .architecture(architecture)
                .logRetentionDays(props.logRetentionDays())
                .config(configValues(props, storage, queues, siteLists))
                .siteLists(siteLists)
                .storage(storage)
                .queues(queues)
                .reservedConcurrency(reservedConcurrency(props))
                .build());
        EventSources events = new EventSources(this, "EventSources", EventSources.EventSourcesProps.builder()
                .functions(functions)
                .queues(queues)
                .storage(storage)
                .resourcePrefix(prefix)
                .maxConcurrency(maxConcurrency(props))
                .build());
        HttpApiConstruct api = new HttpApiConstruct(this, "HttpApi", HttpApiConstruct.HttpApiProps.builder()
                .functions(functions)
                .auth(props.auth())
                .resourcePrefix(prefix)
                .throttle(props.throttleRateLimit(), props.throttleBurstLimit())
                .logRetentionDays(props.logRetentionDays())
                .build());
        Operations operations = new Operations(this, "Operations", Operations.OperationsProps.builder()
                .functions(functions)
                .queues(queues)
                .objectEventFailures(events.objectEventFailures())
                .resourcePrefix(prefix)
                .frontierLagAlarm(props.frontierLagAlarm())
                .build());

        output("ApiUrl", api.url(), "The HTTP API; every route needs the authorizer's credentials but the"
                + " Web Bot Auth key directory, which any site may read");
        queues.queue(Queue.INGEST).ifPresent(q -> output("IngestQueueUrl", q.getQueueUrl(),
                "Send URLs here (aws sqs send-message); batches belong to the client sqs"));
        output("BucketName", storage.bucket().getBucketName(), "Manifests, uploads and fetched bodies");
        for (Table table : Table.all()) {
            output(Names.constructId(table.suffix()) + "TableName", storage.table(table).getTableName(),
                    "DynamoDB table " + table.suffix());
        }
        for (Secret secret : Secret.all()) {
            output(Names.constructId(secret.suffix()) + "SecretArn", storage.secret(secret).getSecretArn(),
                    "Put the " + secret.suffix() + " file here (aws secretsmanager put-secret-value)");
        }
        output("AlarmTopicArn", operations.topic().getTopicArn(), "Subscribe to get every alarm");
    }

    /**
     * The value of every key this deployment sets. Names and URLs come from the resources; the rest from the
     * props. Keys left unset keep the functions' own defaults (application.properties).
     */
    private static ConfigValues configValues(SpiderlingStackProps props, Storage storage, Queues queues,
            Optional<SiteLists> siteLists) {
        ConfigValues config = new ConfigValues();
        for (Table table : Table.all()) {
            config.set(table.configKey(), storage.table(table).getTableName());
        }
        queues.all().forEach((queue, created) -> queue.configKey()
                .ifPresent(key -> config.set(key, created.getQueueUrl())));
        config.set(ConfigKeys.BUCKET, storage.bucket().getBucketName());
        for (Secret secret : Secret.all()) {
            config.set(secret.configKey(), storage.secret(secret).getSecretArn());
        }
        config.set(ConfigKeys.AUTH_MODE, GATEWAY_AUTH_MODE);
        config.set(ConfigKeys.AUTH_CLIENT_CLAIM, props.clientClaim());
        props.userAgent().ifPresent(value -> config.set(ConfigKeys.FETCH_USER_AGENT, value));
        props.robotsAgent().ifPresent(value -> config.set(ConfigKeys.FETCH_ROBOTS_AGENT, value));
        props.callbackHosts().ifPresent(hosts -> config.set(ConfigKeys.NOTIFY_ALLOWED_HOSTS, String.join(",", hosts)));
        if (!props.adminGroups().isEmpty()) {
            config.set(ConfigKeys.AUTH_ADMIN_GROUPS, String.join(",", props.adminGroups()));
        }
        if (!props.adminRoles().isEmpty()) {
            config.set(ConfigKeys.AUTH_ADMIN_ROLES, String.join(",", props.adminRoles()));
        }
        props.quotaUrlsPerDay().ifPresent(urls -> config.set(ConfigKeys.QUOTA_URLS_PER_DAY, Long.toString(urls)));
        props.lostAfter().ifPresent(after -> config.set(ConfigKeys.FRONTIER_LOST_AFTER, after.toString()));
        siteLists.ifPresent(lists -> lists.paths().forEach(config::set));
        return config;
    }

    /** A native build runs only on the CPU it was compiled for; a JVM build on the deployment's choice (arm64). */
    private static CpuArchitecture architecture(FunctionArtifact artifact, SpiderlingStackProps props) {
        CpuArchitecture chosen = props.architecture().orElse(CpuArchitecture.ARM_64);
        CpuArchitecture actual = artifact.architecture(chosen);
        if (props.architecture().isPresent() && actual != chosen) {
            throw new IllegalArgumentException(props.artifact() + " is a native build for " + actual
                    + ", but the deployment asks for " + chosen + "; drop the architecture or rebuild");
        }
        return actual;
    }

    private static Set<Queue> consumedQueues(SpiderlingStackProps props) {
        Set<Queue> consumed = EnumSet.noneOf(Queue.class);
        for (FunctionSpec function : props.functions()) {
            if (function.source() instanceof EventSource.QueueSource source) {
                consumed.add(source.queue());
            }
        }
        return consumed;
    }

    private static Map<String, Integer> maxConcurrency(SpiderlingStackProps props) {
        Map<String, Integer> limits = new LinkedHashMap<>();
        for (FunctionSpec function : props.functions()) {
            if (function.source() instanceof EventSource.QueueSource) {
                props.maxConcurrency(function).ifPresent(limit -> limits.put(function.name(), limit));
            }
        }
        return limits;
    }

    private static Map<String, Integer> reservedConcurrency(SpiderlingStackProps props) {
        Map<String, Integer> reserved = new LinkedHashMap<>();
        for (FunctionSpec function : props.functions()) {
            props.reservedConcurrency(function).ifPresent(limit -> reserved.put(function.name(), limit));
        }
        return reserved;
    }

    private void output(String id, String value, String description) {
        CfnOutput.Builder.create(this, id).value(value).description(description).build();
    }
}
