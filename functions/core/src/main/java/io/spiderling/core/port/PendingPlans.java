package io.spiderling.core.port;

import java.time.Instant;
import java.util.List;

/**
 * Objects that should be planned and have not been yet: a manifest ingest wrote, an upload a client was handed a URL
 * for. On AWS their planning starts from an S3 event, which Lambda drops after two failed retries; the sweep looks
 * here for what waited too long and plans it itself, so a lost event cannot strand a batch.
 */
public interface PendingPlans {

    /** One object waiting to be planned, watched since {@code since}. */
    record Pending(String key, Instant since) {}

    /** Watches {@code key} from {@code since}; watching it again moves {@code since}. */
    void expect(String key, Instant since);

    /** Stops watching {@code key}: its planning began. Nothing happens for a key not watched. */
    void planned(String key);

    /** Watched keys starting with {@code prefix}, watched since before {@code cutoff}; oldest first, at most limit. */
    List<Pending> waitingSince(String prefix, Instant cutoff, int limit);

    /** Watches nothing, for uses that need no sweep (some tests). */
    PendingPlans NONE = new PendingPlans() {
        @Override
        public void expect(String key, Instant since) {}

        @Override
        public void planned(String key) {}

        @Override
        public List<Pending> waitingSince(String prefix, Instant cutoff, int limit) {
            return List.of();
        }
    };
}
