package io.spiderling.core.testing;

import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.url.SiteKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A {@link RateStore} in a map, with the port's conditional write on the version read. */
public final class InMemoryRateStore implements RateStore {

    private int finds;

    private final Map<SiteKey, SiteRate> rates = new HashMap<>();
    private int writes;

    @Override
    public synchronized Optional<SiteRate> find(SiteKey site) {
        finds++;
        return Optional.ofNullable(rates.get(site));
    }

    @Override
    public synchronized Written save(SiteKey site, SiteRate next, long readVersion) {
        Optional<SiteRate> stored = Optional.ofNullable(rates.get(site));
        if (stored.map(SiteRate::version).orElse(0L) != readVersion) {
            return new Written.Conflict(stored);
        }
        rates.put(site, next);
        writes++;
        return new Written.Saved();
    }

    /** Successful writes so far. */
    public synchronized int writes() {
        return writes;
    }

    /** Reads so far. */
    public synchronized int finds() {
        return finds;
    }
}
