package io.spiderling.core.port;

import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsOrigin;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The robots.txt cache, one entry per origin. Callers check expiry on read: stores delete expired entries late. */
public interface RobotsStore {

    Optional<RobotsCacheEntry> find(RobotsOrigin origin);

    /** {@link #find} for several origins, leaving out those with no entry; an adapter may read them in one call. */
    default Map<RobotsOrigin, RobotsCacheEntry> findAll(Collection<RobotsOrigin> origins) {
        Map<RobotsOrigin, RobotsCacheEntry> found = new LinkedHashMap<>();
        origins.forEach(origin -> find(origin).ifPresent(entry -> found.put(origin, entry)));
        return found;
    }

    void save(RobotsCacheEntry entry);

    /**
     * Claims the fetch of the origin's robots.txt until {@code until}, unless another fetcher holds an unexpired
     * claim at {@code now}: of two invocations that find no usable copy at once, one fetches it and the other waits
     * for its rules. Returns false when another holds it.
     */
    boolean claimFetch(RobotsOrigin origin, Instant now, Instant until);

    /**
     * Ends the caller's own claim on the origin's fetch, taken with {@link #claimFetch}, when it gives the fetch up
     * without fetching (the site had no rate slot for it): otherwise the origin would wait the claim out, this
     * fetcher included.
     */
    void releaseFetch(RobotsOrigin origin);

    /**
     * Ends every fetch claim still held at {@code now}, whoever holds it, and returns how many there were. Only for
     * when every holder is known to be dead (the local stack resuming after its process died, on its locked data
     * folder): a live fetcher's claim would be taken from it. An adapter may read every entry to find them.
     */
    int releaseFetchClaims(Instant now);
}
