package io.spiderling.core.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.BatchOutline;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.CallbackState;
import io.spiderling.core.batch.ItemKind;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.SitemapCounts;
import io.spiderling.core.batch.ChunkCounts;
import io.spiderling.core.batch.ManifestEntry;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.ManifestLine;
import io.spiderling.core.batch.NoticeFailures;
import io.spiderling.core.port.BatchHeaderStore;
import io.spiderling.core.port.BatchItemStore;
import io.spiderling.core.port.UploadPlanStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.Base64;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The batch headers, items and upload planning in maps, in one class because items and chunks are counted on their
 * batch's header, as {@code DynamoDbBatchStore} counts them in one transaction. Each port's contract pins its rules.
 */
public final class InMemoryBatchStore implements BatchHeaderStore, BatchItemStore, UploadPlanStore {

    /**
     * One batch item as stored; {@code reason}, {@code detail} and {@code endedAt} are null while it is queued. An
     * invalid manifest line has no URL.
     */
    public record Item(NormalizedUrl url, ItemState state, Reason reason, String detail, Instant endedAt) {}

    private static final class Batch {
        final BatchHeader header;
        final Map<ItemState, Integer> counts = new EnumMap<>(ItemState.class);
        Instant completedAt;
        Instant cancelledAt;
        CallbackState callback = CallbackState.NONE;
        NoticeFailures noticeFailures = NoticeFailures.NONE;
        PlanProgress planning = PlanProgress.AWAITING_UPLOAD;
        int addedTotal;
        int addedDuplicates;
        final Set<Integer> chunksPlanned = new HashSet<>();

        Batch(BatchHeader header) {
            this.header = header;
        }
    }

    private static final String CURSOR = "memory-items:";

    private final CallLog log;
    private final Map<String, Batch> batches = new HashMap<>();
    private final Map<String, Item> items = new HashMap<>();
    /** Items still queued, by batch. */
    private final Map<String, Integer> queued = new HashMap<>();
    /** Where each item's URL stood in its manifest, and what an invalid line said. */
    private final Map<String, Long> positions = new HashMap<>();
    /** The kind of each item that is not a page. */
    private final Map<String, ItemKind> kinds = new HashMap<>();
    /** The sitemaps read, as {@code batchId + " " + sitemapKey}. */
    private final Set<String> sitemapsRead = new HashSet<>();
    /** The sitemaps whose reading began, and how many each batch is reading now. */
    private final Set<String> sitemapsReading = new HashSet<>();
    private final Map<String, Integer> reading = new HashMap<>();
    /** How many sitemaps each batch has read, and begun. */
    private final Map<String, Integer> read = new HashMap<>();
    private final Map<String, Integer> begun = new HashMap<>();
    private final Map<String, String> shown = new HashMap<>();

    public InMemoryBatchStore(CallLog log) {
        this.log = log;
    }

    @Override
    public synchronized boolean createBatch(BatchHeader header) {
        log.record("BatchStore", "createBatch", header.batchId());
        return batches.putIfAbsent(header.batchId(), new Batch(header)) == null;
    }

    @Override
    public synchronized List<Added> addEntries(String batchId, List<ManifestEntry> entries, Instant now) {
        log.record("BatchStore", "addEntries", batchId + " " + entries.size());
        if (!batches.containsKey(batchId)) {
            throw new IllegalStateException("batch " + batchId + " has no header");
        }
        List<Added> added = new ArrayList<>();
        for (ManifestEntry entry : entries) {
            String key = key(batchId, entry.itemKey());
            Item item = items.get(key);
            if (item == null) {
                items.put(key, new Item(entry.url(), ItemState.QUEUED, null, null, null));
                kinds.put(key, entry.kind());
                queued.merge(batchId, 1, Integer::sum);
                positions.put(key, entry.position());
                added.add(Added.CREATED);
            } else if (positions.get(key) != entry.position()) {
                added.add(Added.DUPLICATE);
            } else {
                added.add(item.state() == ItemState.QUEUED ? Added.PENDING : Added.ENDED);
            }
        }
        return added;
    }

