package io.spiderling.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.spiderling.core.batch.BatchPlanner;
import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Submits the URLs as one batch: in the request body up to {@value BatchPlanner#MAX_URLS} URLs (and the API's body
 * limit), else through the upload path (a presigned PUT of a JSONL manifest), which takes any number. Either way
 * with an Idempotency-Key, so a retry, or a run resumed after a crash, gets the same batch.
 */
final class Submission {

    /** The API's request body limit (5 MiB) with room for the JSON around the URLs. */
    static final int MAX_BODY_CHARS = 4 * 1024 * 1024;

    /** The accepted batch, and what the API said at once (an upload's counts come only once it is planned). */
    record Accepted(String batchId, boolean uploaded, JsonNode answer) {}

    private Submission() {}

    static boolean viaUpload(List<String> urls) {
        long chars = urls.stream().mapToLong(u -> u.length() + 4).sum();
        return urls.size() > BatchPlanner.MAX_URLS || chars > MAX_BODY_CHARS;
    }

    static Accepted submit(ApiClient api, List<String> urls, String idempotencyKey, Map<String, Object> options) {
        return viaUpload(urls) ? upload(api, urls, idempotencyKey, options) : post(api, urls, idempotencyKey, options);
    }

    private static Accepted post(ApiClient api, List<String> urls, String key, Map<String, Object> options) {
        var body = ApiClient.JSON.createObjectNode();
        ArrayNode array = body.putArray("urls");
        urls.forEach(array::add);
        options.forEach((name, value) -> body.set(name, ApiClient.JSON.valueToTree(value)));
        ApiClient.Response answer = api.post("/batches", body.toString(), Map.of("Idempotency-Key", key));
        if (answer.status() == 400) {
            throw new CliException(ExitCode.USAGE, "the batch was refused: " + answer.error() + rejections(answer.body()));
        }
        if (answer.status() != 202) {
            throw new CliException(ExitCode.INTERNAL, "POST /batches answered " + answer.status() + ": "
                    + answer.error());
        }
        return new Accepted(answer.body().path("batchId").asText(), false, answer.body());
    }

    private static Accepted upload(ApiClient api, List<String> urls, String key, Map<String, Object> options) {
        var body = ApiClient.JSON.createObjectNode().put("format", "jsonl");
        options.forEach((name, value) -> body.set(name, ApiClient.JSON.valueToTree(value)));
        ApiClient.Response started = api.post("/batches/uploads", body.toString(), Map.of("Idempotency-Key", key));
        if (started.status() != 201) {
            throw new CliException(started.status() == 400 ? ExitCode.USAGE : ExitCode.INTERNAL,
                    "POST /batches/uploads answered " + started.status() + ": " + started.error());
        }
        Path manifest = null;
        try {
            manifest = Files.createTempFile("spiderling-manifest-", ".jsonl");
            try (BufferedWriter out = Files.newBufferedWriter(manifest, StandardCharsets.UTF_8)) {
                for (String url : urls) {
                    out.write(ApiClient.JSON.writeValueAsString(url));
                    out.write('\n');
                }
            }
            Map<String, String> headers = new LinkedHashMap<>();
            started.body().path("headers").fields().forEachRemaining(h -> headers.put(h.getKey(), h.getValue().asText()));
            int status = api.putPresigned(URI.create(started.body().path("uploadUrl").asText()), headers, manifest);
            if (status / 100 != 2) {
                throw new CliException(ExitCode.INTERNAL, "uploading the manifest answered " + status);
            }
        } catch (IOException e) {
            throw new CliException(ExitCode.UNAVAILABLE, "cannot write the manifest: " + e.getMessage(), e);
        } finally {
            if (manifest != null) {
                manifest.toFile().delete();
            }
        }
        return new Accepted(started.body().path("batchId").asText(), true, started.body());
    }

    private static String rejections(JsonNode body) {
        StringBuilder text = new StringBuilder();
        int shown = 0;
        for (JsonNode r : body.path("rejected")) {
            if (shown++ == 5) {
                text.append("\n  …");
                break;
            }
            text.append("\n  ").append(UrlText.shorten(r.path("url").asText())).append(": ")
                    .append(r.path("reason").asText());
        }
        return text.toString();
    }
}
