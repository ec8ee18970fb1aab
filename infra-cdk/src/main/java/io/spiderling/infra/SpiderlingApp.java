package io.spiderling.infra;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.Catalog;
import io.spiderling.catalog.FunctionNames;
import io.spiderling.catalog.Queue;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;

/**
 * The CDK app: reads the deployment's choices from context, checks them, and synthesizes one
 * {@link SpiderlingStack} under the AwsSolutions checks of cdk-nag (an unsuppressed finding fails the synth). Every
 * context key, with its default, is in infra-cdk/README.md.
 */
public final class SpiderlingApp {

    static final String ARTIFACT = "artifact";
    static final String AUTH = "auth";
    static final String JWT_ISSUER = "jwtIssuer";
    static final String JWT_AUDIENCE = "jwtAudience";
    static final String CLIENT_CLAIM = "clientClaim";
    static final String STACK_NAME = "stackName";
    static final String PREFIX = "prefix";
    static final String ARCHITECTURE = "architecture";
    static final String USER_AGENT = "userAgent";
    static final String ROBOTS_AGENT = "robotsAgent";
    static final String CALLBACK_HOSTS = "callbackHosts";
    static final String ADMIN_GROUPS = "adminGroups";
    static final String ADMIN_ROLES = "adminRoles";
    static final String QUOTA_URLS_PER_DAY = "quotaUrlsPerDay";
    static final String LOST_AFTER = "lostAfter";
    static final String RATE_OVERRIDES_FILE = "rateOverridesFile";
    static final String OPT_OUT_FILE = "optOutFile";
    static final String LOG_RETENTION_DAYS = "logRetentionDays";
    static final String THROTTLE_RATE_LIMIT = "throttleRateLimit";
    static final String THROTTLE_BURST_LIMIT = "throttleBurstLimit";
    static final String EVENTS_QUEUE = "eventsQueue";
    static final String DELETION_PROTECTION = "deletionProtection";
    static final String BUCKET_VERSIONING = "bucketVersioning";
    static final String CONTENT_EXPIRY_DAYS = "contentExpiryDays";
    static final String FETCH_CONCURRENCY = "fetchConcurrency";
    static final String PLAN_CONCURRENCY = "planConcurrency";
    static final String EXTRACT_CONCURRENCY = "extractConcurrency";
    static final String CANONICALIZE_CONCURRENCY = "canonicalizeConcurrency";
    static final String FRONTIER_LAG_ALARM_SECONDS = "frontierLagAlarmSeconds";

    static final String DEFAULT_STACK_NAME = "Spiderling";

    private SpiderlingApp() {}

    public static void main(String[] args) {
        App app = new App();
        AppContext context = new AppContext(app.getNode()::tryGetContext);
        try {
            new SpiderlingStack(app, context.text(STACK_NAME, DEFAULT_STACK_NAME), props(context));
        } catch (IllegalArgumentException e) {
            // A wrong choice, named with its context key: say it plainly instead of through a jsii stack trace.
            System.err.println("spiderling: " + e.getMessage());
            System.exit(2);
        }
        Aspects.of(app).add(new AwsSolutionsChecks());
        app.synth();
    }

