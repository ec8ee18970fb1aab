package io.spiderling.catalog;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every configuration key the functions read, declared once. What each means, and its default where it has one, is
 * in the functions' {@code application.properties}, the reference for them (a test keeps the two in step). To add a
 * key: a constant here, its comment there, and the catalog entries of the functions that read it.
 */
public final class ConfigKeys {

    private ConfigKeys() {}

    // Where the AWS APIs are. On AWS only the region is set (by Lambda); the rest is for emulators.
    public static final ConfigKey<String> AWS_REGION = ConfigKey.string("spiderling.aws.region");
    public static final ConfigKey<Optional<URI>> AWS_ENDPOINT_SQS = ConfigKey.optionalUri("spiderling.aws.endpoint.sqs");
    public static final ConfigKey<Optional<URI>> AWS_ENDPOINT_DYNAMODB =
            ConfigKey.optionalUri("spiderling.aws.endpoint.dynamodb");
    public static final ConfigKey<Optional<URI>> AWS_ENDPOINT_S3 = ConfigKey.optionalUri("spiderling.aws.endpoint.s3");
    public static final ConfigKey<Optional<URI>> AWS_ENDPOINT_SECRETSMANAGER =
            ConfigKey.optionalUri("spiderling.aws.endpoint.secretsmanager");
    public static final ConfigKey<Optional<String>> AWS_ACCESS_KEY_ID =
            ConfigKey.optional("spiderling.aws.access-key-id");
    public static final ConfigKey<Optional<String>> AWS_SECRET_ACCESS_KEY =
            ConfigKey.optional("spiderling.aws.secret-access-key");

    // Resource names; see Table, Queue, BucketPrefix and Secret.
    public static final ConfigKey<String> BUCKET = ConfigKey.string("spiderling.bucket");
    public static final ConfigKey<String> TABLES_URLS = ConfigKey.string("spiderling.tables.urls");
    public static final ConfigKey<String> TABLES_BATCHES = ConfigKey.string("spiderling.tables.batches");
    public static final ConfigKey<String> TABLES_SITES = ConfigKey.string("spiderling.tables.sites");
    public static final ConfigKey<String> TABLES_LINKS = ConfigKey.string("spiderling.tables.links");
    public static final ConfigKey<String> QUEUES_FETCH = ConfigKey.string("spiderling.queues.fetch");
    public static final ConfigKey<String> QUEUES_PLAN = ConfigKey.string("spiderling.queues.plan");
    public static final ConfigKey<String> QUEUES_NOTIFY = ConfigKey.string("spiderling.queues.notify");
    public static final ConfigKey<Optional<String>> QUEUES_EVENTS = ConfigKey.optional("spiderling.queues.events");
    public static final ConfigKey<String> QUEUES_WAKE = ConfigKey.string("spiderling.queues.wake");
    public static final ConfigKey<Optional<String>> AUTH_CLIENTS_SECRET =
            ConfigKey.optional("spiderling.auth.clients-secret");

    // Extraction and links.
    public static final ConfigKey<CanonicalScope> EXTRACT_CANONICAL_SCOPE =
            ConfigKey.oneOf("spiderling.extract.canonical-scope", CanonicalScope.class);
    public static final ConfigKey<Boolean> LINKS_ENABLED = ConfigKey.bool("spiderling.links.enabled");

    // Callbacks.
    public static final ConfigKey<List<String>> NOTIFY_ALLOWED_HOSTS = ConfigKey.list("spiderling.notify.allowed-hosts");
    public static final ConfigKey<Boolean> NOTIFY_ALLOW_HTTP = ConfigKey.bool("spiderling.notify.allow-http");

    // Who may call the API, and the clients' webhook secrets.
    public static final ConfigKey<AuthMode> AUTH_MODE = ConfigKey.oneOf("spiderling.auth.mode", AuthMode.class);
    public static final ConfigKey<String> AUTH_CLIENT_CLAIM = ConfigKey.string("spiderling.auth.client-claim");
    public static final ConfigKey<Optional<String>> AUTH_CLIENTS_FILE = ConfigKey.optional("spiderling.auth.clients-file");
    public static final ConfigKey<Duration> AUTH_CLIENTS_CACHE = ConfigKey.duration("spiderling.auth.clients-cache");
    // Who is an admin in gateway mode (ADR 10): besides the clients file's flag.
    public static final ConfigKey<String> AUTH_GROUPS_CLAIM = ConfigKey.string("spiderling.auth.groups-claim");
    public static final ConfigKey<List<String>> AUTH_ADMIN_GROUPS = ConfigKey.optionalList("spiderling.auth.admin-groups");
    public static final ConfigKey<List<String>> AUTH_ADMIN_ROLES = ConfigKey.optionalList("spiderling.auth.admin-roles");

    // Operator controls (issue 25).
    public static final ConfigKey<Long> QUOTA_URLS_PER_DAY = ConfigKey.longValue("spiderling.quota.urls-per-day");

    // Sitemaps (ADR 19): what one sitemap, one index and one batch may hold.
    public static final ConfigKey<Integer> SITEMAPS_MAX_BYTES = ConfigKey.integer("spiderling.sitemaps.max-bytes");
    public static final ConfigKey<Integer> SITEMAPS_MAX_URLS_PER_SITEMAP =
            ConfigKey.integer("spiderling.sitemaps.max-urls-per-sitemap");
    public static final ConfigKey<Integer> SITEMAPS_MAX_INDEX_DEPTH =
            ConfigKey.integer("spiderling.sitemaps.max-index-depth");
    public static final ConfigKey<Integer> SITEMAPS_MAX_PER_INDEX = ConfigKey.integer("spiderling.sitemaps.max-per-index");
    public static final ConfigKey<Long> SITEMAPS_MAX_PER_BATCH = ConfigKey.longValue("spiderling.sitemaps.max-per-batch");
    public static final ConfigKey<Long> SITEMAPS_MAX_URLS_PER_BATCH =
            ConfigKey.longValue("spiderling.sitemaps.max-urls-per-batch");

