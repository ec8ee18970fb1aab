package io.spiderling.infra;

import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.Secret;
import io.spiderling.catalog.Table;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.SecretValue;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.dynamodb.LocalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.constructs.Construct;

/**
 * Where Spiderling keeps state: one DynamoDB table per {@link Table}, the one bucket with its {@link BucketPrefix}
 * lifecycle, and one Secrets Manager secret per {@link Secret}. Tables and the bucket hold the crawl, so they are
 * retained when the stack is deleted.
 */
public final class Storage extends Construct {

    /** Parts of a multipart upload nobody completed within this are removed; presigned uploads live 15 minutes. */
    static final Duration ABANDONED_UPLOADS = Duration.ofDays(1);

    /** Server access logs are kept this long; they answer "who read this object" for presigned downloads. */
    static final Duration ACCESS_LOG_EXPIRY = Duration.ofDays(90);

    private final Map<Table, ITable> tables = new EnumMap<>(Table.class);
    private final Map<Secret, ISecret> secrets = new EnumMap<>(Secret.class);
    private final Bucket bucket;

    public Storage(Construct scope, String id, StorageProps props) {
        super(scope, id);
        for (Table table : Table.all()) {
            tables.put(table, table(table, props));
        }
        Bucket accessLogs = Bucket.Builder.create(this, "AccessLogs")
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .enforceSsl(true)
                .encryption(BucketEncryption.S3_MANAGED)
                .lifecycleRules(List.of(LifecycleRule.builder().id("expire-access-logs")
                        .expiration(days(ACCESS_LOG_EXPIRY)).build()))
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        bucket = Bucket.Builder.create(this, "Bucket")
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .enforceSsl(true)
                .encryption(BucketEncryption.S3_MANAGED)
                .versioned(props.versioned())
                .serverAccessLogsBucket(accessLogs)
                .serverAccessLogsPrefix("bucket/")
                .lifecycleRules(lifecycle(props))
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        for (Secret secret : Secret.all()) {
            secrets.put(secret, software.amazon.awscdk.services.secretsmanager.Secret.Builder
                    .create(this, Names.constructId(secret.suffix()) + "Secret")
                    .secretName(secret.nameIn(props.resourcePrefix()))
                    .description("Spiderling " + secret.suffix() + ": replace with aws secretsmanager"
                            + " put-secret-value (see infra-cdk/README.md)")
                    // A placeholder, not a credential: it is in the template on purpose, so a fresh deployment
                    // starts with a parseable, empty file (no clients; no keys).
                    .secretStringValue(SecretValue.unsafePlainText(secret.initialText()))
                    .build());
            Nag.accept(secrets.get(secret), "AwsSolutions-SMG4", whyNoRotationFunction(secret));
        }
    }

    /** Why each secret has no Secrets Manager rotation function: cdk-nag's SMG4, accepted with its own reason. */
    static String whyNoRotationFunction(Secret secret) {
        return switch (secret) {
            case CLIENTS -> "The clients file holds each client's token and webhook secret, which the clients must"
                    + " hold too, so no rotation function can change them alone; operators replace the file with"
                    + " put-secret-value and the functions re-read it.";
            case SIGNING_KEYS -> "The signing keys rotate by overlap (ADR 21): the next key is added with a future"
                    + " nbf, so sites see it in the public directory before it signs, and the old one retired with"
                    + " exp. A rotation function replacing the key at once would make sites reject the signatures;"
                    + " operators add keys with put-secret-value and the functions re-read it.";
        };
    }

    public ITable table(Table table) {
        return tables.get(table);
    }

    public IBucket bucket() {
        return bucket;
    }

    public ISecret secret(Secret secret) {
        return secrets.get(secret);
    }

