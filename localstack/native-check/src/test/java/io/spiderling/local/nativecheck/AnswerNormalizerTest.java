package io.spiderling.local.nativecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerNormalizerTest {

    private final AnswerNormalizer normalizer = AnswerNormalizer.erasing(List.of("nc-native", "nc-jvm"));

    @Test
    void normalize_whenPresignedUrlsOfTwoRunsDifferOnlyInBucketDateAndSignature_expectEqual() {
        String nativeAnswer = api(201, "{\"batchId\":\"k-8a18\",\"uploadUrl\":"
                + "\"http://127.0.0.1:4566/nc-native-content/uploads/k-8a18.jsonl?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Date=20261124T000102Z"
                + "&X-Amz-Credential=local%2F20261124%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Expires=900"
                + "&X-Amz-Signature=0a1b2c\",\"expiresAt\":\"2026-11-24T00:16:02.123456Z\"}");
        String jvmAnswer = api(201, "{\"expiresAt\":\"2026-11-24T00:16:09Z\",\"batchId\":\"k-8a18\",\"uploadUrl\":"
                + "\"http://127.0.0.1:4566/nc-jvm-content/uploads/k-8a18.jsonl?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Date=20261124T000109Z&X-Amz-Credential=local%2F20261124%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Expires=900&X-Amz-Signature=ffee99\"}");

        assertEquals(normalizer.normalize(nativeAnswer), normalizer.normalize(jvmAnswer));
    }

    @Test
    void normalize_whenBodiesDifferInAValue_expectDifferent() {
        assertNotEquals(normalizer.normalize(api(200, "{\"total\":2,\"done\":true}")),
                normalizer.normalize(api(200, "{\"total\":2,\"done\":false}")));
        assertNotEquals(normalizer.normalize(api(200, "{}")), normalizer.normalize(api(404, "{}")));
        assertNotEquals(normalizer.normalize("[1,2]"), normalizer.normalize("[2,1]"), "array order counts");
    }

    @Test
    void normalize_whenBodyHoldsJson_expectItParsedSoKeyOrderDoesNotMatter() {
        JsonNode answer = normalizer.normalize(api(200, "{\"b\":1,\"a\":{\"c\":\"2026-11-24T00:00:00Z\"}}"));

        assertEquals(1, answer.at("/body/b").asInt());
        assertEquals("{time}", answer.at("/body/a/c").asText());
        assertEquals(answer, normalizer.normalize(api(200, "{\"a\":{\"c\":\"2027-01-01T10:00:00.5Z\"},\"b\":1}")));
    }

    @Test
    void normalize_whenMeasuredDurationsAndRandomIds_expectErasedButOtherNumbersKept() {
        JsonNode one = normalizer.normalize("{\"timings\":{\"connectMs\":3,\"totalMs\":41},\"size\":1256,"
                + "\"eventId\":\"b3952404-1c2d-4e5f-8a9b-0123456789ab:completed\"}");
        JsonNode two = normalizer.normalize("{\"timings\":{\"connectMs\":1,\"totalMs\":17},\"size\":1256,"
                + "\"eventId\":\"5f6fa9c4-aca7-43f4-bafa-2d6b4977e3a5:completed\"}");

        assertEquals(one, two);
        assertEquals("{uuid}:completed", one.get("eventId").asText());
        assertEquals(1256, one.get("size").asInt());
        assertNotEquals(one, normalizer.normalize(two.toString().replace("1256", "1257")));
    }

    @Test
    void normalize_whenNotJson_expectNormalizedText() {
        assertEquals("nc tables {resources}-urls", normalizer.normalize("nc tables nc-jvm-urls").asText());
        assertEquals("[unterminated", normalizer.normalize("\"[unterminated\"").asText());
    }

    @Test
    void erasing_whenBlankName_expectRefused() {
        assertThrows(IllegalArgumentException.class, () -> AnswerNormalizer.erasing(List.of(" ")));
    }

    private static String api(int status, String body) {
        return "{\"statusCode\":" + status + ",\"headers\":{\"content-type\":\"application/json\"},"
                + "\"body\":" + LambdaRuntimeBridge.quote(body) + ",\"isBase64Encoded\":false}";
    }
}
