package io.spiderling.aws;

import static io.spiderling.aws.Attrs.bool;
import static io.spiderling.aws.Attrs.instant;
import static io.spiderling.aws.Attrs.n;
import static io.spiderling.aws.Attrs.number;
import static io.spiderling.aws.Attrs.s;
import static io.spiderling.aws.Attrs.string;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * {@link UrlStore} on the {@code urls} table, one item per normalized URL keyed by its hash. The fetch and extract
 * stages each update only their own attributes, so whichever runs first, neither erases the other's work.
 */
public final class DynamoDbUrlStore implements UrlStore {

    static final String KEY = "urlHash";

    /** A fetch older than the one stored (a late retry) does not overwrite it. */
    static final String FETCH_CONDITION = "attribute_not_exists(fetchedAt) OR fetchedAt <= :fetchedAt";

    /** An extraction of older content than the stored extraction or the stored fetch is stale. */
    static final String EXTRACTION_CONDITION = "(attribute_not_exists(extractedFrom) OR extractedFrom <= :from)"
            + " AND (attribute_not_exists(fetchedAt) OR fetchedAt <= :from)";

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbUrlStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    @Override
    public void recordFetch(FetchRecord r) {
        Update u = new Update();
        u.set("url", s(r.url()));
        u.set("state", s(r.state().wireName()));
        u.set("fetchedAt", n(r.fetchedAt().toEpochMilli()));
        u.set("size", n(r.size()));
        u.set("truncated", bool(r.truncated()));
        u.set("ttfbMs", n(r.timeToFirstByteMs()));
        u.set("totalMs", n(r.totalMs()));
        u.setOrRemove("httpStatus", r.httpStatus().map(code -> n(code)));
        u.setOrRemove("contentType", r.contentType().map(Attrs::s));
        u.setOrRemove("contentKey", r.contentKey().map(Attrs::s));
        u.setOrRemove("contentSha256", r.contentSha256().map(Attrs::s));
        u.setOrRemove("finalUrl", r.finalUrl().map(Attrs::s));
        u.setOrRemove("error", r.error().map(Attrs::s));
        u.values.put(":fetchedAt", n(r.fetchedAt().toEpochMilli()));
        u.apply(r.urlHash(), FETCH_CONDITION);
    }

    @Override
    public boolean recordExtraction(ExtractionRecord r) {
        Update u = new Update();
        u.setIfNotExists("url", s(r.url()));
        u.set("extractedAt", n(r.extractedAt().toEpochMilli()));
        u.set("extractedFrom", n(r.contentFetchedAt().toEpochMilli()));
        u.set("extractedSha256", s(r.contentSha256()));
        u.setOrRemove("title", Optional.ofNullable(r.page().title()).map(Attrs::s));
        u.setOrRemove("description", Optional.ofNullable(r.page().description()).map(Attrs::s));
        u.values.put(":from", n(r.contentFetchedAt().toEpochMilli()));
        return u.apply(r.urlHash(), EXTRACTION_CONDITION);
    }

    @Override
    public Optional<UrlRecord> find(String urlHash) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table)
                .key(Map.of(KEY, s(urlHash))).consistentRead(true)).item();
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        String url = string(item, "url").orElse("");
        Optional<FetchRecord> fetch = instant(item, "fetchedAt").map(fetchedAt -> new FetchRecord(urlHash, url,
                ItemState.fromWireName(string(item, "state").orElseThrow()),
                number(item, "httpStatus").map(Long::intValue), string(item, "contentType"),
                number(item, "size", 0), bool(item, "truncated"), string(item, "contentKey"),
                string(item, "contentSha256"), string(item, "finalUrl"), fetchedAt, number(item, "ttfbMs", 0),
                number(item, "totalMs", 0), string(item, "error")));
        Optional<ExtractionRecord> extraction = instant(item, "extractedAt").map(extractedAt -> new ExtractionRecord(
                urlHash, url, new PageMetadata(string(item, "title").orElse(null),
                        string(item, "description").orElse(null)),
                string(item, "extractedSha256").orElse(""), instant(item, "extractedFrom").orElseThrow(),
                extractedAt));
        return Optional.of(new UrlRecord(urlHash, fetch, extraction));
    }

    /** Builds one UpdateItem expression of SET and REMOVE clauses with placeholder names for every attribute. */
    private final class Update {
        private final List<String> sets = new ArrayList<>();
        private final List<String> removes = new ArrayList<>();
        private final Map<String, String> names = new HashMap<>();
        private final Map<String, AttributeValue> values = new HashMap<>();

        void set(String attribute, AttributeValue value) {
            names.put("#" + attribute, attribute);
            values.put(":" + attribute, value);
            sets.add("#" + attribute + " = :" + attribute);
        }

        void setIfNotExists(String attribute, AttributeValue value) {
            names.put("#" + attribute, attribute);
            values.put(":" + attribute, value);
            sets.add("#" + attribute + " = if_not_exists(#" + attribute + ", :" + attribute + ")");
        }

        void setOrRemove(String attribute, Optional<AttributeValue> value) {
            if (value.isPresent()) {
                set(attribute, value.get());
            } else {
                names.put("#" + attribute, attribute);
                removes.add("#" + attribute);
            }
        }

        /** Returns false when the condition refused the write. */
        boolean apply(String urlHash, String condition) {
            String expression = "SET " + String.join(", ", sets)
                    + (removes.isEmpty() ? "" : " REMOVE " + String.join(", ", removes));
            try {
                dynamo.updateItem(b -> b.tableName(table)
                        .key(Map.of(KEY, s(urlHash)))
                        .updateExpression(expression)
                        .conditionExpression(condition)
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values));
                return true;
            } catch (ConditionalCheckFailedException e) {
                return false;
            }
        }
    }
}
