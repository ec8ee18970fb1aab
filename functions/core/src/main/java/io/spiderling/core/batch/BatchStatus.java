package io.spiderling.core.batch;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a batch's header says now.
 *
 * @param terminalCounts how many items reached each terminal state; states never reached are absent
 * @param cancelledAt when the client cancelled the batch; its unstarted URLs then end as {@code cancelled}
 * @param planning for an uploaded manifest, how far its planning has got; empty for a batch submitted with its URLs
 * @param callback where its notifications stand
 * @param sitemaps the sitemaps being read and read (ADR 19)
 * @param noticeFailures the change notices its callback was not given, for a batch that asked for them
 */
public record BatchStatus(BatchHeader header, Map<ItemState, Integer> terminalCounts, Optional<Instant> completedAt,
        Optional<Instant> cancelledAt, Optional<PlanProgress> planning, CallbackState callback,
        SitemapCounts sitemaps, NoticeFailures noticeFailures) {

    public BatchStatus {
        terminalCounts = Map.copyOf(terminalCounts);
        java.util.Objects.requireNonNull(callback, "callback");
        java.util.Objects.requireNonNull(sitemaps, "sitemaps");
        java.util.Objects.requireNonNull(noticeFailures, "noticeFailures");
    }

    /** Sitemaps whose lists are being taken into the batch: its total is not final while any is. */
    public int sitemapsReading() {
        return sitemaps.reading();
    }

    public BatchStatus(BatchHeader header, Map<ItemState, Integer> terminalCounts, Optional<Instant> completedAt,
            Optional<Instant> cancelledAt, Optional<PlanProgress> planning) {
        this(header, terminalCounts, completedAt, cancelledAt, planning, CallbackState.NONE, SitemapCounts.NONE,
                NoticeFailures.NONE);
    }

    public BatchStatus(BatchHeader header, Map<ItemState, Integer> terminalCounts, Optional<Instant> completedAt,
            Optional<Instant> cancelledAt) {
        this(header, terminalCounts, completedAt, cancelledAt, Optional.empty());
    }

    public BatchStatus(BatchHeader header, Map<ItemState, Integer> terminalCounts, Optional<Instant> completedAt) {
        this(header, terminalCounts, completedAt, Optional.empty());
    }

    public int terminal() {
        return terminalCounts.values().stream().mapToInt(Integer::intValue).sum();
    }

    public int queued() {
        return Math.max(0, header.total() - terminal());
    }

    /**
     * Whether the total is final: for a batch submitted with its URLs, unless a sitemap's list is being taken in;
     * once planned for an upload.
     */
    public boolean planned() {
        return sitemaps.reading() == 0
                && (header.upload().isEmpty() || planning.map(PlanProgress::planned).orElse(false));
    }

    public boolean done() {
        return planned() && terminal() >= header.total();
    }

    /** {@link #countsByState} keyed by the states' wire names, as the API and the callbacks show them. */
    public Map<String, Integer> countsByWireName() {
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        countsByState().forEach((state, count) -> counts.put(state.wireName(), count));
        return counts;
    }

    /** Every state with its count, queued included, zeros included, in lifecycle order. */
    public Map<ItemState, Integer> countsByState() {
        Map<ItemState, Integer> counts = new EnumMap<>(ItemState.class);
        for (ItemState s : ItemState.values()) {
            counts.put(s, s == ItemState.QUEUED ? queued() : terminalCounts.getOrDefault(s, 0));
        }
        return counts;
    }

    /** Names each of the 8 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private BatchHeader header;
        private Map<ItemState, Integer> terminalCounts = Map.of();
        private Optional<Instant> completedAt = Optional.empty();
        private Optional<Instant> cancelledAt = Optional.empty();
        private Optional<PlanProgress> planning = Optional.empty();
        private CallbackState callback = CallbackState.NONE;
        private SitemapCounts sitemaps = SitemapCounts.NONE;
        private NoticeFailures noticeFailures = NoticeFailures.NONE;

        public Builder sitemaps(SitemapCounts value) {
            sitemaps = value;
            return this;
        }

        public Builder noticeFailures(NoticeFailures value) {
            noticeFailures = value;
            return this;
        }

        private Builder() {}

        public Builder header(BatchHeader value) {
            header = value;
            return this;
        }

        public Builder terminalCounts(Map<ItemState, Integer> value) {
            terminalCounts = value;
            return this;
        }

        public Builder completedAt(Optional<Instant> value) {
            completedAt = value;
            return this;
        }

        public Builder cancelledAt(Optional<Instant> value) {
            cancelledAt = value;
            return this;
        }

        public Builder planning(Optional<PlanProgress> value) {
            planning = value;
            return this;
        }

        public Builder callback(CallbackState value) {
            callback = value;
            return this;
        }

        public BatchStatus build() {
            return new BatchStatus(header, terminalCounts, completedAt, cancelledAt, planning, callback, sitemaps,
                    noticeFailures);
        }
    }
}
