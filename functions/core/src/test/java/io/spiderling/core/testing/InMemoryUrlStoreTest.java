package io.spiderling.core.testing;

import io.spiderling.core.port.UrlStore;
import io.spiderling.core.port.UrlStoreContract;

/** The pipeline tests rely on this fake's staleness rules, so it keeps the port's contract, as the adapter does. */
class InMemoryUrlStoreTest extends UrlStoreContract {

    @Override
    protected UrlStore createStore() {
        return new InMemoryUrlStore(new CallLog());
    }
}
