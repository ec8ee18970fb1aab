package io.spiderling.aws;

import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.s;

import io.spiderling.core.port.OptOutStore;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * The API's opt-out list as items of the {@code sites} table beside the kill switch: {@code pk = CONTROL},
 * {@code sk = opt-out#<site key>}, with {@code since} (epoch ms). {@link #sites} reads them in one query; the fetcher
 * asks through {@code OptOutList}, which caches it, so the partition sees one query per function instance every few
 * seconds rather than one read per URL (a key takes at most 3,000 reads a second). At 400 fetch instances and 5 s,
 * that is 80 queries a second, each a read unit per 4 KB of list (about 70 sites): the API's list is for the sites
 * that ask between deployments; a list of thousands belongs in the opt-out file, which costs no read at all.
 */
public final class DynamoDbOptOutStore implements OptOutStore {

    static final String PREFIX = "opt-out#";

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbOptOutStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    @Override
    public Map<SiteKey, Instant> sites() {
        Map<SiteKey, Instant> sites = new HashMap<>();
        dynamo.queryPaginator(b -> b.tableName(table).consistentRead(true)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(":pk", s(DynamoDbFetchSwitch.PARTITION), ":prefix", s(PREFIX))))
                .items().forEach(item -> sites.put(new SiteKey(item.get("sk").s().substring(PREFIX.length())),
                        Instant.ofEpochMilli(Long.parseLong(item.get("since").n()))));
        return sites;
    }

    @Override
    public void add(SiteKey site, Instant at) {
        try {
            dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", s(DynamoDbFetchSwitch.PARTITION),
                    "sk", s(PREFIX + site.value()), "since", n(at.toEpochMilli())))
                    .conditionExpression("attribute_not_exists(pk)"));
        } catch (ConditionalCheckFailedException listedAlready) {
            // listed before: it keeps its first time
        }
    }

    @Override
    public boolean remove(SiteKey site) {
        Map<String, AttributeValue> old = dynamo.deleteItem(b -> b.tableName(table)
                .key(Map.of("pk", s(DynamoDbFetchSwitch.PARTITION), "sk", s(PREFIX + site.value())))
                .returnValues(software.amazon.awssdk.services.dynamodb.model.ReturnValue.ALL_OLD)).attributes();
        return old != null && !old.isEmpty();
    }
}
