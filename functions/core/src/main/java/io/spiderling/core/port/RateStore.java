package io.spiderling.core.port;

import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.url.SiteKey;
import java.util.Optional;

/** Each site's rate state, written only on the condition that nobody wrote it since it was read. */
public interface RateStore {

    Optional<SiteRate> find(SiteKey site);

    /**
     * Writes {@code next} if the stored state's version is still {@code readVersion} (0 for a site with no state).
     * Returns false, writing nothing, when another writer got there first; the caller reads again and decides again.
     */
    boolean save(SiteKey site, SiteRate next, long readVersion);
}
