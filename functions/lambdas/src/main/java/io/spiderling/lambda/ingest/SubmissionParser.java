package io.spiderling.lambda.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.pipeline.ingest.Ingest;
import io.spiderling.lambda.internal.HttpJson;
import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a submission: {@code {"urls":[…], "sitemaps":[…], "sitemapsFromRobots":true, "callbackUrl":…,
 * "recrawlAfter":"PT1H", "capture":true, "markdown":true, "notify":["changes"]}} (or {@code "url"} for one)
 * as JSON, or (from the queue) a
 * bare URL as plain text. Every problem is reported as a message that names it.
 */
final class SubmissionParser {

    private SubmissionParser() {}

    private static final Set<String> FIELDS = Set.of("url", "urls", "sitemaps", "sitemapsFromRobots", "callbackUrl",
            "recrawlAfter", "progressEvery", "capture", "markdown", "notify");

    sealed interface Parsed {
        /**
         * @param sitemaps the sitemaps the batch names (ADR 19), read in the pipeline, not here
         * @param sitemapsFromRobots read the sitemaps the robots.txt of each of the batch's sites names, too
         */
        record Urls(List<String> urls, List<String> sitemaps, BatchOptions options, boolean sitemapsFromRobots)
                implements Parsed {
            Urls(List<String> urls, List<String> sitemaps, BatchOptions options) {
                this(urls, sitemaps, options, false);
            }

            Urls(List<String> urls, BatchOptions options) {
                this(urls, List.of(), options);
            }

            /** What the batch asks of ingest. */
            Ingest.Submission submission() {
                return new Ingest.Submission(urls, sitemaps, options, sitemapsFromRobots);
            }

            Urls(List<String> urls) {
                this(urls, BatchOptions.NONE);
            }
        }

        record Invalid(String problem) implements Parsed {}
    }

    private static final Set<String> UPLOAD_FIELDS = Set.of("format", "callbackUrl", "recrawlAfter", "progressEvery",
            "capture", "markdown", "notify");

    sealed interface ParsedUpload {
        /** The manifest's format (default {@code text}) and the batch options. */
        record Request(UploadFormat format, BatchOptions options) implements ParsedUpload {}

        record Invalid(String problem) implements ParsedUpload {}
    }