    @Override
    public synchronized boolean addInvalid(String batchId, Invalid entry, Instant now) {
        log.record("BatchStore", "addInvalid", batchId + " " + entry.position());
        String key = key(batchId, ManifestLine.invalidItemKey(entry.position()));
        if (items.containsKey(key) || !batches.containsKey(batchId)) {
            return false;
        }
        items.put(key, new Item(null, ItemState.INVALID, entry.reason(), entry.detail(), now));
        this.shown.put(key, entry.shown());
        batches.get(batchId).counts.merge(ItemState.INVALID, 1, Integer::sum);
        return true;
    }

    @Override
    public synchronized boolean beginPlanning(String batchId, int chunks, long bytes, Instant at) {
        log.record("BatchStore", "beginPlanning", batchId + " " + chunks);
        Batch batch = batches.get(batchId);
        if (batch == null || batch.planning.uploaded()) {
            return false;
        }
        batch.planning = new PlanProgress(chunks, 0, bytes);
        return true;
    }

    @Override
    public synchronized boolean chunkPlanned(String batchId, int chunk, ChunkCounts counts, Instant at) {
        log.record("BatchStore", "chunkPlanned", batchId + " " + chunk);
        Batch batch = batches.get(batchId);
        if (batch == null || !batch.planning.uploaded() || !batch.chunksPlanned.add(chunk)) {
            return false;
        }
        batch.addedTotal += counts.items();
        batch.addedDuplicates += counts.duplicates();
        batch.planning = new PlanProgress(batch.planning.chunks(), batch.planning.chunksDone() + 1,
                batch.planning.bytes());
        return true;
    }

    @Override
    public synchronized SitemapBegin sitemapReading(String batchId, String sitemapKey, long maxSitemaps,
            Instant at) {
        log.record("BatchStore", "sitemapReading", batchId + " " + sitemapKey);
        if (sitemapsReading.contains(batchId + " " + sitemapKey)) {
            return SitemapBegin.BEGUN_BEFORE;
        }
        if (!batches.containsKey(batchId) || begun.getOrDefault(batchId, 0) >= maxSitemaps) {
            return SitemapBegin.OVER_LIMIT;
        }
        sitemapsReading.add(batchId + " " + sitemapKey);
        reading.merge(batchId, 1, Integer::sum);
        begun.merge(batchId, 1, Integer::sum);
        return SitemapBegin.BEGUN;
    }

    @Override
    public synchronized boolean sitemapRead(String batchId, String sitemapKey, ChunkCounts counts, Instant at) {
        log.record("BatchStore", "sitemapRead", batchId + " " + sitemapKey);
        Batch batch = batches.get(batchId);
        if (batch == null || !sitemapsRead.add(batchId + " " + sitemapKey)) {
            return false;
        }
        reading.merge(batchId, -1, Integer::sum);
        read.merge(batchId, 1, Integer::sum);
        batch.addedTotal += counts.items();
        batch.addedDuplicates += counts.duplicates();
        return true;
    }

    /** The cut of each sitemap's list, and its planned chunks' progress, by "batch key". */
    private final Map<String, SitemapCut> cuts = new HashMap<>();
    private final Map<String, SitemapProgress> progress = new HashMap<>();
    private final Set<String> sitemapChunks = new HashSet<>();

    @Override
    public synchronized SitemapCut sitemapCut(String batchId, String sitemapKey, int chunks, String summary) {
        log.record("BatchStore", "sitemapCut", batchId + " " + sitemapKey + " " + chunks);
        String key = batchId + " " + sitemapKey;
        if (!sitemapsReading.contains(key)) {
            throw new IllegalStateException("sitemap " + sitemapKey + " of batch " + batchId + " was not begun");
        }
        return cuts.computeIfAbsent(key, k -> new SitemapCut(chunks, summary));
    }

    @Override
    public synchronized SitemapProgress sitemapChunkPlanned(String batchId, String sitemapKey, int chunk,
            ChunkCounts counts, Instant at) {
        log.record("BatchStore", "sitemapChunkPlanned", batchId + " " + sitemapKey + " " + chunk);
        String key = batchId + " " + sitemapKey;
        SitemapCut cut = cuts.get(key);
        Batch batch = batches.get(batchId);
        if (cut == null || batch == null) {
            throw new IllegalStateException("sitemap " + sitemapKey + " of batch " + batchId
                    + " was not cut, or its batch is gone");
        }
        SitemapProgress now = progress.getOrDefault(key, new SitemapProgress(cut, 0, new ChunkCounts(0, 0)));
        if (sitemapChunks.add(key + " " + chunk)) {
            batch.addedTotal += counts.items();
            batch.addedDuplicates += counts.duplicates();
            now = new SitemapProgress(cut, now.chunksPlanned() + 1, new ChunkCounts(
                    now.planned().items() + counts.items(), now.planned().duplicates() + counts.duplicates()));
            progress.put(key, now);
        }
        return now;
    }

