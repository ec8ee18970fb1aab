package io.spiderling.local.nativecheck;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Turns a function's answer into a JSON tree that the other build's answer to the same event can be compared with,
 * erasing only what legitimately differs between two runs of the same code on identically seeded state:
 * <ul>
 *   <li>the names of the two resource sets (each build runs against its own, so a bucket name in a presigned URL
 *       differs): each given name becomes {@value #RESOURCES};</li>
 *   <li>instants ({@code 2026-11-23T10:15:30.123Z}), since each build runs at its own moment;</li>
 *   <li>random UUIDs;</li>
 *   <li>what a presigned URL's signature depends on: {@code X-Amz-Date}, {@code X-Amz-Credential} (it carries the date)
 *       and {@code X-Amz-Signature};</li>
 *   <li>measured durations: number fields whose names end in {@code Ms} (a fetch's {@code connectMs},
 *       {@code totalMs}, …), since each build fetched the page itself.</li>
 * </ul>
 * Anything else is compared as it is. Strings that hold JSON (an API Gateway answer's {@code body}) are parsed and
 * normalized in turn, so a difference inside a body is found and key order inside it does not matter. Object key order
 * never matters; array order does.
 */
public final class AnswerNormalizer {

    static final String RESOURCES = "{resources}";
    static final String TIME = "{time}";
    static final String UUID = "{uuid}";
    static final String SIGNED = "{signed}";
    static final String DURATION = "{duration}";

    /** Strict: "[1] and more" is text, not an array followed by noise. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Pattern INSTANT =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})");
    private static final Pattern RANDOM_UUID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern SIGNING =
            Pattern.compile("(X-Amz-(?:Date|Credential|Signature|Security-Token))=[^&\"\\s]*");
    private static final Pattern DURATION_FIELD = Pattern.compile(".+Ms");

    private final List<String> resourceNames;

    private AnswerNormalizer(List<String> resourceNames) {
        // Longest first, so a name that contains another is replaced whole.
        this.resourceNames = resourceNames.stream().sorted((a, b) -> b.length() - a.length()).toList();
    }

    /** @param resourceNames the prefixes of the resource sets the builds ran against */
    public static AnswerNormalizer erasing(List<String> resourceNames) {
        if (resourceNames.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("a blank resource name would erase nothing, or everything");
        }
        return new AnswerNormalizer(List.copyOf(resourceNames));
    }

    /** The answer as a normalized tree; an answer that is not JSON becomes a normalized string. */
    public JsonNode normalize(String answer) {
        return normalize(parse(answer).orElse(JsonNodeFactory.instance.textNode(answer)));
    }

    private JsonNode normalize(JsonNode node) {
        if (node.isTextual()) {
            String text = node.asText();
            String trimmed = text.strip();
            if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
                var embedded = parse(trimmed);
                if (embedded.isPresent()) {
                    return normalize(embedded.get());
                }
            }
            return JsonNodeFactory.instance.textNode(normalizeText(text));
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> copy.add(normalize(element)));
            return copy;
        }
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                boolean measured = field.getValue().isNumber() && DURATION_FIELD.matcher(field.getKey()).matches();
                copy.set(field.getKey(), measured ? JsonNodeFactory.instance.textNode(DURATION)
                        : normalize(field.getValue()));
            }
            return copy;
        }
        return node;
    }

    String normalizeText(String text) {
        String result = text;
        for (String name : resourceNames) {
            result = result.replace(name, RESOURCES);
        }
        result = SIGNING.matcher(result).replaceAll("$1=" + SIGNED);
        result = INSTANT.matcher(result).replaceAll(TIME);
        return RANDOM_UUID.matcher(result).replaceAll(UUID);
    }

    private static Optional<JsonNode> parse(String text) {
        try {
            JsonNode node = JSON.readTree(text);
            return Optional.ofNullable(node).filter(n -> !n.isMissingNode());
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }
}
