package io.spiderling.core.testing;

import io.spiderling.core.port.BatchHeaderStoreContract;
import io.spiderling.core.port.BatchItemStoreContract;
import io.spiderling.core.port.BatchStores;
import io.spiderling.core.port.UploadPlanStoreContract;
import org.junit.jupiter.api.Nested;

/** The pipeline tests rely on this fake, so it keeps the contract of each port it implements, as the adapter does. */
class InMemoryBatchStoreTest {

    private static BatchStores stores() {
        return BatchStores.of(new InMemoryBatchStore(new CallLog()), new InMemoryBatchOriginStore());
    }

    @Nested
    class Headers extends BatchHeaderStoreContract {
        @Override
        protected BatchStores createStores() {
            return stores();
        }
    }

    @Nested
    class Items extends BatchItemStoreContract {
        @Override
        protected BatchStores createStores() {
            return stores();
        }
    }

    @Nested
    class Uploads extends UploadPlanStoreContract {
        @Override
        protected BatchStores createStores() {
            return stores();
        }
    }
}
