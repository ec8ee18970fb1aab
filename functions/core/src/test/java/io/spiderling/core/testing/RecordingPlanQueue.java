package io.spiderling.core.testing;

import io.spiderling.core.port.PlanQueue;
import java.util.ArrayList;
import java.util.List;

/** A {@link PlanQueue} that keeps every chunk message sent, in order. */
public final class RecordingPlanQueue implements PlanQueue {

    /** One chunk message. */
    public record ChunkMessage(String batchId, int chunk) {}

    private final List<ChunkMessage> sent = new ArrayList<>();

    @Override
    public void enqueue(String batchId, List<Integer> chunks) {
        chunks.forEach(c -> sent.add(new ChunkMessage(batchId, c)));
    }

    public List<ChunkMessage> sent() {
        return List.copyOf(sent);
    }
}
