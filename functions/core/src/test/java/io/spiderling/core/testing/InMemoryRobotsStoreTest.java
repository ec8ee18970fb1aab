package io.spiderling.core.testing;

import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.port.RobotsStoreContract;

/** The use-case tests rely on this fake, so it keeps the port's contract, as its adapter does. */
class InMemoryRobotsStoreTest extends RobotsStoreContract {

    @Override
    protected RobotsStore createStore() {
        return new InMemoryRobotsStore();
    }
}
