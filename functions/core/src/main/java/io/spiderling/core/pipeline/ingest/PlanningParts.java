package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.PendingPlans;
import io.spiderling.core.port.UrlStore;
import java.time.Clock;
import java.util.Objects;

/**
 * What planning a batch's URLs needs, named once for the two ways a batch is planned: a manifest ingest wrote
 * ({@link Canonicalize}) and an upload's chunks ({@link PlanUpload}). Both read their input from the bucket, add the
 * batch's items, let the {@link ItemPlanner} skip, join or claim each URL, park the claimed ones in the frontier, and
 * stop watching what they planned.
 */
public final class PlanningParts {

    private final BlobStore blobs;
    private final BatchStores batches;
    private final ItemPlanner planner;
    private final Frontier frontier;
    private final Clock clock;
    private final PendingPlans pendingPlans;

    private PlanningParts(Builder b) {
        this.blobs = Objects.requireNonNull(b.blobs, "blobs");
        this.batches = Objects.requireNonNull(b.batches, "batches");
        this.planner = b.planner != null ? b.planner
                : ItemPlanner.defaults(Objects.requireNonNull(b.urls, "urls or planner"), batches);
        this.frontier = Objects.requireNonNull(b.frontier, "frontier");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.pendingPlans = Objects.requireNonNull(b.pendingPlans, "pendingPlans");
    }

    public static Builder builder() {
        return new Builder();
    }

    BlobStore blobs() {
        return blobs;
    }

    BatchStores batches() {
        return batches;
    }

    ItemPlanner planner() {
        return planner;
    }

    Frontier frontier() {
        return frontier;
    }

    Clock clock() {
        return clock;
    }

    PendingPlans pendingPlans() {
        return pendingPlans;
    }

    /** Names each collaborator; give a {@code planner}, or the {@code urls} for one of the default settings. */
    public static final class Builder {
        private BlobStore blobs;
        private BatchStores batches;
        private UrlStore urls;
        private ItemPlanner planner;
        private Frontier frontier;
        private Clock clock;
        private PendingPlans pendingPlans = PendingPlans.NONE;

        private Builder() {}

        /** Where manifests, uploads and their planned copies are. */
        public Builder blobs(BlobStore value) {
            blobs = value;
            return this;
        }

        /** The batch's header, its items and its origins. */
        public Builder batches(BatchStores value) {
            batches = value;
            return this;
        }

        /** The URL table, for a planner of the default settings when none is given. */
        public Builder urls(UrlStore value) {
            urls = value;
            return this;
        }

        /** Decides, per group of URLs, which to skip, join or claim. */
        public Builder planner(ItemPlanner value) {
            planner = value;
            return this;
        }

        public Builder frontier(Frontier value) {
            frontier = value;
            return this;
        }

        public Builder clock(Clock value) {
            clock = value;
            return this;
        }

        /** The manifests and uploads waiting for planning: a planned one is no longer watched. */
        public Builder pendingPlans(PendingPlans value) {
            pendingPlans = value;
            return this;
        }

        public PlanningParts build() {
            return new PlanningParts(this);
        }
    }
}
