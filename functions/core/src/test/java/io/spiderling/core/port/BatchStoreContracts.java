package io.spiderling.core.port;

import org.junit.jupiter.api.Nested;

/**
 * The contracts of the three ports one batch store implements ({@link BatchHeaderStore}, {@link BatchItemStore},
 * {@link UploadPlanStore}), nested once here: a store's test extends this and says how to make its stores, and JUnit
 * runs the three contracts as its nested classes.
 */
public abstract class BatchStoreContracts {

    /** The stores for one test; they may hold other tests' batches. */
    protected abstract BatchStores createStores();

    @Nested
    class Headers extends BatchHeaderStoreContract {
        @Override
        protected BatchStores createStores() {
            return BatchStoreContracts.this.createStores();
        }
    }

    @Nested
    class Items extends BatchItemStoreContract {
        @Override
        protected BatchStores createStores() {
            return BatchStoreContracts.this.createStores();
        }
    }

    @Nested
    class Uploads extends UploadPlanStoreContract {
        @Override
        protected BatchStores createStores() {
            return BatchStoreContracts.this.createStores();
        }
    }
}
