package io.spiderling.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.catalog.BucketPrefix;
import io.spiderling.catalog.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StorageTest {

    @Test
    void tables_whenDeployed_onDemandWithTheCatalogsKeysIndexesAndTtl() {
        Synthesized jvm = Synth.jvmIam();
        assertEquals(Table.all().size(), jvm.resources("AWS::DynamoDB::Table").size());
        for (Table table : Table.all()) {
            String id = jvm.tableId(table);
            Map<String, Object> properties = jvm.properties(id);
            assertEquals("PAY_PER_REQUEST", properties.get("BillingMode"), table.name());
            List<Map<String, Object>> keys = new ArrayList<>();
            keys.add(Map.of("AttributeName", table.keys().partitionKey(), "KeyType", "HASH"));
            table.keys().sortKey().ifPresent(sort -> keys.add(Map.of("AttributeName", sort, "KeyType", "RANGE")));
            assertEquals(keys, properties.get("KeySchema"), table.name());
            assertEquals(Map.of("PointInTimeRecoveryEnabled", true),
                    properties.get("PointInTimeRecoverySpecification"), table.name());
            assertEquals(table.timeToLive().map(ttl -> Map.of("AttributeName", ttl.attribute(), "Enabled", true))
                    .orElse(null), properties.get("TimeToLiveSpecification"), table.name());
            @SuppressWarnings("unchecked")
            var indexes = (List<Map<String, Object>>) properties.getOrDefault("LocalSecondaryIndexes", List.of());
            assertEquals(table.localIndexes().size(), indexes.size(), table.name());
            for (Table.LocalIndex index : table.localIndexes()) {
                Map<String, Object> declared = indexes.stream().filter(i -> index.name().equals(i.get("IndexName")))
                        .findFirst().orElseThrow();
                assertEquals(List.of(Map.of("AttributeName", table.keys().partitionKey(), "KeyType", "HASH"),
                        Map.of("AttributeName", index.sortKey(), "KeyType", "RANGE")), declared.get("KeySchema"));
                assertEquals(Map.of("ProjectionType", "ALL"), declared.get("Projection"));
                assertTrue(properties.get("AttributeDefinitions").toString()
                        .contains("{AttributeName=" + index.sortKey() + ", AttributeType=N}"), table.name());
            }
            assertEquals("Retain", jvm.resource(id).get("DeletionPolicy"), table.name());
            assertEquals(false, properties.get("DeletionProtectionEnabled"), table.name());
            assertEquals(true, Synth.jvmJwt().properties(Synth.jvmJwt().tableId(table))
                    .get("DeletionProtectionEnabled"), table.name());
        }
    }

    @Test
    void bucket_whenDeployed_privateEncryptedTlsOnlyAndRetained() {
        for (Synthesized deployment : List.of(Synth.jvmIam(), Synth.jvmJwt())) {
            String bucket = bucketId(deployment);
            Map<String, Object> properties = deployment.properties(bucket);
            assertEquals(Map.of("BlockPublicAcls", true, "BlockPublicPolicy", true, "IgnorePublicAcls", true,
                    "RestrictPublicBuckets", true), properties.get("PublicAccessBlockConfiguration"));
            assertTrue(properties.get("BucketEncryption").toString().contains("SSEAlgorithm=AES256"));
            assertEquals("Retain", deployment.resource(bucket).get("DeletionPolicy"));
            assertTrue(deployment.resources("AWS::S3::BucketPolicy").values().stream().map(Synthesized::properties)
                    .anyMatch(p -> bucket.equals(Synthesized.ref(p.get("Bucket")))
                            && p.toString().contains("aws:SecureTransport=false")));
            @SuppressWarnings("unchecked")
            var logging = (Map<String, Object>) properties.get("LoggingConfiguration");
            assertEquals("AWS::S3::Bucket", deployment.resource(Synthesized.ref(logging.get("DestinationBucketName")))
                    .get("Type"));
        }
        assertEquals(null, Synth.jvmIam().properties(bucketId(Synth.jvmIam())).get("VersioningConfiguration"));
        assertEquals(Map.of("Status", "Enabled"),
                Synth.jvmJwt().properties(bucketId(Synth.jvmJwt())).get("VersioningConfiguration"));
    }

    @Test
    void lifecycle_whenDeployed_expiresEachPrefixWithAnExpiryAndAbortsAbandonedUploads() {
        Synthesized jvm = Synth.jvmIam();
        List<Map<String, Object>> rules = lifecycleRules(jvm);
        for (BucketPrefix prefix : BucketPrefix.all()) {
            Optional<Map<String, Object>> rule = ruleFor(rules, prefix);
            assertEquals(prefix.expiry().map(d -> (int) d.toDays()), rule.map(r -> ((Number) r.get("ExpirationInDays"))
                    .intValue()), prefix.prefix());
        }
        assertTrue(rules.stream().anyMatch(r -> !r.containsKey("Prefix") && Map.of("DaysAfterInitiation", 1)
                .equals(r.get("AbortIncompleteMultipartUpload"))), rules::toString);
    }

    @Test
    void lifecycle_whenContentExpiryAndVersioning_expiresContentAndOldVersions() {
        Synthesized jwt = Synth.jvmJwt();
        List<Map<String, Object>> rules = lifecycleRules(jwt);
        Map<String, Object> content = ruleFor(rules, BucketPrefix.CONTENT).orElseThrow();
        assertEquals(Synth.CONTENT_EXPIRY.toDays(), ((Number) content.get("ExpirationInDays")).longValue());
        for (BucketPrefix prefix : BucketPrefix.all()) {
            Map<String, Object> rule = ruleFor(rules, prefix).orElseThrow();
            assertEquals(rule.get("ExpirationInDays"), rule.get("NoncurrentVersionExpiration") == null ? null
                    : ((Map<?, ?>) rule.get("NoncurrentVersionExpiration")).get("NoncurrentDays"), prefix.prefix());
        }
    }

    @Test
    void secrets_whenDeployed_startAsAnEmptyClientsFileAndAnEmptyKeySet() {
        Synthesized jvm = Synth.jvmIam();
        var secrets = jvm.resources("AWS::SecretsManager::Secret");
        assertEquals(2, secrets.size());
        Map<String, Map<String, Object>> byName = new java.util.TreeMap<>();
        secrets.values().forEach(r -> byName.put((String) Synthesized.properties(r).get("Name"),
                Synthesized.properties(r)));
        assertEquals(java.util.Set.of("spiderling/clients", "spiderling/signing-keys"), byName.keySet());
        String placeholder = (String) byName.get("spiderling/clients").get("SecretString");
        assertEquals(io.spiderling.catalog.Secret.CLIENTS.initialText(), placeholder);
        assertTrue(placeholder.lines().allMatch(line -> line.startsWith("#")), "only comments, so no clients");
        assertEquals("{\"keys\":[]}\n", byName.get("spiderling/signing-keys").get("SecretString"),
                "no key: signing stays impossible until a key set is put in");
    }

    @Test
    void secrets_whenNoRotationFunction_eachSaysWhyForItsOwnContent() {
        Synthesized jvm = Synth.jvmIam();
        Map<String, String> reasons = new java.util.TreeMap<>();
        jvm.resources("AWS::SecretsManager::Secret").values().forEach(r -> {
            @SuppressWarnings("unchecked")
            var nag = (Map<String, List<Map<String, Object>>>) ((Map<String, Object>) r.get("Metadata"))
                    .get("cdk_nag");
            String reason = nag.get("rules_to_suppress").stream().filter(rule -> "AwsSolutions-SMG4"
                    .equals(rule.get("id"))).map(rule -> (String) rule.get("reason")).findFirst().orElseThrow();
            reasons.put((String) Synthesized.properties(r).get("Name"), reason);
        });
        assertTrue(reasons.get("spiderling/clients").contains("clients file"), reasons.toString());
        assertTrue(reasons.get("spiderling/signing-keys").contains("signing keys")
                && !reasons.get("spiderling/signing-keys").contains("clients"), reasons.toString());
    }

    static String bucketId(Synthesized deployment) {
        // The data bucket is the one with notifications; the other receives its access logs.
        return Synthesized.ref(Synthesized.properties(deployment.resources("Custom::S3BucketNotifications").values()
                .iterator().next()).get("BucketName"));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> lifecycleRules(Synthesized deployment) {
        var configuration = (Map<String, Object>) deployment.properties(bucketId(deployment))
                .get("LifecycleConfiguration");
        return (List<Map<String, Object>>) configuration.get("Rules");
    }

    private static Optional<Map<String, Object>> ruleFor(List<Map<String, Object>> rules, BucketPrefix prefix) {
        List<Map<String, Object>> matching = rules.stream().filter(r -> prefix.prefix().equals(r.get("Prefix")))
                .toList();
        assertFalse(matching.size() > 1, prefix.prefix());
        return matching.stream().findFirst();
    }
}
