package io.spiderling.core.testing;

import io.spiderling.core.port.LinkStore;
import io.spiderling.core.port.LinkStoreContract;

/** The fake's diff and paging rules: the port's contract, as the DynamoDB adapter keeps it. */
class InMemoryLinkStoreTest extends LinkStoreContract {

    @Override
    protected LinkStore createStore() {
        return new InMemoryLinkStore(new CallLog());
    }
}
