package io.spiderling.aws;

import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.s;

import io.spiderling.core.port.QuotaStore;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * Quotas as items of the {@code batches} table, one partition per client, {@code pk = QUOTA#<client>}: the limit an
 * operator set at {@code sk = limit} ({@code urlsPerDay}), and each UTC day's count at {@code sk = day#<yyyy-mm-dd>}
 * ({@code used}). A batch is charged in one conditional {@code UpdateItem} ({@code ADD used :n} if
 * {@code used <= :limit - :n}), so a client's day takes up to 1,000 batches a second, whatever their size. Day items
 * are not deleted: one small item per client and day.
 */
public final class DynamoDbQuotaStore implements QuotaStore {

    static final String PARTITION = "QUOTA#";

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbQuotaStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    @Override
    public Optional<Long> limit(String client) {
        return number(dynamo.getItem(b -> b.tableName(table).consistentRead(true).key(limitKey(client))).item(),
                "urlsPerDay");
    }

    @Override
    public void setLimit(String client, long urlsPerDay) {
        dynamo.updateItem(b -> b.tableName(table).key(limitKey(client)).updateExpression("SET urlsPerDay = :l")
                .expressionAttributeValues(Map.of(":l", n(urlsPerDay))));
    }

    @Override
    public long used(String client, LocalDate day) {
        return number(dynamo.getItem(b -> b.tableName(table).consistentRead(true).key(dayKey(client, day))).item(),
                "used").orElse(0L);
    }

    @Override
    public Charge charge(String client, LocalDate day, long urls, long limit) {
        if (urls > limit) {
            return new Charge.Refused(used(client, day));
        }
        try {
            Map<String, AttributeValue> after = dynamo.updateItem(b -> b.tableName(table).key(dayKey(client, day))
                    .updateExpression("ADD used :n")
                    .conditionExpression("attribute_not_exists(used) OR used <= :room")
                    .expressionAttributeValues(Map.of(":n", n(urls), ":room", n(limit - urls)))
                    .returnValues(ReturnValue.UPDATED_NEW)).attributes();
            return new Charge.Charged(Attrs.requiredNumber(after, "used"));
        } catch (ConditionalCheckFailedException full) {
            return new Charge.Refused(used(client, day));
        }
    }

    @Override
    public void refund(String client, LocalDate day, long urls) {
        dynamo.updateItem(b -> b.tableName(table).key(dayKey(client, day)).updateExpression("ADD used :n")
                .expressionAttributeValues(Map.of(":n", n(-urls))));
    }

    private static Optional<Long> number(Map<String, AttributeValue> item, String name) {
        return item == null ? Optional.empty() : Attrs.number(item, name);
    }

    private static Map<String, AttributeValue> limitKey(String client) {
        return Map.of("pk", s(PARTITION + client), "sk", s("limit"));
    }

    private static Map<String, AttributeValue> dayKey(String client, LocalDate day) {
        return Map.of("pk", s(PARTITION + client), "sk", s("day#" + day));
    }
}
