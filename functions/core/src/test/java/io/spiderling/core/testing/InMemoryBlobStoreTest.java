package io.spiderling.core.testing;

import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.BlobStoreContract;

/** The use-case tests rely on this fake, so it keeps the port's contract, as its adapter does. */
class InMemoryBlobStoreTest extends BlobStoreContract {

    @Override
    protected BlobStore createStore() {
        return new InMemoryBlobStore(new CallLog());
    }
}
