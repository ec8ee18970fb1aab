package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans a stream of a batch's entries, each known by its position, in groups of {@value ItemPlanner#GROUP}: the
 * items written with conditional writes (a second spelling within the group, or another position's item, is a
 * duplicate; the same position again is the same entry after a crash), then skipped, joined or claimed and parked
 * by the {@link ItemPlanner}. An upload's chunk ({@link PlanUpload}) and a sitemap's list (ADR 19) take this one path,
 * so their URLs cost the same per URL. Holds one group at a time.
 */
final class ManifestGroups {

    /** What a run planned: its items and duplicates, for the batch's counts, and what the planner did. */
    record Planned(int items, int duplicates, ItemPlanner.Counts counts) {
        ChunkCounts chunkCounts() {
            return new ChunkCounts(items, duplicates);
        }
    }

    private final PlanningParts parts;
    private final String batchId;
    private final ItemPlanner.Batch batch;
    private final Frontier.Parking parking;
    private final Instant now;
    private final Map<String, ManifestEntry> group = new LinkedHashMap<>();
    /** Each URL of the group in the spelling its first entry gave: the one requested. */
    private final Map<String, NormalizationResult.Accepted> spelled = new HashMap<>();
    /** The {@code lastmod} a sitemap gave the group's URLs, by URL hash (its first entry's). */
    private final Map<String, Instant> lastmods = new HashMap<>();
    private int items;
    private int duplicates;
    private ItemPlanner.Counts counts = ItemPlanner.Counts.NONE;

    ManifestGroups(PlanningParts parts, ItemPlanner.Batch batch, Instant now) {
        this.parts = parts;
        this.batchId = batch.id();
        this.batch = batch;
        this.parking = parts.frontier().parking(batchId);
        this.now = now;
    }

    /** An entry that holds no URL Spiderling takes: an item {@code invalid} from the start. */
    void invalid(BatchItemStore.Invalid entry) {
        parts.batches().items().addInvalid(batchId, entry, now);
        items++;
    }

    /** A URL to plan. */
    void add(long position, NormalizationResult.Accepted accepted) {
        add(position, accepted, Optional.empty());
    }

    /** A URL a sitemap listed, with the {@code lastmod} it gave, to plan. */
    void add(long position, NormalizationResult.Accepted accepted, Optional<Instant> lastmod) {
        NormalizedUrl url = accepted.url();
        if (group.putIfAbsent(url.urlHash(), new ManifestEntry(position, url)) != null) {
            duplicates++; // a second spelling within the group: the first entry holds the item
            return;
        }
        spelled.put(url.urlHash(), accepted);
        lastmod.ifPresent(at -> lastmods.put(url.urlHash(), at));
        if (group.size() >= ItemPlanner.GROUP) {
            flush();
        }
    }

    /** Plans what is left and releases what was parked. */
    Planned finish() {
        flush();
        parking.release();
        return new Planned(items, duplicates, counts);
    }

    private void flush() {
        if (group.isEmpty()) {
            return;
        }
        List<ManifestEntry> entries = new ArrayList<>(group.values());
        group.clear();
        List<BatchItemStore.Added> added = parts.batches().items().addEntries(batchId, entries, now);
        List<NormalizationResult.Accepted> toPlan = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            switch (added.get(i)) {
                case DUPLICATE -> duplicates++;
                case ENDED -> items++;
                case CREATED, PENDING -> {
                    items++;
                    toPlan.add(spelled.get(entries.get(i).url().urlHash()));
                }
            }
        }
        spelled.clear();
        counts = counts.plus(parts.planner().plan(batch, toPlan, Map.copyOf(lastmods), parking, now));
        lastmods.clear();
    }
}
