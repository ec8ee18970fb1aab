package io.spiderling.core.testing;

import io.spiderling.core.port.FrontierStore;
import io.spiderling.core.port.FrontierStoreContract;

/** The frontier tests rely on this fake, so it keeps the port's contract, as the DynamoDB adapter does. */
class InMemoryFrontierStoreTest extends FrontierStoreContract {

    @Override
    protected FrontierStore createStore() {
        return new InMemoryFrontierStore();
    }
}
