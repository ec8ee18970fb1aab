package io.spiderling.core.testing;

import io.spiderling.core.port.OptOutStore;
import io.spiderling.core.port.OptOutStoreContract;

class InMemoryOptOutStoreTest extends OptOutStoreContract {

    @Override
    protected OptOutStore createStore() {
        return new InMemoryOptOutStore();
    }
}
