package io.spiderling.core.testing;

import io.spiderling.core.port.PlanQueue;
import java.util.ArrayList;
import java.util.List;

/** A {@link PlanQueue} that keeps every chunk message sent, in order. */
public final class RecordingPlanQueue implements PlanQueue {

    /** One chunk message of an upload. */
    public record ChunkMessage(String batchId, int chunk) {}

    /** One chunk message of a sitemap's list. */
    public record SitemapChunkMessage(String batchId, String sitemapKey, int chunk) {}

    private final List<ChunkMessage> sent = new ArrayList<>();
    private final List<SitemapChunkMessage> sitemapChunks = new ArrayList<>();

    @Override
    public void enqueue(String batchId, List<Integer> chunks) {
        chunks.forEach(c -> sent.add(new ChunkMessage(batchId, c)));
    }

    @Override
    public void enqueueSitemap(String batchId, String sitemapKey, List<Integer> chunks) {
        chunks.forEach(c -> sitemapChunks.add(new SitemapChunkMessage(batchId, sitemapKey, c)));
    }

    public List<ChunkMessage> sent() {
        return List.copyOf(sent);
    }

    public List<SitemapChunkMessage> sitemapChunks() {
        return List.copyOf(sitemapChunks);
    }
}
