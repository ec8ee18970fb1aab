package io.spiderling.aws;

import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.s;

import io.spiderling.core.port.PendingPlans;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@link PendingPlans} as items of the batches table under {@value #SHARDS} partitions,
 * {@code pk = PENDING-PLANS#<shard>} (the shard from the object key's {@link String#hashCode}, which the language
 * fixes), sort key the object's key, and {@code since} (epoch ms). Every batch writes and deletes one such item, so
 * under one key batches would be capped near 500 a second (1,000 write units a second per key); sharded, near 8,000.
 * The partitions hold only what waits for planning, normally nothing and at most the uploads clients have yet to
 * send, so the sweep reads them whole once a minute, one query each.
 */
public final class DynamoDbPendingPlans implements PendingPlans {

    static final String PARTITION = "PENDING-PLANS";
    static final int SHARDS = 16;

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbPendingPlans(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    @Override
    public void expect(String key, Instant since) {
        dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", s(partition(key)), "sk", s(key),
                "since", n(since.toEpochMilli()))));
    }

    @Override
    public void planned(String key) {
        dynamo.deleteItem(b -> b.tableName(table).key(Map.of("pk", s(partition(key)), "sk", s(key))));
    }

    static String partition(String key) {
        return PARTITION + "#" + Math.floorMod(key.hashCode(), SHARDS);
    }

    @Override
    public List<Pending> waitingSince(String prefix, Instant cutoff, int limit) {
        return IntStream.range(0, SHARDS).mapToObj(shard -> PARTITION + "#" + shard)
                .flatMap(pk -> dynamo.queryPaginator(b -> b.tableName(table).consistentRead(true)
                        .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                        .filterExpression("since < :cutoff")
                        .expressionAttributeValues(Map.of(":pk", s(pk), ":prefix", s(prefix),
                                ":cutoff", n(cutoff.toEpochMilli()))))
                        .items().stream())
                .map(DynamoDbPendingPlans::pending)
                .sorted(Comparator.comparing(Pending::since).thenComparing(Pending::key))
                .limit(limit)
                .toList();
    }

    private static Pending pending(Map<String, AttributeValue> item) {
        return new Pending(item.get("sk").s(), Instant.ofEpochMilli(Long.parseLong(item.get("since").n())));
    }
}
