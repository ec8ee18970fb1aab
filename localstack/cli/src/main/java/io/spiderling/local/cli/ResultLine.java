package io.spiderling.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * What became of one submitted line: one line of {@code results.jsonl}.
 *
 * @param input the line as submitted, whole
 * @param url its normal form; empty when it was rejected
 * @param site the site it belongs to ({@code host} or {@code host:port}); empty when rejected
 * @param state the batch item's state ({@code fetched}, {@code failed}, …), or {@code rejected}
 * @param reason the code of why it ended so ({@code Reason}'s, e.g. {@code robots-disallowed}): the item's, else the
 *     record's; {@code invalid-url} for a rejection; empty while queued
 * @param detail why it ended so, when the batch says (a failure's reason, a skip's cause); a rejection's reason
 * @param duplicate whether an earlier line of the input has the same normal form (both lines show the same result)
 * @param record the URL's record as {@code GET /urls} shows it; a missing node when there is none
 * @param sitemap the line is of a sitemap the batch read, not of a page ({@code "kind":"sitemap"})
 */
record ResultLine(String input, Optional<String> url, Optional<String> site, String state, Optional<String> reason,
        Optional<String> detail, boolean duplicate, JsonNode record, boolean sitemap) {

    ResultLine(String input, Optional<String> url, Optional<String> site, String state, Optional<String> reason,
            Optional<String> detail, boolean duplicate, JsonNode record) {
        this(input, url, site, state, reason, detail, duplicate, record, false);
    }

    /** The same line, of a sitemap the batch read (ADR 19) rather than of a page. */
    ResultLine asSitemap() {
        return new ResultLine(input, url, site, state, reason, detail, duplicate, record, true);
    }

    static final String REJECTED = "rejected";

    /**
     * Members of the URL record copied to the line as they are: {@code requestUrl} is the spelling requested for the
     * URL that answered (the first line's, when lines share a key), {@code redirects} the chain requested before it.
     */
    private static final List<String> COPIED = List.of("requestUrl", "httpStatus", "contentType", "size",
            "truncated", "contentKey", "contentSha256", "finalUrl", "redirects", "aliasOf", "fetchedAt", "freshUntil",
            "attempts", "timings", "change", "metadata", "capture");

    /** The error to report: the item's detail for a failure or a rejection, else the record's own error. */
    Optional<String> error() {
        if (state.equals("failed") || state.equals(REJECTED) || state.equals("invalid")) {
            return detail.or(() -> text(record, "error"));
        }
        return text(record, "error");
    }

    Optional<String> contentSha256() {
        return text(record, "contentSha256");
    }

    /** The digest of the Markdown of the URL's main content, when a batch asked for it and the page had some. */
    Optional<String> markdownSha256() {
        return text(record.path("markdown"), "sha256");
    }

    Optional<Long> totalMs() {
        JsonNode ms = record.path("timings").path("totalMs");
        return ms.isNumber() && (state.equals("fetched") || state.equals("not-modified"))
                ? Optional.of(ms.asLong()) : Optional.empty();
    }

    long bytes() {
        return state.equals("fetched") ? record.path("size").asLong(0) : 0;
    }

    ObjectNode toJson(Optional<String> bodyPath) {
        return toJson(bodyPath, Optional.empty());
    }

    /**
     * @param bodyPath where the body was kept, relative to the results
     * @param markdownPath where the Markdown was kept: {@code "markdown"} is the record's, with {@code "file"} added
     */
    ObjectNode toJson(Optional<String> bodyPath, Optional<String> markdownPath) {
        ObjectNode node = ApiClient.JSON.createObjectNode().put("input", input);
        url.ifPresentOrElse(u -> node.put("url", u), () -> node.putNull("url"));
        node.put("state", state);
        if (sitemap) {
            node.put("kind", "sitemap");
        }
        reason.ifPresent(r -> node.put("reason", r));
        detail.filter(d -> !d.equals(error().orElse(null))).ifPresent(d -> node.put("detail", d));
        if (duplicate) {
            node.put("duplicate", true);
        }
        for (String member : COPIED) {
            if (record.has(member)) {
                node.set(member, record.get(member));
            }
        }
        bodyPath.ifPresent(path -> node.put("body", path));
        if (record.path("markdown").isObject()) {
            ObjectNode markdown = node.putObject("markdown");
            markdownPath.ifPresent(path -> markdown.put("file", path));
            markdown.setAll((ObjectNode) record.get("markdown"));
        }
        error().ifPresent(e -> node.put("error", e));
        return node;
    }

    private static Optional<String> text(JsonNode node, String member) {
        return node.hasNonNull(member) ? Optional.of(node.get(member).asText()) : Optional.empty();
    }
}