    @Override
    public synchronized boolean isChunkPlanned(String batchId, int chunk) {
        Batch batch = batches.get(batchId);
        return batch != null && batch.chunksPlanned.contains(chunk);
    }

    @Override
    public synchronized Ending finishItem(String batchId, String urlHash, Reason reason, String detail,
            Instant at) {
        ItemState terminal = reason.state();
        log.record("BatchStore", "finishItem", batchId + " " + urlHash + " " + terminal);
        Item item = items.get(key(batchId, urlHash));
        if (item == null || item.state() != ItemState.QUEUED) {
            return Ending.ALREADY_ENDED;
        }
        Batch batch = batches.get(batchId);
        if (batch == null) {
            throw new IllegalStateException("batch " + batchId + " has no header");
        }
        items.put(key(batchId, urlHash), new Item(item.url(), terminal, reason, detail, at));
        batch.counts.merge(terminal, 1, Integer::sum);
        // One shard: the ending may be the last exactly when none of the batch's items is still queued.
        return queued.merge(batchId, -1, Integer::sum) > 0 ? Ending.ENDED : Ending.ENDED_MAYBE_LAST;
    }

    @Override
    public synchronized Optional<BatchOutline> outline(String batchId) {
        return Optional.ofNullable(batches.get(batchId))
                .map(b -> new BatchOutline(withAdded(b), Optional.ofNullable(b.cancelledAt)));
    }

    @Override
    public synchronized Optional<BatchStatus> status(String batchId) {
        return Optional.ofNullable(batches.get(batchId))
                .map(b -> BatchStatus.builder().header(withAdded(b)).terminalCounts(b.counts)
                        .completedAt(Optional.ofNullable(b.completedAt)).cancelledAt(Optional.ofNullable(b.cancelledAt))
                        .planning(b.header.upload().isPresent() ? Optional.of(b.planning) : Optional.empty())
                        .callback(b.callback).sitemaps(new SitemapCounts(reading.getOrDefault(batchId, 0),
                                read.getOrDefault(batchId, 0)))
                        .noticeFailures(b.noticeFailures).build());
    }

    private static BatchHeader withAdded(Batch b) {
        BatchHeader h = b.header;
        return BatchHeader.builder().batchId(h.batchId()).total(h.total() + b.addedTotal)
                .duplicates(h.duplicates() + b.addedDuplicates).rejected(h.rejected())
                .rejectedCount(h.rejectedCount()).source(h.source()).createdAt(h.createdAt()).options(h.options())
                .fingerprint(h.fingerprint()).upload(h.upload()).client(h.client()).build();
    }

    @Override
    public synchronized boolean markCompleted(String batchId, Instant at) {
        log.record("BatchStore", "markCompleted", batchId);
        Batch batch = batches.get(batchId);
        if (batch == null || batch.completedAt != null) {
            return false;
        }
        batch.completedAt = at;
        return true;
    }

    @Override
    public synchronized boolean markCompletionEmitted(String batchId, Instant at) {
        log.record("BatchStore", "markCompletionEmitted", batchId);
        Batch b = batches.get(batchId);
        if (b == null || b.callback.completionEmittedAt().isPresent()) {
            return false;
        }
        CallbackState c = b.callback;
        b.callback = new CallbackState(Optional.of(at), c.deliveredAt(), c.failure(), c.attempts(), c.progressSent());
        return true;
    }

    @Override
    public synchronized void recordCallbackDelivered(String batchId, Instant at, int attempts) {
        log.record("BatchStore", "recordCallbackDelivered", batchId);
        Batch b = batches.get(batchId);
        if (b != null && b.callback.deliveredAt().isEmpty()) {
            CallbackState c = b.callback;
            b.callback = new CallbackState(c.completionEmittedAt(), Optional.of(at), Optional.empty(), attempts,
                    c.progressSent());
        }
    }

