package io.spiderling.core.port;

import java.util.List;

/**
 * Hands the chunks of an uploaded manifest, or of a sitemap's list (ADR 19), to the planners, one message per chunk,
 * so they run in parallel.
 */
public interface PlanQueue {

    /** Sends one message per chunk; throws when any could not be sent, so the caller's event is retried. */
    void enqueue(String batchId, List<Integer> chunks);

    /** Sends one message per chunk of the list of the sitemap whose item is {@code sitemapKey}; throws likewise. */
    void enqueueSitemap(String batchId, String sitemapKey, List<Integer> chunks);
}
