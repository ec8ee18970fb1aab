package io.spiderling.core.testing;

import io.spiderling.core.port.RateStore;
import io.spiderling.core.port.RateStoreContract;

/** The use-case tests rely on this fake, so it keeps the port's contract, as its adapter does. */
class InMemoryRateStoreTest extends RateStoreContract {

    @Override
    protected RateStore createStore() {
        return new InMemoryRateStore();
    }
}
