package io.spiderling.aws;

import static io.spiderling.aws.Attrs.instant;
import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.number;
import static io.spiderling.aws.Attrs.s;
import static io.spiderling.aws.Attrs.string;

import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.robots.AccessResult;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsOrigin;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * {@link RobotsStore} on the {@code sites} table: {@code pk = ROBOTS#<origin>}, {@code sk = robots}. The robots.txt
 * text is stored gzip-compressed (at most 350,000 bytes, see {@code RobotsPolicy}), so an item stays under DynamoDB's
 * 400 KB. {@code ttl} (epoch seconds) is the table's TTL attribute, so idle origins disappear; DynamoDB deletes late,
 * so the policy checks {@code expiresAt} on every read as well.
 */
public final class DynamoDbRobotsStore implements RobotsStore {

    /**
     * Free, lapsed, or this very claim ({@link WriterToken}): the SDK sends a call again when its answer was lost (a 500
     * after the write applied), and that retry must find its own claim granted, not another fetcher's, or the origin
     * waits out the claim's 45 s with nobody fetching.
     */
    static final String CLAIM_CONDITION = WriterToken.condition("attribute_not_exists(pk) OR #until <= :now");
    static final String HELD_CLAIMS = "sk = :fetching AND #until > :now";

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbRobotsStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    static Map<String, AttributeValue> key(RobotsOrigin origin) {
        return Map.of("pk", s("ROBOTS#" + origin.value()), "sk", s("robots"));
    }

    @Override
    public Optional<RobotsCacheEntry> find(RobotsOrigin origin) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(key(origin))
                .consistentRead(true)).item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(entry(origin, item));
    }

    /** One BatchGetItem per hundred origins, eventually consistent: for reports, not for decisions. */
    @Override
    public Map<RobotsOrigin, RobotsCacheEntry> findAll(Collection<RobotsOrigin> origins) {
        Map<RobotsOrigin, RobotsCacheEntry> found = new LinkedHashMap<>();
        BatchGets.all(dynamo, table, new LinkedHashSet<>(origins).stream().map(DynamoDbRobotsStore::key).toList(),
                false).forEach(item -> {
                    RobotsOrigin origin = RobotsOrigin.of(item.get("pk").s().substring("ROBOTS#".length()));
                    found.put(origin, entry(origin, item));
                });
        return found;
    }

    private static RobotsCacheEntry entry(RobotsOrigin origin, Map<String, AttributeValue> item) {
        byte[] gzip = item.containsKey("robotsGzip") ? item.get("robotsGzip").b().asByteArray() : new byte[0];
        return RobotsCacheEntry.builder().origin(origin)
                .lastResult(AccessResult.valueOf(string(item, "lastResult").orElseThrow()))
                .lastStatus(number(item, "lastStatus").map(Long::intValue))
                .attemptedAt(instant(item, "attemptedAt").orElseThrow()).fetchedAt(instant(item, "fetchedAt"))
                .freshUntil(instant(item, "freshUntil")).expiresAt(instant(item, "expiresAt").orElseThrow())
                .robotsGzip(gzip).truncated(Attrs.bool(item, "truncated"))
                .consecutiveFailures((int) number(item, "consecutiveFailures", 0))
                .firstFailureAt(instant(item, "firstFailureAt")).nextRetryAt(instant(item, "nextRetryAt"))
                .crawlDelay(number(item, "crawlDelayMs").map(Duration::ofMillis)).build();
    }

    @Override
    public void save(RobotsCacheEntry e) {
        Map<String, AttributeValue> item = new HashMap<>(key(e.origin()));
        item.put("lastResult", s(e.lastResult().name()));
        e.lastStatus().ifPresent(status -> item.put("lastStatus", n(status)));
        item.put("attemptedAt", n(e.attemptedAt().toEpochMilli()));
        e.fetchedAt().ifPresent(at -> item.put("fetchedAt", n(at.toEpochMilli())));
        e.freshUntil().ifPresent(at -> item.put("freshUntil", n(at.toEpochMilli())));
        item.put("expiresAt", n(e.expiresAt().toEpochMilli()));
        item.put("ttl", n(e.expiresAt().getEpochSecond()));
        if (e.robotsGzip().length > 0) {
            item.put("robotsGzip", AttributeValue.fromB(SdkBytes.fromByteArray(e.robotsGzip())));
        }
        item.put("truncated", AttributeValue.fromBool(e.truncated()));
        item.put("consecutiveFailures", n(e.consecutiveFailures()));
        e.firstFailureAt().ifPresent(at -> item.put("firstFailureAt", n(at.toEpochMilli())));
        e.nextRetryAt().ifPresent(at -> item.put("nextRetryAt", n(at.toEpochMilli())));
        e.crawlDelay().ifPresent(d -> item.put("crawlDelayMs", n(d.toMillis())));
        dynamo.putItem(b -> b.tableName(table).item(item));
    }

    /**
     * A lease item of its own next to the cached rules ({@code sk = fetching}), put on the condition that none is
     * held: the cached entry is never touched, and the lease lapses by itself (its TTL removes it later).
     */
    @Override
    public boolean claimFetch(RobotsOrigin origin, Instant now, Instant until) {
        WriterToken claimant = WriterToken.fresh();
        try {
            dynamo.putItem(b -> b.tableName(table)
                    .item(claimant.stamp(Map.of("pk", s("ROBOTS#" + origin.value()), "sk", s("fetching"),
                            "until", n(until.toEpochMilli()), "ttl", n(until.getEpochSecond() + 3600))))
                    .conditionExpression(CLAIM_CONDITION)
                    .expressionAttributeNames(Map.of("#until", "until"))
                    .expressionAttributeValues(claimant.values(Map.of(":now", n(now.toEpochMilli())))));
            return true;
        } catch (ConditionalCheckFailedException held) {
            return false;
        }
    }

    @Override
    public void releaseFetch(RobotsOrigin origin) {
        dynamo.deleteItem(b -> b.tableName(table)
                .key(Map.of("pk", s("ROBOTS#" + origin.value()), "sk", s("fetching"))));
    }

    /**
     * A Scan of the whole table, filtered to the lease items still held: the leases sit each in its origin's
     * partition, and no key or index lists them. That reads every item of the table, so it is for the local stack's
     * resume only, never for a function. Lapsed leases are left for the TTL, as {@link #claimFetch} leaves them.
     */
    @Override
    public int releaseFetchClaims(Instant now) {
        int released = 0;
        for (Map<String, AttributeValue> lease : dynamo.scanPaginator(b -> b.tableName(table)
                .filterExpression(HELD_CLAIMS)
                .projectionExpression("pk, sk")
                .expressionAttributeNames(Map.of("#until", "until"))
                .expressionAttributeValues(Map.of(":fetching", s("fetching"), ":now", n(now.toEpochMilli()))))
                .items()) {
            dynamo.deleteItem(b -> b.tableName(table).key(lease));
            released++;
        }
        return released;
    }
}
