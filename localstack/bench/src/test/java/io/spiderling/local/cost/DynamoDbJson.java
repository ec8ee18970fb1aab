package io.spiderling.local.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Items written in DynamoDB's JSON ({@code {"pk":{"S":"a"}}}), for the test tables. */
final class DynamoDbJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DynamoDbJson() {}

    static Map<String, AttributeValue> item(String json) {
        try {
            return map(JSON.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, AttributeValue> map(JsonNode node) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> item.put(e.getKey(), value(e.getValue())));
        return item;
    }

    private static AttributeValue value(JsonNode node) {
        var type = node.fieldNames().next();
        JsonNode v = node.get(type);
        return switch (type) {
            case "S" -> AttributeValue.fromS(v.asText());
            case "N" -> AttributeValue.fromN(v.asText());
            case "B" -> AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(v.asText())));
            case "BOOL" -> AttributeValue.fromBool(v.asBoolean());
            case "NULL" -> AttributeValue.fromNul(true);
            case "L" -> {
                List<AttributeValue> list = new ArrayList<>();
                v.forEach(e -> list.add(value(e)));
                yield AttributeValue.fromL(list);
            }
            case "M" -> AttributeValue.fromM(map(v));
            case "SS" -> AttributeValue.fromSs(strings(v));
            case "NS" -> AttributeValue.fromNs(strings(v));
            default -> throw new IllegalArgumentException("type " + type);
        };
    }

    private static List<String> strings(JsonNode array) {
        List<String> s = new ArrayList<>();
        array.forEach(e -> s.add(e.asText()));
        return s;
    }
}
