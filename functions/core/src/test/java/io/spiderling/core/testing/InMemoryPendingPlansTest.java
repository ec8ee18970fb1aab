package io.spiderling.core.testing;

import io.spiderling.core.port.PendingPlans;
import io.spiderling.core.port.PendingPlansContract;

/** The use-case tests rely on this fake, so it keeps the port's contract, as its adapter does. */
class InMemoryPendingPlansTest extends PendingPlansContract {

    @Override
    protected PendingPlans createPlans() {
        return new InMemoryPendingPlans();
    }
}
