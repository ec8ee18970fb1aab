package io.spiderling.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A batch as {@code GET /batches/{id}} shows it, as much as the CLI needs.
 *
 * @param counts every state's count by its wire name, {@code queued} included, in the API's order
 * @param waiting what the unfinished batch waits on, as the API explains it
 * @param waitingMore sites that wait beyond those the API looked at
 */
public record BatchSnapshot(String batchId, int total, boolean done, Map<String, Integer> counts,
        List<Waiting> waiting, int waitingMore, int duplicates, int rejectedCount, Optional<String> uploadState) {

    /** One thing the batch waits on: a site and why, until when if known. */
    public record Waiting(String site, String reason, String detail, Optional<Instant> until, int urls) {
        /**
         * One line for a person: {@code 127.0.0.4: robots.txt unreachable (503), next try 22:41:07}. The word before
         * the time follows the reason's wire name, as {@code GET /batches/{id}} documents them.
         */
        public String describe(java.time.ZoneId zone) {
            StringBuilder text = new StringBuilder();
            if (!site.isEmpty()) {
                text.append(site).append(": ");
            }
            text.append(detail.isEmpty() ? reason : detail);
            until.ifPresent(at -> text.append(", ").append(switch (reason) {
                case "robots-unreachable" -> "next try ";
                case "retrying" -> "next attempt ";
                case "rate-limited" -> "next slot ";
                default -> "until ";
            }).append(Durations.clock(at, zone)));
            if (urls > 0) {
                text.append(" (").append(urls).append(urls == 1 ? " URL)" : " URLs)");
            }
            return text.toString();
        }
    }

    public BatchSnapshot {
        counts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        waiting = List.copyOf(waiting);
    }

    public int queued() {
        return counts.getOrDefault("queued", 0);
    }

    /** URLs that reached a terminal state. */
    public int ended() {
        return total - queued();
    }

    public int count(String state) {
        return counts.getOrDefault(state, 0);
    }

    static BatchSnapshot of(JsonNode status) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        status.path("counts").fields().forEachRemaining(e -> counts.put(e.getKey(), e.getValue().asInt()));
        List<Waiting> waiting = new ArrayList<>();
        for (JsonNode w : status.path("waiting")) {
            waiting.add(new Waiting(w.path("site").asText(""), w.path("reason").asText(""),
                    w.path("detail").asText(""),
                    w.hasNonNull("until") ? Optional.of(Instant.parse(w.get("until").asText())) : Optional.empty(),
                    w.path("urls").asInt(0)));
        }
        return new BatchSnapshot(status.path("batchId").asText(), status.path("total").asInt(),
                status.path("done").asBoolean(), counts, waiting, status.path("waitingMore").asInt(0),
                status.path("duplicates").asInt(),
                status.path("rejectedCount").asInt(),
                status.has("upload") ? Optional.of(status.path("upload").path("state").asText()) : Optional.empty());
    }
}
