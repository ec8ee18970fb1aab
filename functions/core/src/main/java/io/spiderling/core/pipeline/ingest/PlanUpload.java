package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ManifestChunks;
import io.spiderling.core.batch.ManifestLine;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.batch.UploadFormat;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.pipeline.Quotas;
import io.spiderling.core.quota.Quota;
import io.spiderling.core.port.BatchItemStore.Invalid;
import io.spiderling.core.port.PendingPlans;
import io.spiderling.core.port.PlanQueue;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.UrlNormalizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Plans a manifest the client uploaded itself ({@code POST /batches/uploads}), which may be far larger than a request
 * body and than what one Lambda invocation can plan in its 15 minutes.
 *
 * <p>When the upload arrives, it is copied to a key the client cannot write ({@code planned/}), so a second PUT of the
 * upload URL cannot change a manifest half planned, and cut into byte-range chunks, one planning message each. Each
 * chunk streams its lines, holding one group of {@value ItemPlanner#GROUP} URLs at a time, so memory does not grow with
 * the manifest. Duplicates are found by conditional writes of the batch items, not by remembering URLs. A chunk
 * interrupted by a crash or a timeout is planned again from its start when its message comes back: each line is
 * recognised by its byte position, so nothing is counted twice, and the chunk's counts are added once, with a marker.
 */
public final class PlanUpload {

    private static final System.Logger LOG = System.getLogger(PlanUpload.class.getName());

    /** Presigned URLs live at most 7 days, so a watched upload still missing after this will never come. */
    public static final Duration ABANDON_AFTER = Duration.ofDays(8);

    /**
     * @param chunkBytes the size of one chunk; at about 60 bytes a line, the 1 MiB default is some 17,000 URLs, which
     *     one invocation plans in well under its time limit
     */
    public record Settings(long chunkBytes) {
        public static final Settings DEFAULTS = new Settings(1024 * 1024);

        public Settings {
            if (chunkBytes < ManifestChunks.MAX_LINE_BYTES) {
                throw new IllegalArgumentException("chunkBytes must be at least " + ManifestChunks.MAX_LINE_BYTES
                        + ", was " + chunkBytes);
            }
        }
    }

    private final UrlNormalizer normalizer;
    private final PlanningParts parts;
    private final BatchTracker tracker;
    private final PlanQueue queue;
    private final Settings settings;
    private final Quotas quotas;

    private PlanUpload(Builder b) {
        this.parts = Objects.requireNonNull(b.planning, "planning");
        this.normalizer = Objects.requireNonNull(b.normalizer, "normalizer");
        this.tracker = b.tracker != null ? b.tracker
                : new BatchTracker(parts.batches().headers(), parts.batches().items());
        this.queue = Objects.requireNonNull(b.queue, "queue");
        this.settings = Objects.requireNonNull(b.settings, "settings");
        this.quotas = Objects.requireNonNull(b.quotas, "quotas");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Names each collaborator. */
    public static final class Builder {
        private UrlNormalizer normalizer;
        private PlanningParts planning;
        private PlanQueue queue;
        private Settings settings;
        private BatchTracker tracker;
        private Quotas quotas = Quotas.UNLIMITED;

        private Builder() {}

        public Builder normalizer(UrlNormalizer value) {
            normalizer = value;
            return this;
        }

        /** The collaborators planning shares with {@link Canonicalize}. */
        public Builder planning(PlanningParts value) {
            planning = value;
            return this;
        }

        /** Where an upload's chunks go to be planned one message each. */
        public Builder queue(PlanQueue value) {
            queue = value;
            return this;
        }

        public Builder settings(Settings value) {
            settings = value;
            return this;
        }

        /** Checks a batch's completion once a chunk is planned; by default one over the planning's batches. */
        public Builder tracker(BatchTracker value) {
            tracker = value;
            return this;
        }

        /** The clients' quotas, which each chunk's URLs are counted against; none by default. */
        public Builder quotas(Quotas value) {
            quotas = value;
            return this;
        }

        public PlanUpload build() {
            return new PlanUpload(this);
        }
    }

    /** @param chunks how many chunk messages were sent */
    public record Arrival(String batchId, long bytes, int chunks) {}

    /**
     * An object was created under {@code uploads/}. Returns empty, and does nothing, when it is not the upload of a
     * batch waiting for one (a stray key, another format than announced, or an object gone since); none of these is
     * worth a retry. An upload arriving again (a second PUT, or the event redelivered) sends the chunk messages again,
     * which plans nothing twice.
     */
    public Optional<Arrival> onUpload(String key) {
        Optional<BucketKeys.Upload> upload = BucketKeys.uploadOf(key);
        if (upload.isEmpty()) {
            return Optional.empty();
        }
        String batchId = upload.get().batchId();
        Optional<UploadFormat> format = UploadFormat.fromExtension(upload.get().extension());
        Optional<BatchStatus> status = parts.batches().headers().status(batchId);
        if (format.isEmpty() || status.isEmpty() || !status.get().header().upload().equals(format)) {
            parts.pendingPlans().planned(key); // nothing will ever plan it
            return Optional.empty();
        }
        String planned = BucketKeys.planned(batchId, format.get().extension());
        PlanProgress progress = status.get().planning().orElse(PlanProgress.AWAITING_UPLOAD);
        if (!progress.uploaded()) {
            if (!parts.blobs().copy(key, planned)) {
                return Optional.empty();
            }
            long bytes = parts.blobs().size(planned)
                    .orElseThrow(() -> new IllegalStateException(planned + " vanished"));
            parts.batches().uploads().beginPlanning(batchId, ManifestChunks.chunkCount(bytes, settings.chunkBytes()),
                    bytes, parts.clock().instant());
            // Whoever recorded it, the recorded cut is the one every chunk uses.
            progress = parts.batches().headers().status(batchId).flatMap(BatchStatus::planning).orElseThrow();
        } else if (progress.chunks() > 0 && !parts.blobs().exists(planned)) {
            parts.blobs().copy(key, planned); // a crash between recording the cut and finishing the copy
        }
        queue.enqueue(batchId, IntStream.range(0, progress.chunks()).boxed().toList());
        parts.pendingPlans().planned(key);
        return Optional.of(new Arrival(batchId, progress.bytes(), progress.chunks()));
    }

    /**
     * Starts planning the uploads watched since before {@code cutoff} that are in the bucket: their S3 event was lost,
     * or every try of it failed. Starting again is safe (see {@link #onUpload}). An upload still missing is the
     * client's to send; its watch lapses after {@link #ABANDON_AFTER}. Returns how many it started.
     */
    public int resumeStranded(Instant cutoff, int limit) {
        int started = 0;
        Instant abandoned = parts.clock().instant().minus(ABANDON_AFTER);
        for (PendingPlans.Pending pending : parts.pendingPlans().waitingSince(BucketKeys.UPLOADS, cutoff, limit)) {
            if (parts.blobs().exists(pending.key())) {
                try {
                    started += onUpload(pending.key()).isPresent() ? 1 : 0;
                } catch (RuntimeException e) {
                    // As a stranded manifest's (Canonicalize#planStranded): the others and the sweep go on.
                    LOG.log(System.Logger.Level.WARNING, "stranded upload " + pending.key() + " failed to start;"
                            + " the next sweep tries it again", e);
                }
            } else if (pending.since().isBefore(abandoned)) {
                parts.pendingPlans().planned(pending.key());
            }
        }
        return started;
    }

    /**
     * @param items lines of the chunk that became items (valid or invalid)
     * @param duplicates lines whose URL an earlier line holds
     * @param parked items handed to the frontier
     * @param skipped items ended at once because a fresh copy is stored
     * @param joined items waiting on another batch's fetch of the same URL
     * @param alreadyPlanned the chunk had been planned before; nothing was done
     */
    public record ChunkOutcome(String batchId, int chunk, int items, int duplicates, int parked, int skipped,
            int joined, boolean alreadyPlanned) {
        /** Names each of the 8 parts where the value is made. */
        public static Builder builder() {
            return new Builder();
        }

        /** The parts by name; {@link #build} checks them as the constructor does. */
        public static final class Builder {
            private String batchId;
            private int chunk;
            private int items;
            private int duplicates;
            private int parked;
            private int skipped;
            private int joined;
            private boolean alreadyPlanned;

            private Builder() {}

            public Builder batchId(String value) {
                batchId = value;
                return this;
            }

            public Builder chunk(int value) {
                chunk = value;
                return this;
            }

            public Builder items(int value) {
                items = value;
                return this;
            }

            public Builder duplicates(int value) {
                duplicates = value;
                return this;
            }

            public Builder parked(int value) {
                parked = value;
                return this;
            }

            public Builder skipped(int value) {
                skipped = value;
                return this;
            }

            public Builder joined(int value) {
                joined = value;
                return this;
            }

            public Builder alreadyPlanned(boolean value) {
                alreadyPlanned = value;
                return this;
            }

            public ChunkOutcome build() {
                return new ChunkOutcome(batchId, chunk, items, duplicates, parked, skipped, joined, alreadyPlanned);
            }
        }
    }

    /**
     * Plans one chunk. Throws on an infrastructure failure, so the message is retried and the chunk planned again.
     *
     * @throws IllegalArgumentException for a chunk the batch does not have; retrying cannot help
     */
    public ChunkOutcome onChunk(String batchId, int chunk) {
        BatchStatus status = parts.batches().headers().status(batchId)
                .orElseThrow(() -> new IllegalArgumentException("no batch " + batchId));
        UploadFormat format = status.header().upload()
                .orElseThrow(() -> new IllegalArgumentException("batch " + batchId + " has no upload"));
        PlanProgress progress = status.planning().orElse(PlanProgress.AWAITING_UPLOAD);
        if (chunk < 0 || chunk >= progress.chunks()) {
            throw new IllegalArgumentException("batch " + batchId + " has no chunk " + chunk);
        }
        if (parts.batches().uploads().isChunkPlanned(batchId, chunk)) {
            return ChunkOutcome.builder().batchId(batchId).chunk(chunk).items(0).duplicates(0).parked(0).skipped(0)
                    .joined(0).alreadyPlanned(true).build();
        }
        ManifestChunks.Chunk range = ManifestChunks.chunk(chunk, progress.bytes(), settings.chunkBytes());
        String key = BucketKeys.planned(batchId, format.extension());
        Instant now = parts.clock().instant();
        Optional<String> overQuota = chargeQuota(status.header().client(), key, format, range);
        ManifestGroups run = new ManifestGroups(parts, ItemPlanner.Batch.of(batchId, Optional.of(status)), now);
        try (InputStream in = parts.blobs().open(key, range.readFrom())
                .orElseThrow(() -> new IllegalStateException(key + " is missing"))) {
            ManifestChunks.Reader reader = ManifestChunks.reader(in, range);
            for (ManifestChunks.Line line = reader.next(); line != null; line = reader.next()) {
                accept(run, format, line, overQuota);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + key, e);
        }
        ManifestGroups.Planned planned = run.finish();
        parts.batches().uploads().chunkPlanned(batchId, chunk, planned.chunkCounts(), now);
        tracker.checkCompletion(batchId, parts.clock().instant());
        return ChunkOutcome.builder().batchId(batchId).chunk(chunk).items(planned.items())
                .duplicates(planned.duplicates()).parked(planned.counts().parked())
                .skipped(planned.counts().skipped()).joined(planned.counts().joined()).alreadyPlanned(false).build();
    }

    /**
     * Counts the chunk's URL lines against its client's day, in one write for the chunk: they all fit, or none is
     * taken, each then ending {@code invalid} with reason {@code over-quota} (the detail names the quota and its
     * reset), so none is lost silently. Read once more for the count, only when a limit applies. A chunk planned again
     * after a crash between the count and its marker is counted again.
     *
     * @return the quota's reason when the chunk is over it
     */
    private Optional<String> chargeQuota(String client, String key, UploadFormat format, ManifestChunks.Chunk range) {
        if (!quotas.limits(client)) {
            return Optional.empty();
        }
        long urls = 0;
        try (InputStream in = parts.blobs().open(key, range.readFrom())
                .orElseThrow(() -> new IllegalStateException(key + " is missing"))) {
            ManifestChunks.Reader reader = ManifestChunks.reader(in, range);
            for (ManifestChunks.Line line = reader.next(); line != null; line = reader.next()) {
                if (ManifestLine.parse(format, line) instanceof ManifestLine.Parsed.Url) {
                    urls++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + key, e);
        }
        return quotas.charge(client, urls) instanceof Quota.Decision.OverQuota over ? Optional.of(over.reason())
                : Optional.empty();
    }

    /** One line of a manifest: nothing, an invalid item, or a URL to plan (or refused, over the quota). */
    private void accept(ManifestGroups run, UploadFormat format, ManifestChunks.Line line,
            Optional<String> overQuota) {
        switch (ManifestLine.parse(format, line)) {
            case ManifestLine.Parsed.Blank blank -> { }
            case ManifestLine.Parsed.Invalid invalid ->
                    run.invalid(Invalid.url(line.position(), invalid.shown(), invalid.reason()));
            case ManifestLine.Parsed.Url url when overQuota.isPresent() -> run.invalid(new Invalid(line.position(),
                    url.raw(), Reason.OVER_QUOTA, overQuota.get()));
            case ManifestLine.Parsed.Url url -> {
                switch (normalizer.normalize(url.raw())) {
                    case NormalizationResult.Accepted accepted -> run.add(line.position(), accepted);
                    case NormalizationResult.Rejected rejected ->
                            run.invalid(Invalid.url(line.position(), url.raw(), rejected.reason()));
                }
            }
        }
    }
}
