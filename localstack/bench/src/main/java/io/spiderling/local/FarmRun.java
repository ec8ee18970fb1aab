package io.spiderling.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.testkit.FarmOutcomes;
import io.spiderling.testkit.HostileFarm;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link HostileFarm}'s batches through a local Spiderling, followed as a user would, through the HTTP API: shared
 * by the farm's end-to-end test and {@code ./spiderling bench-farm}, so both run the same thing. The soak
 * ({@link Soak}) submits and follows its batches with the same calls.
 */
final class FarmRun {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int PAGE = 100;
    private static final Duration POLL_EVERY = Duration.ofSeconds(1);

    private FarmRun() {}

    /** The runner's defaults, with the farm's rate overrides file (written to {@code dir}) and nothing else. */
    static LocalSpiderling.Options options(HostileFarm farm, Path dir) throws IOException {
        return LocalSpiderling.Options.defaults()
                .withConfig("spiderling.fetch.rate-overrides-file", farm.rateOverrides(dir).toString());
    }

    /** A batch submitted, with what each of its items should come to. */
    record Submitted(String batchId, Map<String, FarmOutcomes.Expected> expected) {}

    /** Submits the farm's batch, then each of its follow-ups at once after the one before. */
    static List<Submitted> submitAll(LocalSpiderling local, HostileFarm farm) throws IOException,
            InterruptedException {
        List<Submitted> submitted = new java.util.ArrayList<>();
        submitted.add(new Submitted(submit(local, farm.urls()), farm.expected()));
        for (HostileFarm.Batch batch : farm.followUps()) {
            submitted.add(new Submitted(submit(local, batch.urls()), batch.expected()));
        }
        return submitted;
    }

    /** Submits {@code urls} as one batch; returns its id. */
    static String submit(LocalSpiderling local, List<String> urls) throws IOException, InterruptedException {
        var array = JSON.createArrayNode();
        urls.forEach(array::add);
        HttpResponse<String> response = HTTP.send(local.apiRequest("/batches")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.createObjectNode().set("urls", array).toString()))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
            throw new IllegalStateException("POST /batches answered " + response.statusCode() + ": "
                    + response.body());
        }
        JsonNode accepted = JSON.readTree(response.body());
        if (accepted.get("accepted").asInt() + accepted.get("duplicates").asInt() != urls.size()) {
            throw new IllegalStateException("the farm's URLs were not all accepted: " + response.body());
        }
        return accepted.get("batchId").asText();
    }

    /** Every item of the batch: URL to state, as {@code GET /batches/{id}/urls} reports them, page by page. */
    static Map<String, String> states(LocalSpiderling local, String batchId) throws IOException, InterruptedException {
        return states(local, batchId, PAGE);
    }

    /** {@link #states(LocalSpiderling, String)} in pages of {@code pageSize} items (the API allows up to 1,000). */
    static Map<String, String> states(LocalSpiderling local, String batchId, int pageSize)
            throws IOException, InterruptedException {
        Map<String, String> states = new HashMap<>();
        String cursor = null;
        do {
            String query = "?limit=" + pageSize + (cursor == null ? "" : "&cursor=" + encode(cursor));
            JsonNode page = get(local, "/batches/" + batchId + "/urls" + query);
            page.get("items").forEach(item -> states.put(item.get("url").asText(), item.get("state").asText()));
            cursor = page.get("cursor").isNull() ? null : page.get("cursor").asText();
        } while (cursor != null);
        return states;
    }

    /**
     * Polls the batches' items until every URL expected to end has ended (the farm's waiting URLs never do), or until
     * {@code deadline}, a safety net only; returns the last comparison of all the batches either way.
     */
    static FarmOutcomes awaitSettled(LocalSpiderling local, List<Submitted> batches, Duration deadline)
            throws IOException, InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (true) {
            FarmOutcomes outcomes = new FarmOutcomes(List.of(), List.of());
            for (Submitted batch : batches) {
                outcomes = outcomes.plus(FarmOutcomes.compare(batch.expected(), states(local, batch.batchId())));
            }
            if (outcomes.settled() || System.nanoTime() > end) {
                return outcomes;
            }
            Thread.sleep(POLL_EVERY.toMillis());
        }
    }

    /** {@code GET /batches/{id}}: the batch's status, with its counts by state. */
    static JsonNode batch(LocalSpiderling local, String batchId) throws IOException, InterruptedException {
        return get(local, "/batches/" + batchId);
    }

    /** {@code GET /urls?url=…}: the URL's record. */
    static JsonNode url(LocalSpiderling local, String url) throws IOException, InterruptedException {
        return get(local, "/urls?url=" + encode(url));
    }

    private static JsonNode get(LocalSpiderling local, String pathAndQuery) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(local.apiRequest(pathAndQuery).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + pathAndQuery + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
