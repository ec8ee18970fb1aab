package io.spiderling.core.port;

import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.url.SiteKey;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Each site's rate state, written only on the condition that nobody wrote it since it was read. A lost write returns
 * the state that won, so the loser decides again without another read: one write per decision in the common case.
 */
public interface RateStore {

    Optional<SiteRate> find(SiteKey site);

    /** {@link #find} for several sites, leaving out those with no state; an adapter may read them in one call. */
    default Map<SiteKey, SiteRate> findAll(Collection<SiteKey> sites) {
        Map<SiteKey, SiteRate> found = new LinkedHashMap<>();
        sites.forEach(site -> find(site).ifPresent(rate -> found.put(site, rate)));
        return found;
    }

    /**
     * Writes {@code next} if the stored state's version is still {@code readVersion} (0 for a site with no state).
     * When another writer got there first, writes nothing and returns what is stored now.
     */
    Written save(SiteKey site, SiteRate next, long readVersion);

    /** How a conditional write ended. */
    sealed interface Written {
        /** The state was written. */
        record Saved() implements Written {}

        /** Another writer got there first: the state stored now (empty if the site has none). */
        record Conflict(Optional<SiteRate> stored) implements Written {}
    }
}