    @Override
    public synchronized void recordCallbackFailed(String batchId, String reason, int attempts, Instant at) {
        log.record("BatchStore", "recordCallbackFailed", batchId);
        Batch b = batches.get(batchId);
        if (b != null && b.callback.deliveredAt().isEmpty()) {
            CallbackState c = b.callback;
            b.callback = new CallbackState(c.completionEmittedAt(), Optional.empty(), Optional.of(reason), attempts,
                    c.progressSent());
        }
    }

    @Override
    public synchronized void recordChangeNoticeFailed(String batchId, String reason, Instant at) {
        log.record("BatchStore", "recordChangeNoticeFailed", batchId);
        Batch b = batches.get(batchId);
        if (b != null) {
            b.noticeFailures = new NoticeFailures(b.noticeFailures.count() + 1, Optional.of(reason), Optional.of(at));
        }
    }

    @Override
    public synchronized boolean markProgressSent(String batchId, long sequence) {
        log.record("BatchStore", "markProgressSent", batchId + " " + sequence);
        Batch b = batches.get(batchId);
        if (b == null || b.callback.progressSent() >= sequence) {
            return false;
        }
        CallbackState c = b.callback;
        b.callback = new CallbackState(c.completionEmittedAt(), c.deliveredAt(), c.failure(), c.attempts(), sequence);
        return true;
    }

    @Override
    public synchronized boolean markCancelled(String batchId, Instant at) {
        log.record("BatchStore", "markCancelled", batchId);
        Batch batch = batches.get(batchId);
        if (batch == null || batch.cancelledAt != null) {
            return false;
        }
        batch.cancelledAt = at;
        return true;
    }

    /** Pages in URL-hash order; the cursor names the last hash of the previous page. */
    @Override
    public synchronized ItemPage items(String batchId, Optional<ItemState> state, Optional<String> cursor, int limit) {
        String prefix = batchId + "\n";
        Optional<String> after = cursor.map(InMemoryBatchStore::decodeCursor);
        List<BatchItem> matching = items.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .sorted(Map.Entry.comparingByKey())
                .filter(e -> after.isEmpty() || e.getKey().substring(prefix.length()).compareTo(after.get()) > 0)
                .filter(e -> state.isEmpty() || e.getValue().state() == state.get())
                .map(e -> toBatchItem(e.getKey(), e.getValue(), prefix))
                .toList();
        List<BatchItem> page = matching.subList(0, Math.min(limit, matching.size()));
        return new ItemPage(page, matching.size() > limit ? Optional.of(encodeCursor(page.getLast().urlHash()))
                : Optional.empty());
    }

    /** Opaque, as the adapter's are, so that a test cannot pass with a cursor only this fake would take. */
    private static String encodeCursor(String urlHash) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((CURSOR + urlHash).getBytes(UTF_8));
    }

    private static String decodeCursor(String cursor) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(cursor), UTF_8);
            if (raw.startsWith(CURSOR)) {
                return raw.substring(CURSOR.length());
            }
        } catch (IllegalArgumentException notBase64) {
            // reported below
        }
        throw new IllegalArgumentException("invalid cursor: " + cursor);
    }

    private BatchItem toBatchItem(String key, Item i, String prefix) {
        String hash = key.substring(prefix.length());
        return BatchItem.builder().url(i.url() == null ? shown.get(key) : i.url().value()).urlHash(hash)
                .kind(kinds.getOrDefault(key, ItemKind.PAGE))
                .state(i.state()).reason(Optional.ofNullable(i.reason())).detail(Optional.ofNullable(i.detail()))
                .endedAt(Optional.ofNullable(i.endedAt())).build();
    }

    /** Loses the batch's header, as a broken store would: ending its items then fails. */
    public synchronized void loseHeader(String batchId) {
        batches.remove(batchId);
    }

    public synchronized Optional<Item> item(String batchId, String urlHash) {
        return Optional.ofNullable(items.get(key(batchId, urlHash)));
    }

    private static String key(String batchId, String urlHash) {
        return batchId + "\n" + urlHash;
    }
}
