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
        Map<String, JsonNode> all = items(api, batchId);
        // A sitemap's item is keyed apart from a page's of the same URL (ADR 19); it has no URL record of its own.
        Map<String, JsonNode> items = new LinkedHashMap<>();
        List<JsonNode> sitemaps = new ArrayList<>();
        all.forEach((key, item) -> {
            if (item.path("kind").asText("page").equals("sitemap")) {
                sitemaps.add(item);
            } else {
                items.put(item.path("url").asText(), item);
            }
        });
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
        // What the batch's sitemaps listed, and the sitemaps themselves: a line each, after the submitted ones.
        Set<String> submitted = new HashSet<>(seen);
        items.forEach((key, item) -> {
            if (!submitted.contains(key)) {
                lines.add(listed(item, records.getOrDefault(key, MissingNode.getInstance())));
            }
        });
        sitemaps.forEach(item -> lines.add(listed(item, MissingNode.getInstance()).asSitemap()));
        return lines;
    }

    /** The line of an item no submitted line names: a URL a sitemap listed (or a refused entry of one). */
    private static ResultLine listed(JsonNode item, JsonNode record) {
        String shown = item.path("url").asText();
        Optional<NormalizedUrl> url = item.path("state").asText().equals("invalid") ? Optional.empty()
                : Optional.of(NormalizedUrl.parse(shown));
        return new ResultLine(shown, url.map(NormalizedUrl::value), url.map(BatchResults::site),
                item.path("state").asText(), text(item, "reason").or(() -> text(record, "reason")),
                text(item, "detail"), false, record);
    }

    private static Optional<String> text(JsonNode node, String member) {
        return node.hasNonNull(member) ? Optional.of(node.get(member).asText()) : Optional.empty();
    }

    /** {@code host}, or {@code host:port} when the port is not the scheme's own: as people name a site. */
    static String site(NormalizedUrl url) {
        boolean defaultPort = url.port() == (url.scheme().equals("https") ? 443 : 80);
        return defaultPort ? url.host() : url.host() + ":" + url.port();
    }

    /** The batch's items by their key (a page's URL hash, a sitemap's own), every page. */
    private static Map<String, JsonNode> items(ApiClient api, String batchId) {
        Map<String, JsonNode> items = new HashMap<>();
        Optional<String> cursor = Optional.empty();
        do {
            String path = "/batches/" + batchId + "/urls?limit=" + Queries.MAX_PAGE
                    + cursor.map(c -> "&cursor=" + URLEncoder.encode(c, StandardCharsets.UTF_8)).orElse("");
            ApiClient.Response page = api.get(path).expect("GET " + path, "no batch " + batchId);
            for (JsonNode item : page.body().path("items")) {
                items.put(item.path("urlHash").asText(item.path("url").asText()), item);
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
