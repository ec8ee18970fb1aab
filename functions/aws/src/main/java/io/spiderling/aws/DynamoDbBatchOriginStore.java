package io.spiderling.aws;

import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.s;

import io.spiderling.core.batch.BatchOrigins;
import io.spiderling.core.port.BatchOriginStore;
import io.spiderling.core.robots.RobotsOrigin;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * {@link BatchOriginStore} on the {@code batches} table: one item per batch, {@code pk = B#<batchId>}, {@code sk = O},
 * holding the string set {@code origins} and the flag {@code more}. It sits next to the batch's header but apart from
 * it: the header is read by fetchers and status calls, and the list only by a status call.
 */
public final class DynamoDbBatchOriginStore implements BatchOriginStore {

    static final String ORIGINS_SK = "O";
    /** Adds to the list while it stays within its maximum; {@code :room} is the maximum less what is added. */
    static final String ORIGINS_ROOM = "attribute_not_exists(origins) OR size(origins) <= :room";
    private static final int ORIGINS_ATTEMPTS = 3;

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbBatchOriginStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    static Map<String, AttributeValue> originsKey(String batchId) {
        return Map.of("pk", s("B#" + batchId), "sk", s(ORIGINS_SK));
    }

    /**
     * One update of a string set, conditional on the set staying within {@link BatchOrigins#MAX}: one write per call
     * while the list has room. Refused (the list is near full, or the call repeats listed origins), it reads the list
     * and adds what is missing and fits, on the condition that the list is as read, and records that there are more
     * when some do not fit.
     */
    @Override
    public void addOrigins(String batchId, Collection<RobotsOrigin> origins) {
        List<String> values = new LinkedHashSet<>(origins).stream().map(RobotsOrigin::value).toList();
        if (values.isEmpty()) {
            return;
        }
        if (values.size() <= BatchOrigins.MAX && addOrigins(batchId, values, ORIGINS_ROOM,
                Map.of(":room", n(BatchOrigins.MAX - values.size())), false)) {
            return;
        }
        for (int attempt = 0; attempt < ORIGINS_ATTEMPTS; attempt++) {
            Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(originsKey(batchId))
                    .consistentRead(true)).item();
            List<String> listed = item != null && item.containsKey("origins") ? item.get("origins").ss() : List.of();
            List<String> missing = values.stream().filter(v -> !listed.contains(v)).toList();
            int room = Math.max(0, BatchOrigins.MAX - listed.size());
            boolean more = missing.size() > room;
            if (missing.isEmpty() || (room == 0 && item != null && Attrs.bool(item, "more"))) {
                return;
            }
            List<String> add = missing.subList(0, Math.min(room, missing.size()));
            if (add.isEmpty()) {
                updateOrigins(batchId, "SET more = :true", null, Map.of(":true", AttributeValue.fromBool(true)));
                return;
            }
            if (addOrigins(batchId, add, listed.isEmpty() ? "attribute_not_exists(origins)" : "size(origins) = :seen",
                    listed.isEmpty() ? Map.of() : Map.of(":seen", n(listed.size())), more)) {
                return;
            }
        }
        // Others keep adding at the same time: the list is full or nearly, so say there may be more.
        updateOrigins(batchId, "SET more = :true", null, Map.of(":true", AttributeValue.fromBool(true)));
    }

    /** Adds to the list on a condition, and records that there are more; false when the condition refused it. */
    private boolean addOrigins(String batchId, List<String> add, String condition, Map<String, AttributeValue> values,
            boolean more) {
        Map<String, AttributeValue> all = new HashMap<>(values);
        all.put(":add", AttributeValue.fromSs(add));
        if (more) {
            all.put(":true", AttributeValue.fromBool(true));
        }
        try {
            updateOrigins(batchId, "ADD origins :add" + (more ? " SET more = :true" : ""), condition, all);
            return true;
        } catch (ConditionalCheckFailedException refused) {
            return false;
        }
    }

    private void updateOrigins(String batchId, String update, String condition, Map<String, AttributeValue> values) {
        dynamo.updateItem(b -> b.tableName(table).key(originsKey(batchId)).updateExpression(update)
                .conditionExpression(condition).expressionAttributeValues(values));
    }

    /** Eventually consistent: a status read a moment behind planning says the same a moment later. */
    @Override
    public BatchOrigins origins(String batchId) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(originsKey(batchId))).item();
        if (item == null || item.isEmpty()) {
            return BatchOrigins.NONE;
        }
        List<RobotsOrigin> origins = item.containsKey("origins")
                ? item.get("origins").ss().stream().sorted().map(RobotsOrigin::of).toList() : List.of();
        return new BatchOrigins(origins, Attrs.bool(item, "more"));
    }

}