    /** The deployment's props from context. */
    static SpiderlingStackProps props(AppContext context) {
        SpiderlingStackProps.Builder props = SpiderlingStackProps.builder()
                .artifact(context.file(ARTIFACT).orElseThrow(() -> AppContext.problem(ARTIFACT,
                        "is required: the path to Quarkus's function.zip (functions/lambdas/target/function.zip)")))
                .auth(auth(context))
                .resourcePrefix(context.text(PREFIX, "spiderling"))
                .clientClaim(context.text(CLIENT_CLAIM, "sub"))
                .logRetentionDays(context.integer(LOG_RETENTION_DAYS, 30, 1, 3653))
                .throttle(context.positiveNumber(THROTTLE_RATE_LIMIT, 50),
                        context.integer(THROTTLE_BURST_LIMIT, 100, 1, 5000))
                .deletionProtection(context.bool(DELETION_PROTECTION, false))
                .bucketVersioning(context.bool(BUCKET_VERSIONING, false))
                .frontierLagAlarm(Duration.ofSeconds(context.integer(FRONTIER_LAG_ALARM_SECONDS, 900, 60,
                        86_400)));
        context.text(ARCHITECTURE).map(SpiderlingApp::architecture).ifPresent(props::architecture);
        context.text(USER_AGENT).ifPresent(props::userAgent);
        context.text(ROBOTS_AGENT).ifPresent(props::robotsAgent);
        context.list(CALLBACK_HOSTS).ifPresent(props::callbackHosts);
        context.list(ADMIN_GROUPS).ifPresent(props::adminGroups);
        context.list(ADMIN_ROLES).ifPresent(props::adminRoles);
        context.text(QUOTA_URLS_PER_DAY).map(text -> {
            try {
                return ConfigKeys.QUOTA_URLS_PER_DAY.read(Optional.of(text));
            } catch (IllegalArgumentException e) {
                throw AppContext.problem(QUOTA_URLS_PER_DAY, "must be a whole number of URLs (0: none), was '" + text
                        + "'");
            }
        }).ifPresent(urls -> {
            if (urls < 0) {
                throw AppContext.problem(QUOTA_URLS_PER_DAY, "must not be negative, was " + urls);
            }
            props.quotaUrlsPerDay(urls);
        });
        context.text(LOST_AFTER).map(text -> {
            try {
                return ConfigKeys.FRONTIER_LOST_AFTER.read(Optional.of(text));
            } catch (IllegalArgumentException e) {
                throw AppContext.problem(LOST_AFTER, "must be a duration (say 20m or PT20M), was '" + text + "'");
            }
        }).ifPresent(props::lostAfter);
        context.file(RATE_OVERRIDES_FILE).ifPresent(file -> props.siteList(ConfigKeys.FETCH_RATE_OVERRIDES_FILE,
                file));
        context.file(OPT_OUT_FILE).ifPresent(file -> props.siteList(ConfigKeys.FETCH_OPT_OUT_FILE, file));
        if (!context.bool(EVENTS_QUEUE, true)) {
            props.withoutQueue(Queue.EVENTS);
        }
        context.integer(CONTENT_EXPIRY_DAYS, 1, 36_500).map(Duration::ofDays).ifPresent(props::contentExpiry);
        context.integer(FETCH_CONCURRENCY, 2, 1000)
                .ifPresent(limit -> props.maxConcurrency(FunctionNames.FETCH, limit));
        context.integer(PLAN_CONCURRENCY, 2, 1000)
                .ifPresent(limit -> props.maxConcurrency(FunctionNames.PLAN, limit));
        context.integer(EXTRACT_CONCURRENCY, 1, Catalog.ACCOUNT_CONCURRENCY - Catalog.UNRESERVED_MINIMUM)
                .ifPresent(limit -> props.reservedConcurrency(FunctionNames.EXTRACT, limit));
        context.integer(CANONICALIZE_CONCURRENCY, 1, Catalog.ACCOUNT_CONCURRENCY - Catalog.UNRESERVED_MINIMUM)
                .ifPresent(limit -> props.reservedConcurrency(FunctionNames.CANONICALIZE, limit));
        return props.build();
    }

    private static ApiAuth auth(AppContext context) {
        String mode = context.required(AUTH, "jwt (an OIDC issuer's tokens) or iam (SigV4-signed requests)");
        return switch (mode.toLowerCase(Locale.ROOT)) {
            case "jwt" -> {
                String issuer = context.required(JWT_ISSUER, "with auth=jwt, the https URL of the token issuer");
                List<String> audiences = context.list(JWT_AUDIENCE).filter(list -> !list.isEmpty())
                        .orElseThrow(() -> AppContext.problem(JWT_AUDIENCE,
                                "is required: with auth=jwt, the accepted audiences, comma-separated"));
                try {
                    yield ApiAuth.jwt(URI.create(issuer), audiences);
                } catch (IllegalArgumentException e) {
                    throw AppContext.problem(JWT_ISSUER, "must be an https URL, was '" + issuer + "'");
                }
            }
            case "iam" -> ApiAuth.iam();
            default -> throw AppContext.problem(AUTH, "must be jwt or iam, was '" + mode + "'");
        };
    }

    private static CpuArchitecture architecture(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "arm64" -> CpuArchitecture.ARM_64;
            case "x86_64" -> CpuArchitecture.X86_64;
            default -> throw AppContext.problem(ARCHITECTURE, "must be arm64 or x86_64, was '" + text + "'");
        };
    }
}
