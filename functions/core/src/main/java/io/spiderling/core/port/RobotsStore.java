package io.spiderling.core.port;

import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsOrigin;
import java.util.Optional;

/** The robots.txt cache, one entry per origin. Callers check expiry on read: stores delete expired entries late. */
public interface RobotsStore {

    Optional<RobotsCacheEntry> find(RobotsOrigin origin);

    void save(RobotsCacheEntry entry);
}
