package io.spiderling.core.port;

import io.spiderling.core.fetch.FetchJob;
import java.util.List;

/** The per-site FIFO queue the fetch stage consumes. */
public interface FetchQueue {

    /**
     * Sends every job, grouped by site. Throws {@link QueueException} naming the jobs that could not be sent after
     * retrying, so the caller's event is retried; jobs that were sent are deduplicated by their id on the retry.
     */
    void enqueue(List<FetchJob> jobs);

    final class QueueException extends RuntimeException {
        public QueueException(String message) {
            super(message);
        }
    }
}
