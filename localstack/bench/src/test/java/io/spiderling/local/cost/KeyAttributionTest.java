package io.spiderling.local.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/** Which partition key a call loads, and what shape a key has: pure functions of the request and the key. */
class KeyAttributionTest {

    @ParameterizedTest(name = "{0}: {1} {2}")
    @CsvFileSource(resources = "/cost/key-shapes.csv", numLinesToSkip = 1)
    void shape_whenStoreKey_isItsLayout(String table, String key, KeyShape expected) {
        assertEquals(expected, KeyShape.of(table, key));
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/cost/query-partition-keys.csv", numLinesToSkip = 1)
    void query_whenKeyCondition_loadsThePartitionKeyItNames(String name, String table, String condition,
            String names, String values, String expected) {
        QueryRequest.Builder query = QueryRequest.builder().tableName("bench-" + table)
                .keyConditionExpression(condition).expressionAttributeValues(pairs(values, AttributeValue::fromS));
        if (names != null) {
            query.expressionAttributeNames(pairs(names, v -> v));
        }

        assertEquals(new Usage.Key(table, expected), KeyAttribution.query(query.build()));
    }

    private static <V> Map<String, V> pairs(String list, java.util.function.Function<String, V> value) {
        Map<String, V> map = new HashMap<>();
        for (String pair : list.split(";")) {
            int eq = pair.indexOf('=');
            map.put(pair.substring(0, eq), value.apply(pair.substring(eq + 1)));
        }
        return map;
    }
}
