package io.spiderling.core.testing;

import io.spiderling.core.port.PendingPlans;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link PendingPlans} in a map, for use-case tests. */
public final class InMemoryPendingPlans implements PendingPlans {

    private final Map<String, Instant> watched = new ConcurrentHashMap<>();

    @Override
    public void expect(String key, Instant since) {
        watched.put(key, since);
    }

    @Override
    public void planned(String key) {
        watched.remove(key);
    }

    @Override
    public List<Pending> waitingSince(String prefix, Instant cutoff, int limit) {
        return watched.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix) && e.getValue().isBefore(cutoff))
                .map(e -> new Pending(e.getKey(), e.getValue()))
                .sorted(Comparator.comparing(Pending::since).thenComparing(Pending::key))
                .limit(limit)
                .toList();
    }

    public boolean watches(String key) {
        return watched.containsKey(key);
    }
}
