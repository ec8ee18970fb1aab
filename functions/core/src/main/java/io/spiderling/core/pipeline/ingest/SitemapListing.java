package io.spiderling.core.pipeline.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.spiderling.core.batch.Reason;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A read sitemap's list as the planners take it (ADR 19): one JSON line per entry, cut into chunks of
 * {@value #ENTRIES_PER_CHUNK} stored under {@code planned/}, each planned by one message of the plan queue, as an
 * upload's chunks are. An entry is a URL the sitemap listed, with its {@code lastmod}, or one the sitemaps protocol
 * refuses, with its reason and detail: {@code {"url":"…","lastmod":"…"}}, {@code {"url":"…","reason":"…",
 * "detail":"…"}}. An entry's position among the batch's items is the sitemap's first position plus its index in the
 * list, so a chunk planned again finds its items by position.
 */
final class SitemapListing {

    /** Entries per chunk: a tenth of the protocol's 50,000, planned by one invocation in well under its time. */
    static final int ENTRIES_PER_CHUNK = 10_000;

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private SitemapListing() {}

    /** One entry of the list. */
    sealed interface Entry {
        String url();

        /** A URL to plan. */
        record Listed(String url, Optional<Instant> lastmod) implements Entry {
            public Listed {
                Objects.requireNonNull(url, "url");
                Objects.requireNonNull(lastmod, "lastmod");
            }
        }

        /** A URL the sitemaps protocol refuses: an {@code invalid} item. */
        record Refused(String url, Reason reason, String detail) implements Entry {
            public Refused {
                Objects.requireNonNull(url, "url");
                Objects.requireNonNull(reason, "reason");
                Objects.requireNonNull(detail, "detail");
            }
        }
    }

    /** How many chunks a list of {@code entries} takes: at least one, so that even an empty list is planned. */
    static int chunkCount(int entries) {
        return Math.max(1, (entries + ENTRIES_PER_CHUNK - 1) / ENTRIES_PER_CHUNK);
    }

    /** The index in the list of the first entry of {@code chunk}. */
    static int firstIndex(int chunk) {
        return chunk * ENTRIES_PER_CHUNK;
    }

    /** Chunk {@code chunk} of {@code entries}, as stored: UTF-8 JSON lines. */
    static byte[] chunk(List<Entry> entries, int chunk) {
        StringBuilder out = new StringBuilder();
        int from = firstIndex(chunk);
        for (Entry entry : entries.subList(Math.min(from, entries.size()),
                Math.min(from + ENTRIES_PER_CHUNK, entries.size()))) {
            ObjectNode line = JSON.createObjectNode().put("url", entry.url());
            switch (entry) {
                case Entry.Listed listed -> listed.lastmod().ifPresent(at -> line.put("lastmod", at.toString()));
                case Entry.Refused refused -> line.put("reason", refused.reason().code())
                        .put("detail", refused.detail());
            }
            out.append(line).append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The entries of a stored chunk.
     *
     * @throws IllegalArgumentException for bytes this class did not write
     */
    static List<Entry> read(byte[] chunk) {
        List<Entry> entries = new ArrayList<>();
        for (String text : new String(chunk, StandardCharsets.UTF_8).split("\n")) {
            if (text.isEmpty()) {
                continue;
            }
            try {
                JsonNode line = JSON.readTree(text);
                String url = line.path("url").asText(null);
                if (url == null) {
                    throw new IllegalArgumentException("a sitemap list line without a url: " + text);
                }
                if (line.hasNonNull("reason")) {
                    Reason reason = Reason.ofCode(line.get("reason").asText()).orElseThrow(
                            () -> new IllegalArgumentException("unknown reason in a sitemap list line: " + text));
                    entries.add(new Entry.Refused(url, reason, line.path("detail").asText("")));
                } else {
                    entries.add(new Entry.Listed(url, line.hasNonNull("lastmod")
                            ? Optional.of(Instant.parse(line.get("lastmod").asText())) : Optional.empty()));
                }
            } catch (IOException | DateTimeParseException e) {
                throw new IllegalArgumentException("not a sitemap list line: " + text, e);
            }
        }
        return entries;
    }
}
