package io.spiderling.core.port;

import io.spiderling.core.url.SiteKey;
import java.time.Instant;

/**
 * Delayed wake-ups of sites whose frontier entries wait until a due time: at {@code at} (as near as the queue allows)
 * the site's due entries are released. Best effort: the periodic sweep releases them too.
 */
@FunctionalInterface
public interface WakeQueue {

    /** No wake-ups: due entries wait for the sweep, or for another job of their site to finish. */
    WakeQueue NONE = (site, at) -> {};

    void wake(SiteKey site, Instant at);
}
