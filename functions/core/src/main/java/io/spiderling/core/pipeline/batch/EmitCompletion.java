package io.spiderling.core.pipeline.batch;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.notify.CallbackEvent;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.port.EventSink;
import io.spiderling.core.port.NotifyQueue;

/**
 * What a batch's completion sets off: the callback's first delivery attempt, when the batch has a callback, and the
 * {@code batch.completed} event for listeners, whose body is the callback's.
 */
public final class EmitCompletion implements BatchTracker.Completions {

    public static final String BATCH_COMPLETED = "batch.completed";

    private final NotifyQueue queue;
    private final EventSink events;

    public EmitCompletion(NotifyQueue queue, EventSink events) {
        this.queue = queue;
        this.events = events;
    }

    @Override
    public void completed(BatchStatus status) {
        String batchId = status.header().batchId();
        if (status.header().options().callbackUrl().isPresent()) {
            queue.send(NotifyQueue.Message.completed(batchId), java.time.Duration.ZERO);
        }
        CallbackEvent event = CallbackEvent.completed(batchId, status.countsByWireName(), status.header().total(),
                status.completedAt().orElseThrow());
        events.publish(BATCH_COMPLETED, event.eventId(), event.toJson());
    }
}
