package io.spiderling.core.port;

import io.spiderling.core.notify.UrlChangedEvent;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The queue that drives the notify stage: one message per delivery attempt, delayed for backoff and progress. A
 * message is small: a change's carries one event (its URL is at most 2,048 characters), far below SQS's 256 KB.
 */
public interface NotifyQueue {

    /** The longest delay a message can carry (SQS's DelaySeconds). */
    Duration MAX_DELAY = Duration.ofMinutes(15);

    /** @throws IllegalArgumentException for a delay outside 0..15 min */
    void send(Message message, Duration delay);

    enum Kind {
        COMPLETED("completed"),
        PROGRESS("progress"),
        /** A page's content changed: {@code url.changed} for a batch that asked for it ({@code "notify"}). */
        CHANGED("changed");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Kind fromWireName(String name) {
            for (Kind k : values()) {
                if (k.wireName.equals(name)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown notification kind: " + name);
        }
    }

    /**
     * @param sequence the progress report's number (1 for the first); 0 for a completion and a change
     * @param attempt the delivery attempt this message is, 1 for the first
     * @param change the change to post, for {@link Kind#CHANGED} (and only for it): the listeners' event, which the
     *     webhook repeats with the batch's id, under the same event id
     */
    record Message(String batchId, Kind kind, long sequence, int attempt, Optional<UrlChangedEvent> change) {
        public Message {
            Objects.requireNonNull(batchId, "batchId");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(change, "change");
            if (attempt < 1) {
                throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
            }
            if (change.isPresent() != (kind == Kind.CHANGED)) {
                throw new IllegalArgumentException("a message carries a change exactly when it is of kind "
                        + Kind.CHANGED.wireName() + "; this one is " + kind.wireName());
            }
        }

        /** A completion's or a progress report's message, which carries no change. */
        public Message(String batchId, Kind kind, long sequence, int attempt) {
            this(batchId, kind, sequence, attempt, Optional.empty());
        }

        public static Message completed(String batchId) {
            return new Message(batchId, Kind.COMPLETED, 0, 1);
        }

        public static Message progress(String batchId, long sequence) {
            return new Message(batchId, Kind.PROGRESS, sequence, 1);
        }

        /** The first delivery of {@code event} to the callback of batch {@code batchId}. */
        public static Message changed(String batchId, UrlChangedEvent event) {
            return new Message(batchId, Kind.CHANGED, 0, 1, Optional.of(event));
        }

        public Message nextAttempt() {
            return new Message(batchId, kind, sequence, attempt + 1, change);
        }
    }
}
