package io.spiderling.core.port;

import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.Map;

/**
 * The sites that operators opted out over the API ({@code PUT /admin/opt-outs/{site}}). The fetcher never reads it
 * alone: it reads {@link io.spiderling.core.politeness.OptOutList}, this store and the operator's file in one list.
 */
public interface OptOutStore {

    /** Stores nothing: a deployment without the API's list (and the tests that need none). */
    OptOutStore NONE = new OptOutStore() {
        @Override
        public Map<SiteKey, Instant> sites() {
            return Map.of();
        }

        @Override
        public void add(SiteKey site, Instant at) {
            throw new UnsupportedOperationException("no opt-out store");
        }

        @Override
        public boolean remove(SiteKey site) {
            return false;
        }
    };

    /** Every site listed, with when it was listed: one read of the whole list, however long. */
    Map<SiteKey, Instant> sites();

    /** Lists {@code site}; listing it again keeps the first time. */
    void add(SiteKey site, Instant at);

    /** Takes {@code site} off the list; false when it was not on it. */
    boolean remove(SiteKey site);
}