    // The fetch.
    public static final ConfigKey<String> FETCH_USER_AGENT = ConfigKey.string("spiderling.fetch.user-agent");
    public static final ConfigKey<Duration> FETCH_CONNECT_TIMEOUT = ConfigKey.duration("spiderling.fetch.connect-timeout");
    public static final ConfigKey<Duration> FETCH_FIRST_BYTE_TIMEOUT =
            ConfigKey.duration("spiderling.fetch.first-byte-timeout");
    public static final ConfigKey<Duration> FETCH_TOTAL_TIMEOUT = ConfigKey.duration("spiderling.fetch.total-timeout");
    public static final ConfigKey<Long> FETCH_MAX_BODY_BYTES = ConfigKey.longValue("spiderling.fetch.max-body-bytes");
    public static final ConfigKey<Integer> FETCH_MAX_REDIRECTS = ConfigKey.integer("spiderling.fetch.max-redirects");
    public static final ConfigKey<String> FETCH_ROBOTS_AGENT = ConfigKey.string("spiderling.fetch.robots-agent");
    public static final ConfigKey<Boolean> FETCH_ALLOW_LOOPBACK = ConfigKey.bool("spiderling.fetch.allow-loopback");
    public static final ConfigKey<Optional<String>> FETCH_OPT_OUT_FILE = ConfigKey.optional("spiderling.fetch.opt-out-file");
    public static final ConfigKey<Optional<String>> FETCH_RATE_OVERRIDES_FILE =
            ConfigKey.optional("spiderling.fetch.rate-overrides-file");
    public static final ConfigKey<Integer> FETCH_MAX_IN_FLIGHT_PER_SITE =
            ConfigKey.integer("spiderling.fetch.max-in-flight-per-site");
    public static final ConfigKey<Duration> FETCH_ROBOTS_RETRY_BASE =
            ConfigKey.duration("spiderling.fetch.robots-retry-base");
    public static final ConfigKey<Duration> FETCH_THROTTLE_PAUSE = ConfigKey.duration("spiderling.fetch.throttle-pause");
    public static final ConfigKey<Duration> FETCH_RETRY_BASE = ConfigKey.duration("spiderling.fetch.retry-base");

    // Wire captures, for WARC.
    public static final ConfigKey<Boolean> CAPTURE_ENABLED = ConfigKey.bool("spiderling.capture.enabled");

    // Web Bot Auth (ADR 21): every request signed, and the key directory the signatures point to.
    public static final ConfigKey<Boolean> SIGNING_ENABLED = ConfigKey.bool("spiderling.signing.enabled");
    public static final ConfigKey<Optional<URI>> SIGNING_AGENT = ConfigKey.optionalUri("spiderling.signing.agent");
    public static final ConfigKey<Optional<String>> SIGNING_KEYS_FILE =
            ConfigKey.optional("spiderling.signing.keys-file");
    public static final ConfigKey<Optional<String>> SIGNING_KEYS_SECRET =
            ConfigKey.optional("spiderling.signing.keys-secret");
    public static final ConfigKey<Duration> SIGNING_KEYS_CACHE = ConfigKey.duration("spiderling.signing.keys-cache");
    public static final ConfigKey<Duration> SIGNING_VALIDITY = ConfigKey.duration("spiderling.signing.validity");

    // The frontier.
    public static final ConfigKey<Integer> FRONTIER_DEPTH_CAP = ConfigKey.integer("spiderling.frontier.depth-cap");
    public static final ConfigKey<Duration> FRONTIER_SPACING = ConfigKey.duration("spiderling.frontier.spacing");
    public static final ConfigKey<Duration> FRONTIER_LOST_AFTER = ConfigKey.duration("spiderling.frontier.lost-after");

    // Uploaded manifests, and the sweep that plans a manifest whose event was lost.
    public static final ConfigKey<Duration> UPLOADS_URL_TTL = ConfigKey.duration("spiderling.uploads.url-ttl");
    public static final ConfigKey<Long> UPLOADS_CHUNK_BYTES = ConfigKey.longValue("spiderling.uploads.chunk-bytes");
    public static final ConfigKey<Duration> SWEEP_UNPLANNED_AFTER =
            ConfigKey.duration("spiderling.sweep.unplanned-after");

    // Logs: JSON lines on Lambda, read by every function.
    public static final ConfigKey<LogFormat> LOG_FORMAT = ConfigKey.oneOf("spiderling.log.format", LogFormat.class);

    /** The AWS keys a function reads once it uses any AWS API: the region, and local credentials. */
    static final List<ConfigKey<?>> AWS_COMMON = List.of(AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY);

    /** Every key above, in declaration order. */
    public static List<ConfigKey<?>> all() {
        List<ConfigKey<?>> keys = new ArrayList<>();
        for (Field field : ConfigKeys.class.getDeclaredFields()) {
            if (Modifier.isPublic(field.getModifiers()) && Modifier.isStatic(field.getModifiers())
                    && field.getType() == ConfigKey.class) {
                try {
                    keys.add((ConfigKey<?>) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return List.copyOf(keys);
    }
}
