package io.spiderling.aws;

import static io.spiderling.aws.Attrs.s;

import io.spiderling.core.port.FetchSwitch;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The kill switch as an item of the {@code sites} table, {@code pk = CONTROL}, {@code sk = fetching}, with a boolean
 * {@code paused}. Operators flip it without a deployment:
 * {@code aws dynamodb put-item --table-name <sites> --item '{"pk":{"S":"CONTROL"},"sk":{"S":"fetching"},"paused":{"BOOL":true}}'}.
 * Each function reads it at most every {@code cacheFor}, so a flip takes effect within that time everywhere.
 */
public final class DynamoDbFetchSwitch implements FetchSwitch {

    /** The sites table's partition of operator controls: this switch and the API's opt-outs. */
    static final String PARTITION = "CONTROL";
    static final Map<String, AttributeValue> KEY = Map.of("pk", s(PARTITION), "sk", s("fetching"));

    private final DynamoDbClient dynamo;
    private final String table;
    private final Clock clock;
    private final Duration cacheFor;
    private Instant readAt = Instant.MIN;
    private boolean paused;

    public DynamoDbFetchSwitch(DynamoDbClient dynamo, String table, Clock clock, Duration cacheFor) {
        this.dynamo = dynamo;
        this.table = table;
        this.clock = clock;
        this.cacheFor = cacheFor;
    }

    @Override
    public synchronized boolean paused() {
        Instant now = clock.instant();
        if (readAt.equals(Instant.MIN) || !now.isBefore(readAt.plus(cacheFor))) {
            Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(KEY)).item();
            paused = item != null && item.containsKey("paused") && Boolean.TRUE.equals(item.get("paused").bool());
            readAt = now;
        }
        return paused;
    }

    /** Turns fetching off ({@code true}) or on again. */
    public synchronized void set(boolean pause) {
        dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", KEY.get("pk"), "sk", KEY.get("sk"),
                "paused", AttributeValue.fromBool(pause))));
        paused = pause;
        readAt = clock.instant();
    }
}
