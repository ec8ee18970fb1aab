package io.spiderling.core.pipeline;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.port.BatchStore;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.FetchQueue;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Plans a stored manifest: one batch item per URL, and one fetch job per URL that still needs one, queued in its
 * site's group. Safe to run again for the same manifest: items are created once, and jobs for items that are still
 * queued are re-sent with the same deduplication id.
 */
public final class Canonicalize {

    private final BlobStore blobs;
    private final BatchStore batches;
    private final FetchQueue queue;
    private final Clock clock;

    public Canonicalize(BlobStore blobs, BatchStore batches, FetchQueue queue, Clock clock) {
        this.blobs = blobs;
        this.batches = batches;
        this.queue = queue;
        this.clock = clock;
    }

    /** @param items how many URLs the manifest listed; enqueued how many fetch jobs were sent */
    public record Outcome(String batchId, int items, int enqueued) {}

    /** Returns empty when the key is not a manifest or the manifest is gone; neither is worth a retry. */
    public Optional<Outcome> onManifest(String key) {
        var batchId = Ingest.batchIdOfManifest(key);
        if (batchId.isEmpty()) {
            return Optional.empty();
        }
        var blob = blobs.get(key);
        if (blob.isEmpty()) {
            return Optional.empty();
        }
        List<NormalizedUrl> urls = new String(blob.get().bytes(), StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank())
                .map(NormalizedUrl::parse)
                .toList();
        List<NormalizedUrl> pending = batches.addItems(batchId.get(), urls, clock.instant());
        queue.enqueue(pending.stream().map(url -> new FetchJob(batchId.get(), url, 1)).toList());
        return Optional.of(new Outcome(batchId.get(), urls.size(), pending.size()));
    }
}
