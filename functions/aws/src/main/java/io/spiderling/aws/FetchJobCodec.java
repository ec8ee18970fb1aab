package io.spiderling.aws;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;

/**
 * The fetch queue's message body: {@code {"batchId":…,"url":…,"attempt":…,"send":…}}, with {@code "request"} when the
 * URL is requested in a spelling other than its key's, and {@code "origin"} and {@code "via"} for a job that
 * continues a redirect chain, and {@code "partition"} for an entry outside its site's first frontier partition.
 * {@code send} is optional (1), {@code request} too (the key's spelling), {@code partition} too (0).
 */
public final class FetchJobCodec {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private FetchJobCodec() {}

    public static String encode(FetchJob job) {
        ObjectNode node = JSON.createObjectNode()
                .put("batchId", job.batchId())
                .put("url", job.url().value())
                .put("attempt", job.attempt())
                .put("send", job.send());
        if (!job.request().value().equals(job.url().value())) {
            node.put("request", job.request().value());
        }
        job.origin().ifPresent(o -> node.put("origin", o.value()));
        if (job.partition() != 0) {
            node.put("partition", job.partition());
        }
        if (!job.via().isEmpty()) {
            job.via().forEach(node.putArray("via")::add);
        }
        job.hop().sitemap().ifPresent(task -> {
            ObjectNode sitemap = node.putObject("sitemap").put("depth", task.indexDepth());
            task.namedBy().forEach(sitemap.putArray("namedBy")::add);
            if (task.robotsTxt()) {
                sitemap.put("robots", true);
            }
        });
        job.hop().lastmod().ifPresent(lastmod -> node.put("lastmod", lastmod.toString()));
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
        JsonNode send = node.get("send");
        if (send != null && (!send.isIntegralNumber() || !send.canConvertToInt())) {
            throw new IllegalArgumentException("fetch job's \"send\" must be an integer");
        }
        JsonNode partition = node.get("partition");
        if (partition != null && (!partition.isIntegralNumber() || !partition.canConvertToInt()
                || partition.intValue() < 0)) {
            throw new IllegalArgumentException("fetch job's \"partition\" must be a non-negative integer");
        }
        Optional<NormalizedUrl> origin = node.hasNonNull("origin")
                ? Optional.of(NormalizedUrl.parse(text(node, "origin"))) : Optional.empty();
        List<String> via = new ArrayList<>();
        JsonNode hops = node.get("via");
        if (hops != null) {
            if (!hops.isArray()) {
                throw new IllegalArgumentException("fetch job's \"via\" must be an array of URLs");
            }
            hops.forEach(h -> via.add(h.asText()));
        }
        String request = node.hasNonNull("request") ? text(node, "request") : url;
        Hop hop = new Hop(NormalizedUrl.parse(url), RequestUrl.parse(request), origin, via, sitemap(node));
        if (node.hasNonNull("lastmod")) {
            try {
                hop = hop.withLastmod(java.time.Instant.parse(text(node, "lastmod")));
            } catch (java.time.format.DateTimeParseException e) {
                throw new IllegalArgumentException("fetch job's \"lastmod\" must be an ISO-8601 instant", e);
            }
        }
        return new FetchJob(batchId, hop, attempt.intValue(), send == null ? 1 : send.intValue(),
                partition == null ? 0 : partition.intValue());
    }

    /**
     * {@code "sitemap": {"depth": n, "namedBy": [robots.txt URLs]}}, on a job that reads a sitemap; with
     * {@code "robots": true} on one that reads a site's robots.txt for its sitemaps (absent: false).
     */
    private static Optional<SitemapTask> sitemap(JsonNode node) {
        JsonNode sitemap = node.get("sitemap");
        if (sitemap == null) {
            return Optional.empty();
        }
        JsonNode depth = sitemap.get("depth");
        JsonNode namedBy = sitemap.path("namedBy");
        JsonNode robotsTxt = sitemap.path("robots");
        if (!sitemap.isObject() || depth == null || !depth.canConvertToInt() || depth.intValue() < 0
                || !(namedBy.isMissingNode() || namedBy.isArray())
                || !(robotsTxt.isMissingNode() || robotsTxt.isBoolean())) {
            throw new IllegalArgumentException("fetch job's \"sitemap\" must be {\"depth\": a non-negative integer,"
                    + " \"namedBy\": [robots.txt URLs], \"robots\": a boolean}");
        }
        List<String> robots = new ArrayList<>();
        namedBy.forEach(r -> robots.add(r.asText()));
        return Optional.of(new SitemapTask(depth.intValue(), robots, robotsTxt.asBoolean(false)));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException("fetch job needs a string \"" + field + "\"");
        }
        return value.asText();
    }
}
