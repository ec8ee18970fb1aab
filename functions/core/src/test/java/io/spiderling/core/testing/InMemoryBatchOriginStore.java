package io.spiderling.core.testing;

import io.spiderling.core.batch.BatchOrigins;
import io.spiderling.core.port.BatchOriginStore;
import io.spiderling.core.robots.RobotsOrigin;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** A {@link BatchOriginStore} in a map: each batch's first origins, and whether there are more. */
public final class InMemoryBatchOriginStore implements BatchOriginStore {

    private static final class Listed {
        final Set<RobotsOrigin> origins = new LinkedHashSet<>();
        boolean more;
    }

    private final Map<String, Listed> lists = new HashMap<>();

    @Override
    public synchronized void addOrigins(String batchId, Collection<RobotsOrigin> origins) {
        if (origins.isEmpty()) {
            return;
        }
        Listed listed = lists.computeIfAbsent(batchId, b -> new Listed());
        for (RobotsOrigin origin : origins) {
            if (listed.origins.size() < BatchOrigins.MAX) {
                listed.origins.add(origin);
            } else if (!listed.origins.contains(origin)) {
                listed.more = true;
            }
        }
    }

    @Override
    public synchronized BatchOrigins origins(String batchId) {
        Listed listed = lists.get(batchId);
        return listed == null ? BatchOrigins.NONE : new BatchOrigins(listed.origins.stream()
                .sorted(Comparator.comparing(RobotsOrigin::value)).toList(), listed.more);
    }
}
