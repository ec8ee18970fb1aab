package io.spiderling.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.pipeline.query.Queries;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every submitted line's result, read back through the API the way any client would: the batch's items (their
 * states), then the URLs' records in batches of {@value Queries#MAX_BATCH_GET}. Lines are matched to items by the same
 * normalizer the ingest stage runs, so duplicates and rejections line up with what the batch decided.
 */
final class BatchResults {

    private static final Set<String> WITHOUT_RECORD = Set.of("queued", "cancelled", "invalid");

    private BatchResults() {}

    /**
     * @param done whether the batch had finished: a line whose item is missing from an unfinished batch is still
     *     queued (an uploaded manifest not planned yet); from a finished one, unknown
     */
    static List<ResultLine> collect(ApiClient api, String batchId, List<String> inputs, boolean done) {
        Map<String, JsonNode> items = items(api, batchId);
        List<String> withRecord = items.entrySet().stream()
                .filter(e -> !WITHOUT_RECORD.contains(e.getValue().path("state").asText()))
                .map(Map.Entry::getKey).toList();
        Map<String, JsonNode> records = records(api, withRecord);
        UrlNormalizer normalizer = UrlNormalizer.create();
        Set<String> seen = new HashSet<>();
        List<ResultLine> lines = new ArrayList<>(inputs.size());
        for (String input : inputs) {
            switch (normalizer.normalize(input)) {
                case NormalizationResult.Rejected rejected -> lines.add(new ResultLine(input, Optional.empty(),
                        Optional.empty(), ResultLine.REJECTED, Optional.of(Reason.INVALID_URL.code()),
                        Optional.of(rejected.reason()), false, MissingNode.getInstance()));
                case NormalizationResult.Accepted accepted -> {
                    NormalizedUrl url = accepted.url();
                    JsonNode item = items.get(url.value());
                    boolean duplicate = !seen.add(url.value());
                    if (item == null) {
                        lines.add(new ResultLine(input, Optional.of(url.value()), Optional.of(site(url)),
                                done ? "unknown" : "queued", Optional.empty(),
                                done ? Optional.of("not among the batch's items") : Optional.empty(), duplicate,
                                MissingNode.getInstance()));
                    } else {
                        JsonNode record = records.getOrDefault(url.value(), MissingNode.getInstance());
                        lines.add(new ResultLine(input, Optional.of(url.value()), Optional.of(site(url)),
                                item.path("state").asText(), text(item, "reason").or(() -> text(record, "reason")),
                                text(item, "detail"), duplicate, record));
                    }
                }
            }
        }
        return lines;
    }

    private static Optional<String> text(JsonNode node, String member) {
        return node.hasNonNull(member) ? Optional.of(node.get(member).asText()) : Optional.empty();
    }

    /** {@code host}, or {@code host:port} when the port is not the scheme's own: as people name a site. */
    static String site(NormalizedUrl url) {
        boolean defaultPort = url.port() == (url.scheme().equals("https") ? 443 : 80);
        return defaultPort ? url.host() : url.host() + ":" + url.port();
    }

    /** The batch's items by URL, every page. */
    private static Map<String, JsonNode> items(ApiClient api, String batchId) {
        Map<String, JsonNode> items = new HashMap<>();
        Optional<String> cursor = Optional.empty();
        do {
            String path = "/batches/" + batchId + "/urls?limit=" + Queries.MAX_PAGE
                    + cursor.map(c -> "&cursor=" + URLEncoder.encode(c, StandardCharsets.UTF_8)).orElse("");
            ApiClient.Response page = api.get(path).expect("GET " + path, "no batch " + batchId);
            for (JsonNode item : page.body().path("items")) {
                items.put(item.path("url").asText(), item);
            }
            JsonNode next = page.body().path("cursor");
            cursor = next.isTextual() ? Optional.of(next.asText()) : Optional.empty();
        } while (cursor.isPresent());
        return items;
    }

    /** The URLs' records, keyed by the URL asked for (an alias answers with the record it points to). */
    private static Map<String, JsonNode> records(ApiClient api, List<String> urls) {
        Map<String, JsonNode> records = new LinkedHashMap<>();
        for (int from = 0; from < urls.size(); from += Queries.MAX_BATCH_GET) {
            List<String> slice = urls.subList(from, Math.min(urls.size(), from + Queries.MAX_BATCH_GET));
            ArrayNode array = ApiClient.JSON.createArrayNode();
            slice.forEach(array::add);
            ApiClient.Response answer = api.post("/urls/batchGet",
                    ApiClient.JSON.createObjectNode().set("urls", array).toString(), Map.of())
                    .expect("POST /urls/batchGet", "POST /urls/batchGet is not served here");
            JsonNode results = answer.body().path("results");
            for (int i = 0; i < slice.size(); i++) {
                JsonNode record = results.path(i);
                if (!record.has("status") || record.path("status").asInt() == 200) {
                    records.put(slice.get(i), record);
                }
            }
        }
        return records;
    }
}
