package io.spiderling.core.testing;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchItem;
import io.spiderling.core.batch.ItemPage;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.port.BatchStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link BatchStore} in maps. Where the port is silent it does what {@code DynamoDbBatchStore} does: ending an
 * unknown item returns false, ending an item of a batch without a header throws, and completing a batch without a
 * header returns false.
 */
public final class InMemoryBatchStore implements BatchStore {

    /** One batch item as stored; {@code detail} and {@code endedAt} are null while it is queued. */
    public record Item(NormalizedUrl url, ItemState state, String detail, Instant endedAt) {}

    private static final class Batch {
        final BatchHeader header;
        final Map<ItemState, Integer> counts = new EnumMap<>(ItemState.class);
        Instant completedAt;
        Instant cancelledAt;

        Batch(BatchHeader header) {
            this.header = header;
        }
    }

    private final CallLog log;
    private final Map<String, Batch> batches = new HashMap<>();
    private final Map<String, Item> items = new HashMap<>();

    public InMemoryBatchStore(CallLog log) {
        this.log = log;
    }

    @Override
    public boolean createBatch(BatchHeader header) {
        log.record("BatchStore", "createBatch", header.batchId());
        return batches.putIfAbsent(header.batchId(), new Batch(header)) == null;
    }

    @Override
    public List<NormalizedUrl> addItems(String batchId, List<NormalizedUrl> urls, Instant now) {
        log.record("BatchStore", "addItems", batchId + " " + urls.size());
        List<NormalizedUrl> pending = new ArrayList<>();
        for (NormalizedUrl url : urls) {
            Item item = items.computeIfAbsent(key(batchId, url.urlHash()),
                    k -> new Item(url, ItemState.QUEUED, null, null));
            if (item.state() == ItemState.QUEUED) {
                pending.add(url);
            }
        }
        return pending;
    }

    @Override
    public boolean finishItem(String batchId, String urlHash, ItemState terminal, String detail, Instant at) {
        log.record("BatchStore", "finishItem", batchId + " " + urlHash + " " + terminal);
        if (!terminal.terminal()) {
            throw new IllegalArgumentException("not a terminal state: " + terminal);
        }
        Item item = items.get(key(batchId, urlHash));
        if (item == null || item.state() != ItemState.QUEUED) {
            return false;
        }
        Batch batch = batches.get(batchId);
        if (batch == null) {
            throw new IllegalStateException("batch " + batchId + " has no header");
        }
        items.put(key(batchId, urlHash), new Item(item.url(), terminal, detail, at));
        batch.counts.merge(terminal, 1, Integer::sum);
        return true;
    }

    @Override
    public Optional<BatchStatus> status(String batchId) {
        return Optional.ofNullable(batches.get(batchId))
                .map(b -> new BatchStatus(b.header, b.counts, Optional.ofNullable(b.completedAt),
                        Optional.ofNullable(b.cancelledAt)));
    }

    @Override
    public boolean markCompleted(String batchId, Instant at) {
        log.record("BatchStore", "markCompleted", batchId);
        Batch batch = batches.get(batchId);
        if (batch == null || batch.completedAt != null) {
            return false;
        }
        batch.completedAt = at;
        return true;
    }

    @Override
    public boolean markCancelled(String batchId, Instant at) {
        log.record("BatchStore", "markCancelled", batchId);
        Batch batch = batches.get(batchId);
        if (batch == null || batch.cancelledAt != null) {
            return false;
        }
        batch.cancelledAt = at;
        return true;
    }

    /** Pages in URL-hash order; the cursor is the last hash of the previous page. */
    @Override
    public ItemPage items(String batchId, Optional<ItemState> state, Optional<String> cursor, int limit) {
        String prefix = batchId + "\n";
        List<BatchItem> matching = items.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .sorted(Map.Entry.comparingByKey())
                .filter(e -> cursor.isEmpty() || e.getKey().substring(prefix.length()).compareTo(cursor.get()) > 0)
                .map(Map.Entry::getValue)
                .filter(i -> state.isEmpty() || i.state() == state.get())
                .map(i -> new BatchItem(i.url().value(), i.url().urlHash(), i.state(), Optional.ofNullable(i.detail()),
                        Optional.ofNullable(i.endedAt())))
                .toList();
        List<BatchItem> page = matching.subList(0, Math.min(limit, matching.size()));
        return new ItemPage(page, matching.size() > limit ? Optional.of(page.getLast().urlHash()) : Optional.empty());
    }

    public Optional<Item> item(String batchId, String urlHash) {
        return Optional.ofNullable(items.get(key(batchId, urlHash)));
    }

    private static String key(String batchId, String urlHash) {
        return batchId + "\n" + urlHash;
    }
}
