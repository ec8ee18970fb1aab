package io.spiderling.core.testing;

import io.spiderling.core.port.QuotaStore;
import io.spiderling.core.port.QuotaStoreContract;

class InMemoryQuotaStoreTest extends QuotaStoreContract {

    @Override
    protected QuotaStore createStore() {
        return new InMemoryQuotaStore();
    }
}