    private ITable table(Table table, StorageProps props) {
        var builder = software.amazon.awscdk.services.dynamodb.Table.Builder
                .create(this, Names.constructId(table.suffix()) + "Table")
                .tableName(table.nameIn(props.resourcePrefix()))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .partitionKey(stringKey(table.keys().partitionKey()))
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true).build())
                .deletionProtection(props.deletionProtection())
                .removalPolicy(RemovalPolicy.RETAIN);
        table.keys().sortKey().ifPresent(sortKey -> builder.sortKey(stringKey(sortKey)));
        table.timeToLive().ifPresent(ttl -> builder.timeToLiveAttribute(ttl.attribute()));
        var created = builder.build();
        for (Table.LocalIndex index : table.localIndexes()) {
            created.addLocalSecondaryIndex(LocalSecondaryIndexProps.builder()
                    .indexName(index.name())
                    .sortKey(Attribute.builder().name(index.sortKey()).type(AttributeType.NUMBER).build())
                    .projectionType(ProjectionType.ALL)
                    .build());
        }
        return created;
    }

    /**
     * One expiry rule per prefix that has an expiry (the catalog's, or the deployment's for {@code content/},
     * {@code capture/} and {@code markdown/}), and
     * one rule removing abandoned multipart uploads everywhere. With versioning on, an expired object leaves a
     * non-current version behind, so each rule also removes those after the same time.
     */
    private static List<LifecycleRule> lifecycle(StorageProps props) {
        List<LifecycleRule> rules = new ArrayList<>();
        for (BucketPrefix prefix : BucketPrefix.all()) {
            // Wire captures and Markdown renderings are kept as long as the bodies they were made from.
            Optional<Duration> expiry = prefix == BucketPrefix.CONTENT || prefix == BucketPrefix.CAPTURE
                    || prefix == BucketPrefix.MARKDOWN
                    ? props.contentExpiry().or(prefix::expiry) : prefix.expiry();
            expiry.ifPresent(after -> {
                var rule = LifecycleRule.builder()
                        .id("expire-" + prefix.prefix().replace("/", ""))
                        .prefix(prefix.prefix())
                        .expiration(days(after));
                if (props.versioned()) {
                    rule.noncurrentVersionExpiration(days(after));
                }
                rules.add(rule.build());
            });
        }
        rules.add(LifecycleRule.builder().id("abort-incomplete-multipart-uploads")
                .abortIncompleteMultipartUploadAfter(days(ABANDONED_UPLOADS)).build());
        return rules;
    }

    /** S3 lifecycle rules count whole days. */
    private static software.amazon.awscdk.Duration days(Duration duration) {
        if (duration.toDays() < 1 || !duration.equals(Duration.ofDays(duration.toDays()))) {
            throw new IllegalArgumentException("S3 expires objects after whole days, not " + duration);
        }
        return software.amazon.awscdk.Duration.days(duration.toDays());
    }

    private static Attribute stringKey(String name) {
        return Attribute.builder().name(name).type(AttributeType.STRING).build();
    }

    /** What the deployment chooses about its stores. */
    public static final class StorageProps {
        private final String resourcePrefix;
        private final boolean deletionProtection;
        private final boolean versioned;
        private final Optional<Duration> contentExpiry;

        private StorageProps(Builder b) {
            this.resourcePrefix = Objects.requireNonNull(b.resourcePrefix, "resourcePrefix");
            this.deletionProtection = b.deletionProtection;
            this.versioned = b.versioned;
            this.contentExpiry = Objects.requireNonNull(b.contentExpiry, "contentExpiry");
        }

        public static Builder builder() {
            return new Builder();
        }

        /** Stem of every named resource (tables, secret). */
        String resourcePrefix() {
            return resourcePrefix;
        }

        /** Whether DynamoDB refuses to delete the tables. */
        boolean deletionProtection() {
            return deletionProtection;
        }

        /** Whether the bucket keeps object versions. */
        boolean versioned() {
            return versioned;
        }

        /** How long fetched bodies (and their wire captures) are kept; empty to keep them. */
        Optional<Duration> contentExpiry() {
            return contentExpiry;
        }

        public static final class Builder {
            private String resourcePrefix;
            private boolean deletionProtection;
            private boolean versioned;
            private Optional<Duration> contentExpiry = Optional.empty();

            private Builder() {}

            public Builder resourcePrefix(String prefix) {
                this.resourcePrefix = prefix;
                return this;
            }

            public Builder deletionProtection(boolean on) {
                this.deletionProtection = on;
                return this;
            }

            public Builder versioned(boolean on) {
                this.versioned = on;
                return this;
            }

            public Builder contentExpiry(Optional<Duration> after) {
                this.contentExpiry = after;
                return this;
            }

            public StorageProps build() {
                return new StorageProps(this);
            }
        }
    }
}
