package io.spiderling.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * BatchGetItem, 100 keys a call, with what DynamoDB leaves unprocessed asked again after a pause: it leaves keys
 * unprocessed when their partitions or the table are throttled, and asking again at once would only be throttled again.
 */
final class BatchGets {

    static final int MAX_KEYS = 100;
    private static final int ATTEMPTS = 10;
    /** 20 ms after the first unprocessed answer, doubling up to a second: about 5 s over the attempts. */
    private static final Backoff UNPROCESSED_BACKOFF = Backoff.sleeping(20, 1_000);

    private BatchGets() {}

    /** The items found under the keys (distinct keys, any number), in no particular order. */
    static List<Map<String, AttributeValue>> all(DynamoDbClient dynamo, String table,
            List<Map<String, AttributeValue>> keys, boolean consistent) {
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += MAX_KEYS) {
            Map<String, KeysAndAttributes> request = Map.of(table, KeysAndAttributes.builder()
                    .keys(keys.subList(from, Math.min(keys.size(), from + MAX_KEYS))).consistentRead(consistent)
                    .build());
            for (int attempt = 0; !request.isEmpty(); attempt++) {
                if (attempt >= ATTEMPTS) {
                    throw new IllegalStateException("DynamoDB left keys unprocessed after " + attempt + " attempts");
                }
                Map<String, KeysAndAttributes> ask = request;
                BatchGetItemResponse response = dynamo.batchGetItem(b -> b.requestItems(ask));
                found.addAll(response.responses().getOrDefault(table, List.of()));
                request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
                if (!request.isEmpty() && attempt + 1 < ATTEMPTS) {
                    UNPROCESSED_BACKOFF.pause(attempt + 1, "unprocessed reads");
                }
            }
        }
        return found;
    }
}
