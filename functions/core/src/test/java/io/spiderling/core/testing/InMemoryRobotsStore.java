package io.spiderling.core.testing;

import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.robots.RobotsCacheEntry;
import io.spiderling.core.robots.RobotsOrigin;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A {@link RobotsStore} in a map; like DynamoDB it keeps expired entries, so the policy must check expiry. */
public final class InMemoryRobotsStore implements RobotsStore {

    private int finds;
    private final Map<RobotsOrigin, Instant> claims = new HashMap<>();

    private final Map<RobotsOrigin, RobotsCacheEntry> entries = new HashMap<>();
    private Runnable beforeNextClaim = () -> { };
    private RuntimeException nextSaveFails;

    /** The next save throws {@code failure} instead of saving: the table failing under a fetcher. */
    public synchronized void failNextSave(RuntimeException failure) {
        nextSaveFails = failure;
    }

    /** Runs {@code action} just before the next claim is decided: another fetcher finishing in between. */
    public synchronized void beforeNextClaim(Runnable action) {
        beforeNextClaim = action;
    }

    @Override
    public synchronized Optional<RobotsCacheEntry> find(RobotsOrigin origin) {
        finds++;
        return Optional.ofNullable(entries.get(origin));
    }

    @Override
    public synchronized void save(RobotsCacheEntry entry) {
        if (nextSaveFails != null) {
            RuntimeException failure = nextSaveFails;
            nextSaveFails = null;
            throw failure;
        }
        entries.put(entry.origin(), entry);
    }

    /** Reads so far. */
    public synchronized int finds() {
        return finds;
    }

    @Override
    public synchronized boolean claimFetch(RobotsOrigin origin, Instant now, Instant until) {
        Runnable action = beforeNextClaim;
        beforeNextClaim = () -> { };
        action.run();
        Instant held = claims.get(origin);
        if (held != null && held.isAfter(now)) {
            return false;
        }
        claims.put(origin, until);
        return true;
    }

    @Override
    public synchronized void releaseFetch(RobotsOrigin origin) {
        claims.remove(origin);
    }

    @Override
    public synchronized int releaseFetchClaims(Instant now) {
        int held = claims.size();
        claims.values().removeIf(until -> until.isAfter(now));
        return held - claims.size();
    }
}
