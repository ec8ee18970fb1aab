package io.spiderling.infra;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.DynamoDbAction;
import io.spiderling.catalog.EventSource;
import io.spiderling.catalog.FunctionSpec;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Queue;
import io.spiderling.catalog.S3Action;
import io.spiderling.catalog.Table;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;

/**
 * The three deployments the tests look at, each synthesized once per test JVM (a synth costs seconds):
 * <ul>
 *   <li>{@link #jvmIam()}: a JVM build with IAM auth and every default, under the AwsSolutions checks;
 *   <li>{@link #jvmJwt()}: a JVM build with JWT auth and every option set to something other than its default;
 *   <li>{@link #nativeWithExtraEntries()}: a native x86_64 build of the catalog plus two entries it does not have.
 * </ul>
 */
final class Synth {

    static final String PREFIX = "spiderling";

    /** Options of {@link #jvmJwt()}, each unlike its default. */
    static final URI JWT_ISSUER = URI.create("https://auth.example.com/");
    static final List<String> JWT_AUDIENCES = List.of("spiderling-api", "spiderling-cli");
    static final String CLIENT_CLAIM = "client_id";
    static final String USER_AGENT = "examplebot/2.0 (+https://crawler.example.com/)";
    static final String ROBOTS_AGENT = "examplebot";
    static final List<String> CALLBACK_HOSTS = List.of("hooks.example.com", "*.example.org");
    static final List<String> ADMIN_GROUPS = List.of("operators", "sre");
    static final List<String> ADMIN_ROLES = List.of("arn:aws:iam::123456789012:role/spiderling-operator");
    static final long QUOTA_URLS_PER_DAY = 100_000;
    static final Duration LOST_AFTER = Duration.ofMinutes(25);
    static final int FETCH_CONCURRENCY = 200;
    static final Duration CONTENT_EXPIRY = Duration.ofDays(365);
    static final int LOG_RETENTION_DAYS = 14;
    static final double THROTTLE_RATE = 10;
    static final int THROTTLE_BURST = 20;
    static final Duration FRONTIER_LAG_ALARM = Duration.ofMinutes(30);

    /** A scheduled function the catalog does not have, reading a table, a prefix and sending to a queue. */
    static final FunctionSpec REPORT = FunctionSpec.named("report")
            .description("Test entry: a scheduled report")
            .source(EventSource.every(Duration.ofMinutes(5)))
            .memoryMb(384).timeout(Duration.ofSeconds(20))
            .settings(ConfigKeys.LINKS_ENABLED)
            .table(Table.URLS, DynamoDbAction.GET_ITEM)
            .objects(BucketPrefix.CONTENT, S3Action.GET_OBJECT)
            .sends(Queue.NOTIFY)
            .sampleEvents("eventbridge-sweep.json")
            .build();

    /** A listener on the events queue, which nothing in the catalog consumes. */
    static final FunctionSpec LISTEN = FunctionSpec.named("listen")
            .description("Test entry: a listener on the events queue")
            .source(EventSource.queue(Queue.EVENTS).batchSize(5).reportingBatchItemFailures())
            .memoryMb(256).timeout(Duration.ofSeconds(5))
            .table(Table.BATCHES, DynamoDbAction.UPDATE_ITEM)
            .sampleEvents("sqs-notify.json")
            .build();

    private static Synthesized jvmIam;
    private static Synthesized jvmJwt;
    private static Synthesized nativeWithExtraEntries;

    private Synth() {}

    static synchronized Synthesized jvmIam() {
        if (jvmIam == null) {
            jvmIam = synthesize(() -> SpiderlingStackProps.builder()
                    .artifact(TestArtifacts.jvmZip())
                    .auth(ApiAuth.iam())
                    .build(), true);
        }
        return jvmIam;
    }

    static synchronized Synthesized jvmJwt() {
        if (jvmJwt == null) {
            jvmJwt = synthesize(() -> SpiderlingStackProps.builder()
                    .artifact(TestArtifacts.jvmZip())
                    .architecture(CpuArchitecture.X86_64)
                    .auth(ApiAuth.jwt(JWT_ISSUER, JWT_AUDIENCES))
                    .clientClaim(CLIENT_CLAIM)
                    .userAgent(USER_AGENT)
                    .robotsAgent(ROBOTS_AGENT)
                    .callbackHosts(CALLBACK_HOSTS)
                    .adminGroups(ADMIN_GROUPS)
                    .adminRoles(ADMIN_ROLES)
                    .quotaUrlsPerDay(QUOTA_URLS_PER_DAY)
                    .lostAfter(LOST_AFTER)
                    .siteList(ConfigKeys.FETCH_RATE_OVERRIDES_FILE,
                            TestArtifacts.textFile("rates", "example.com 2\n"))
                    .siteList(ConfigKeys.FETCH_OPT_OUT_FILE, TestArtifacts.textFile("opt-out", "example.net\n"))
                    .withoutQueue(Queue.EVENTS)
                    .deletionProtection(true)
                    .bucketVersioning(true)
                    .contentExpiry(CONTENT_EXPIRY)
                    .maxConcurrency(FunctionNames.FETCH, FETCH_CONCURRENCY)
                    .logRetentionDays(LOG_RETENTION_DAYS)
                    .throttle(THROTTLE_RATE, THROTTLE_BURST)
                    .frontierLagAlarm(FRONTIER_LAG_ALARM)
                    .build(), false);
        }
        return jvmJwt;
    }

    static synchronized Synthesized nativeWithExtraEntries() {
        if (nativeWithExtraEntries == null) {
            List<FunctionSpec> functions = new ArrayList<>(Catalog.FUNCTIONS);
            functions.add(REPORT);
            functions.add(LISTEN);
            nativeWithExtraEntries = synthesize(() -> SpiderlingStackProps.builder()
                    .artifact(TestArtifacts.nativeZip(TestArtifacts.EM_X86_64))
                    .auth(ApiAuth.iam())
                    .functions(functions)
                    .build(), false);
        }
        return nativeWithExtraEntries;
    }

    private static Synthesized synthesize(Supplier<SpiderlingStackProps> props, boolean nag) {
        App app = new App();
        SpiderlingStackProps built = props.get();
        SpiderlingStack stack = new SpiderlingStack(app, "Spiderling", built);
        if (nag) {
            Aspects.of(app).add(new AwsSolutionsChecks());
        }
        return Synthesized.of(built, stack);
    }
}
