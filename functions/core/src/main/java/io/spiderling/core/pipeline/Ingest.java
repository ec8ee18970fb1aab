package io.spiderling.core.pipeline;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchPlan;
import io.spiderling.core.batch.BatchPlanner;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.BatchStore;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Accepts a batch: validates and deduplicates it at the syntax level, records the header and writes the manifest that
 * the canonicalize stage plans from. No per-URL I/O happens here, so a 10,000-URL request stays fast.
 */
public final class Ingest {

    public static final String MANIFEST_PREFIX = "manifests/";
    private static final String MANIFEST_SUFFIX = ".txt";
    private static final Pattern BATCH_ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    private final BatchPlanner planner;
    private final BatchStore batches;
    private final BlobStore blobs;
    private final Clock clock;

    public Ingest(BatchPlanner planner, BatchStore batches, BlobStore blobs, Clock clock) {
        this.planner = planner;
        this.batches = batches;
        this.blobs = blobs;
        this.clock = clock;
    }

    public sealed interface Result {
        record Accepted(BatchHeader header, BatchPlan plan) implements Result {}

        /** Nothing was stored. */
        record Refused(String reason, List<Rejection> rejected) implements Result {}
    }

    /** @throws IllegalArgumentException for a batch id that cannot name a manifest (see {@link #manifestKey}) */
    public Result submit(String batchId, List<String> rawUrls, String source) {
        checkBatchId(batchId);
        if (rawUrls.isEmpty()) {
            return new Result.Refused("urls must not be empty", List.of());
        }
        if (rawUrls.size() > BatchPlanner.MAX_URLS) {
            return new Result.Refused(
                    "too many urls: " + rawUrls.size() + " (at most " + BatchPlanner.MAX_URLS + " per batch)", List.of());
        }
        BatchPlan plan = planner.plan(rawUrls);
        if (plan.accepted().isEmpty()) {
            return new Result.Refused("no acceptable URL in the batch", plan.rejected());
        }
        BatchHeader header = new BatchHeader(batchId, plan.accepted().size(), plan.duplicates(), plan.rejected(),
                plan.rejected().size(), source, clock.instant());
        // The header goes first: canonicalize and fetch count against it, and the manifest's event may arrive at once.
        batches.createBatch(header);
        String manifest = plan.accepted().stream().map(NormalizedUrl::value).collect(Collectors.joining("\n", "", "\n"));
        blobs.put(manifestKey(batchId), manifest.getBytes(StandardCharsets.UTF_8), "text/plain; charset=utf-8",
                Map.of("batch-id", batchId));
        return new Result.Accepted(header, plan);
    }

    /**
     * Records a submission that could not be accepted (an unreadable queue message, or nothing valid in it) as a
     * batch that is complete at once, so the refusal is visible and the message is never retried.
     */
    public BatchHeader recordRefused(String batchId, String source, List<Rejection> rejected) {
        checkBatchId(batchId);
        Instant now = clock.instant();
        BatchHeader header = new BatchHeader(batchId, 0, 0, rejected, rejected.size(), source, now);
        batches.createBatch(header);
        batches.markCompleted(batchId, now);
        return header;
    }

    /** Batch ids are 1 to 128 letters, digits, '-', '_' or '.', so they fit in an S3 key and a DynamoDB key. */
    static void checkBatchId(String batchId) {
        if (batchId == null || !BATCH_ID.matcher(batchId).matches()) {
            throw new IllegalArgumentException("invalid batch id: " + batchId);
        }
    }

    public static String manifestKey(String batchId) {
        return MANIFEST_PREFIX + batchId + MANIFEST_SUFFIX;
    }

    public static Optional<String> batchIdOfManifest(String key) {
        if (!key.startsWith(MANIFEST_PREFIX) || !key.endsWith(MANIFEST_SUFFIX)) {
            return Optional.empty();
        }
        String id = key.substring(MANIFEST_PREFIX.length(), key.length() - MANIFEST_SUFFIX.length());
        return id.isEmpty() || id.contains("/") ? Optional.empty() : Optional.of(id);
    }
}
