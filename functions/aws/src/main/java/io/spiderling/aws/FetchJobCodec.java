package io.spiderling.aws;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.url.NormalizedUrl;

/** The fetch queue's message body: {@code {"batchId":…,"url":…,"attempt":…}}. */
public final class FetchJobCodec {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private FetchJobCodec() {}

    public static String encode(FetchJob job) {
        ObjectNode node = JSON.createObjectNode()
                .put("batchId", job.batchId())
                .put("url", job.url().value())
                .put("attempt", job.attempt());
        return node.toString();
    }

    /** @throws IllegalArgumentException for a body that is not a fetch job, naming what is wrong */
    public static FetchJob decode(String body) {
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("fetch job is not JSON: " + e.getOriginalMessage(), e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("fetch job must be a JSON object");
        }
        String batchId = text(node, "batchId");
        String url = text(node, "url");
        JsonNode attempt = node.get("attempt");
        if (attempt == null || !attempt.isIntegralNumber() || !attempt.canConvertToInt()) {
            throw new IllegalArgumentException("fetch job needs an integer \"attempt\"");
        }
        return new FetchJob(batchId, NormalizedUrl.parse(url), attempt.intValue());
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException("fetch job needs a string \"" + field + "\"");
        }
        return value.asText();
    }
}
