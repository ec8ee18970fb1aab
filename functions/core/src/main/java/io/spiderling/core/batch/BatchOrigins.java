package io.spiderling.core.batch;

import io.spiderling.core.robots.RobotsOrigin;
import java.util.List;

/**
 * The origins (scheme, host, port) a batch parked URLs on, recorded at planning so that its status can tell what it
 * waits on without scanning its items: the first {@link #MAX} of them.
 *
 * @param more the batch parked URLs on more origins than are listed
 */
public record BatchOrigins(List<RobotsOrigin> origins, boolean more) {

    /** Origins recorded per batch: a small item, read once per status call. */
    public static final int MAX = 50;

    public static final BatchOrigins NONE = new BatchOrigins(List.of(), false);

    public BatchOrigins {
        origins = List.copyOf(origins);
    }
}
