package io.spiderling.core.port;

import java.time.Duration;
import java.util.Objects;

/** The queue that drives the notify stage: one message per delivery attempt, delayed for backoff and progress. */
public interface NotifyQueue {

    /** The longest delay a message can carry (SQS's DelaySeconds). */
    Duration MAX_DELAY = Duration.ofMinutes(15);

    /** @throws IllegalArgumentException for a delay outside 0..15 min */
    void send(Message message, Duration delay);

    enum Kind {
        COMPLETED("completed"),
        PROGRESS("progress");

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
     * @param sequence the progress report's number (1 for the first); 0 for a completion
     * @param attempt the delivery attempt this message is, 1 for the first
     */
    record Message(String batchId, Kind kind, long sequence, int attempt) {
        public Message {
            Objects.requireNonNull(batchId, "batchId");
            Objects.requireNonNull(kind, "kind");
            if (attempt < 1) {
                throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
            }
        }

        public static Message completed(String batchId) {
            return new Message(batchId, Kind.COMPLETED, 0, 1);
        }

        public static Message progress(String batchId, long sequence) {
            return new Message(batchId, Kind.PROGRESS, sequence, 1);
        }

        public Message nextAttempt() {
            return new Message(batchId, kind, sequence, attempt + 1);
        }
    }
}
