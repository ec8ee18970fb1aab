package io.spiderling.core.port;

import io.spiderling.core.batch.BatchOrigins;
import io.spiderling.core.robots.RobotsOrigin;
import java.util.Collection;

/**
 * The origins each batch parked URLs on, listed at planning so that its status can say what its URLs wait for
 * without reading them all.
 */
public interface BatchOriginStore {

    /**
     * Adds origins the batch parked URLs on to its list, up to {@link BatchOrigins#MAX}; past that, the list records
     * only that there are more. Adding an origin already listed changes nothing.
     */
    void addOrigins(String batchId, Collection<RobotsOrigin> origins);

    /** The origins {@link #addOrigins} recorded, ordered by {@link RobotsOrigin#value}; none if it recorded none. */
    BatchOrigins origins(String batchId);
}
