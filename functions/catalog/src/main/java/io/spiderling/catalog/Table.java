package io.spiderling.catalog;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The DynamoDB tables of a deployment, with every key, index and TTL the code relies on. The test kit's provisioner
 * creates them from this, and the CDK stack declares them from this; both bill per request.
 */
public enum Table {

    /** One row per normalized URL: its fetch, extraction, aliases and application fields. */
    URLS("urls", ConfigKeys.TABLES_URLS, new KeySchema("urlHash", Optional.empty())),
    /** Batch headers, one item per URL of a batch (sharded), counters and the pending-plan markers. */
    BATCHES("batches", ConfigKeys.TABLES_BATCHES, new KeySchema("pk", Optional.of("sk"))),
    /**
     * Per site: the frontier's entries and counts, the rate item, the robots.txt cache; and the kill switch. The
     * rate items and robots copies expire through {@code ttl}; pending frontier entries carry {@code ord}, so the
     * sparse local index {@code byOrder} lists them in release order (local, so it can be read consistently).
     */
    SITES("sites", ConfigKeys.TABLES_SITES, new KeySchema("pk", Optional.of("sk")),
            new TimeToLive("ttl"), new LocalIndex("byOrder", "ord")),
    /** Inlinks: target = {@code <target URL hash>#<shard>}, source = the linking page's URL hash. */
    LINKS("links", ConfigKeys.TABLES_LINKS, new KeySchema("target", Optional.of("source")));

    /** The partition key and the optional sort key; both are strings in every table. */
    public record KeySchema(String partitionKey, Optional<String> sortKey) {}

    /** Something a table has besides its keys. */
    public sealed interface Feature permits TimeToLive, LocalIndex {}

    /** Items carrying {@code attribute} (epoch seconds) expire; DynamoDB deletes them late, so readers check. */
    public record TimeToLive(String attribute) implements Feature {}

    /** A local secondary index on the partition key and the number attribute {@code sortKey}, projecting all. */
    public record LocalIndex(String name, String sortKey) implements Feature {}

    private final String suffix;
    private final ConfigKey<String> configKey;
    private final KeySchema keys;
    private final List<Feature> features;

    Table(String suffix, ConfigKey<String> configKey, KeySchema keys, Feature... features) {
        this.suffix = suffix;
        this.configKey = configKey;
        this.keys = keys;
        this.features = List.of(features);
    }

    /** The table's name in a deployment whose resources are named after {@code prefix}. */
    public String nameIn(String prefix) {
        return prefix + "-" + suffix;
    }

    /** The short name, also the CDK construct id's stem. */
    public String suffix() {
        return suffix;
    }

    /** The key whose value is this table's name. */
    public ConfigKey<String> configKey() {
        return configKey;
    }

    public KeySchema keys() {
        return keys;
    }

    public Optional<TimeToLive> timeToLive() {
        return features.stream().filter(TimeToLive.class::isInstance).map(TimeToLive.class::cast).findFirst();
    }

    public List<LocalIndex> localIndexes() {
        return features.stream().filter(LocalIndex.class::isInstance).map(LocalIndex.class::cast).toList();
    }

    public static List<Table> all() {
        return Arrays.asList(values());
    }
}
