package io.spiderling.core.testing;

import io.spiderling.core.port.BatchStoreContracts;
import io.spiderling.core.port.BatchStores;

/** The pipeline tests rely on this fake, so it keeps the contract of each port it implements, as the adapter does. */
class InMemoryBatchStoreTest extends BatchStoreContracts {

    @Override
    protected BatchStores createStores() {
        return BatchStores.of(new InMemoryBatchStore(new CallLog()), new InMemoryBatchOriginStore());
    }
}
