package io.spiderling.core.testing;

import io.spiderling.core.port.BatchOriginStoreContract;
import io.spiderling.core.port.BatchStores;

/** The status tests rely on this fake's origin lists, so it keeps the port's contract, as the adapter does. */
class InMemoryBatchOriginStoreTest extends BatchOriginStoreContract {

    @Override
    protected BatchStores createStores() {
        return BatchStores.of(new InMemoryBatchStore(new CallLog()), new InMemoryBatchOriginStore());
    }
}
