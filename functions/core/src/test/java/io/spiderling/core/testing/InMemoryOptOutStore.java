package io.spiderling.core.testing;

import io.spiderling.core.port.OptOutStore;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link OptOutStore} in memory. */
public final class InMemoryOptOutStore implements OptOutStore {

    private final Map<SiteKey, Instant> sites = new ConcurrentHashMap<>();

    @Override
    public Map<SiteKey, Instant> sites() {
        return Map.copyOf(sites);
    }

    @Override
    public void add(SiteKey site, Instant at) {
        sites.putIfAbsent(site, at);
    }

    @Override
    public boolean remove(SiteKey site) {
        return sites.remove(site) != null;
    }
}
