package io.spiderling.lambda.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.lambda.internal.HttpJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the URLs out of a submission: {@code {"urls":[…]}} or {@code {"url":"…"}} as JSON, or (from the queue) a
 * bare URL as plain text. Every problem is reported as a message that names it.
 */
final class SubmissionParser {

    private SubmissionParser() {}

    sealed interface Parsed {
        record Urls(List<String> urls) implements Parsed {}

        record Invalid(String problem) implements Parsed {}
    }

    static Parsed parseJson(byte[] body) {
        JsonNode root;
        try {
            root = HttpJson.JSON.readTree(body);
        } catch (IOException e) {
            return new Parsed.Invalid("malformed JSON: " + firstLine(e.getMessage()));
        }
        if (root == null || root.isMissingNode()) {
            return new Parsed.Invalid("empty body: expected {\"urls\":[...]}");
        }
        if (!root.isObject()) {
            return new Parsed.Invalid("expected a JSON object like {\"urls\":[...]}");
        }
        JsonNode single = root.get("url");
        JsonNode many = root.get("urls");
        if (many == null && single != null) {
            return single.isTextual() ? new Parsed.Urls(List.of(single.asText()))
                    : new Parsed.Invalid("\"url\" must be a string");
        }
        if (many == null) {
            return new Parsed.Invalid("missing \"urls\": expected {\"urls\":[...]}");
        }
        if (!many.isArray()) {
            return new Parsed.Invalid("\"urls\" must be an array of strings");
        }
        List<String> urls = new ArrayList<>(many.size());
        for (int i = 0; i < many.size(); i++) {
            if (!many.get(i).isTextual()) {
                return new Parsed.Invalid("\"urls\"[" + i + "] must be a string, was " + many.get(i).getNodeType()
                        .name().toLowerCase(java.util.Locale.ROOT));
            }
            urls.add(many.get(i).asText());
        }
        return new Parsed.Urls(urls);
    }

    /** A queue message is JSON when it looks like an object, and otherwise one URL per line. */
    static Parsed parseMessage(String body) {
        String trimmed = body == null ? "" : body.strip();
        if (trimmed.startsWith("{")) {
            return parseJson(trimmed.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        List<String> urls = trimmed.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return urls.isEmpty() ? new Parsed.Invalid("empty message") : new Parsed.Urls(urls);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