    /**
     * Reads {@code POST /batches/uploads}: {@code {"format":"jsonl"|"text", "callbackUrl":…, "recrawlAfter":…}}, all
     * optional; an empty body means a text manifest with no options. Returns the problem when there is one.
     */
    static ParsedUpload parseUpload(byte[] body) {
        if (body.length == 0 || new String(body, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
            return new ParsedUpload.Request(UploadFormat.TEXT, BatchOptions.NONE);
        }
        JsonNode root;
        try {
            root = HttpJson.JSON.readTree(body);
        } catch (IOException e) {
            return new ParsedUpload.Invalid("malformed JSON: " + firstLine(e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            return new ParsedUpload.Invalid("expected a JSON object like {\"format\":\"jsonl\"}");
        }
        for (var names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (name.equals("sitemaps") || name.equals("sitemapsFromRobots")) {
                return new ParsedUpload.Invalid("\"" + name + "\" is for POST /batches: an uploaded manifest's batch"
                        + " reads no sitemaps");
            }
            if (!UPLOAD_FIELDS.contains(name)) {
                return new ParsedUpload.Invalid("unknown field \"" + name + "\"; expected format, callbackUrl, recrawlAfter, progressEvery, capture, markdown, notify");
            }
        }
        try {
            UploadFormat format = optionalText(root, "format")
                    .map(f -> UploadFormat.fromWireName(f).orElseThrow(() -> new IllegalArgumentException(
                            "\"format\" must be \"text\" or \"jsonl\", was \"" + f + "\"")))
                    .orElse(UploadFormat.TEXT);
            return new ParsedUpload.Request(format, options(root));
        } catch (IllegalArgumentException e) {
            return new ParsedUpload.Invalid(e.getMessage());
        }
    }

    private static BatchOptions options(JsonNode root) {
        return BatchOptions.builder().callbackUrl(optionalText(root, "callbackUrl"))
                .recrawlAfter(optionalText(root, "recrawlAfter").map(text -> duration("recrawlAfter", text)))
                .progressEvery(optionalText(root, "progressEvery").map(text -> duration("progressEvery", text)))
                .capture(flag(root, "capture")).markdown(flag(root, "markdown")).notices(notices(root)).build();
    }

    /**
     * {@code "notify"}: an array of the wire names of {@link BatchOptions.Notice}, each at most once; absent or null
     * is none. That it needs a callback is the use case's check.
     */
    private static Set<BatchOptions.Notice> notices(JsonNode root) {
        JsonNode value = root.get("notify");
        if (value == null || value.isNull()) {
            return Set.of();
        }
        String expected = "\"notify\" must be an array of: " + BatchOptions.Notice.wireNames();
        if (!value.isArray()) {
            throw new IllegalArgumentException(expected);
        }
        Set<BatchOptions.Notice> notices = EnumSet.noneOf(BatchOptions.Notice.class);
        for (int i = 0; i < value.size(); i++) {
            JsonNode name = value.get(i);
            if (!name.isTextual()) {
                throw new IllegalArgumentException(expected + "; [" + i + "] is not a string");
            }
            String at = "\"notify\"[" + i + "]: ";
            BatchOptions.Notice notice = BatchOptions.Notice.fromWireName(name.asText()).orElseThrow(() ->
                    new IllegalArgumentException(at + "unknown notice \"" + name.asText() + "\"; expected one of: "
                            + BatchOptions.Notice.wireNames()));
            if (!notices.add(notice)) {
                throw new IllegalArgumentException(at + "\"" + name.asText() + "\" is given twice");
            }
        }
        return notices;
    }

    /** An optional boolean: absent or null is false. */
    private static boolean flag(JsonNode root, String field) {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new IllegalArgumentException("\"" + field + "\" must be true or false");
        }
        return value.booleanValue();
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
        for (var names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                return new Parsed.Invalid("unknown field \"" + name + "\"; expected urls, sitemaps, sitemapsFromRobots,"
                        + " callbackUrl, recrawlAfter, progressEvery, capture, markdown, notify");
            }
        }
        BatchOptions options;
        boolean fromRobots;
        try {
            options = options(root);
            fromRobots = flag(root, "sitemapsFromRobots");
        } catch (IllegalArgumentException e) {
            return new Parsed.Invalid(e.getMessage());
        }
        JsonNode single = root.get("url");
        JsonNode many = root.get("urls");
        JsonNode sitemapsNode = root.get("sitemaps");
        List<String> sitemaps = new ArrayList<>();
        if (sitemapsNode != null) {
            if (!sitemapsNode.isArray() || sitemapsNode.isEmpty()) {
                return new Parsed.Invalid("\"sitemaps\" must be a non-empty array of strings");
            }
            for (int i = 0; i < sitemapsNode.size(); i++) {
                if (!sitemapsNode.get(i).isTextual()) {
                    return new Parsed.Invalid("\"sitemaps\"[" + i + "] must be a string");
                }
                sitemaps.add(sitemapsNode.get(i).asText());
            }
        }
        if (many != null && single != null) {
            return new Parsed.Invalid("give \"urls\" or \"url\", not both");
        }
        if (many == null && single != null) {
            return single.isTextual() ? new Parsed.Urls(List.of(single.asText()), sitemaps, options, fromRobots)
                    : new Parsed.Invalid("\"url\" must be a string");
        }
        if (many == null && !sitemaps.isEmpty()) {
            return new Parsed.Urls(List.of(), sitemaps, options, fromRobots);
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
                        .name().toLowerCase(Locale.ROOT));
            }
            urls.add(many.get(i).asText());
        }
        return new Parsed.Urls(urls, sitemaps, options, fromRobots);
    }

    private static Optional<String> optionalText(JsonNode root, String field) {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a string");
        }
        return Optional.of(value.asText());
    }

    private static Duration duration(String field, String text) {
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"" + field + "\" must be an ISO-8601 duration such as PT1H, was \""
                    + text + "\"");
        }
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
