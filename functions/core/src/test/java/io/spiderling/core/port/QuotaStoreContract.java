package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What {@link QuotaStore}'s javadoc promises, run against every implementation. Implementations may share one table
 * between the tests of a class, so each test uses clients named after the test.
 */
public abstract class QuotaStoreContract {

    protected static final LocalDate DAY = LocalDate.parse("2026-11-28");

    protected QuotaStore store;
    private String client;

    protected abstract QuotaStore createStore();

    @BeforeEach
    void createStoreAndNameClient(TestInfo test) {
        store = createStore();
        client = Contracts.nameOf(test);
    }

    @Test
    void limit_whenSetAndSetAgain_isTheLastOneAndEmptyForAnotherClient() {
        assertEquals(Optional.empty(), store.limit(client));

        store.setLimit(client, 100);
        store.setLimit(client, 0);

        assertEquals(Optional.of(0L), store.limit(client));
        assertEquals(Optional.empty(), store.limit(client + "-other"));
    }

    @Test
    void charge_whenItFits_countsItAndOtherwiseCountsNothing() {
        assertEquals(new QuotaStore.Charge.Charged(60), store.charge(client, DAY, 60, 100));
        assertEquals(new QuotaStore.Charge.Charged(100), store.charge(client, DAY, 40, 100));
        assertEquals(new QuotaStore.Charge.Refused(100), store.charge(client, DAY, 1, 100));

        assertEquals(100, store.used(client, DAY));
        assertEquals(0, store.used(client, DAY.plusDays(1)));
        assertEquals(0, store.used(client + "-other", DAY));
    }

    @Test
    void charge_whenOverTheLimitAtOnce_countsNothing() {
        assertEquals(new QuotaStore.Charge.Refused(0), store.charge(client, DAY, 101, 100));
        assertEquals(0, store.used(client, DAY));
    }

    @Test
    void charge_whenAnotherDay_startsAgainFromZero() {
        store.charge(client, DAY, 100, 100);

        assertEquals(new QuotaStore.Charge.Charged(10), store.charge(client, DAY.plusDays(1), 10, 100));
    }

    @Test
    void refund_whenCharged_takesTheUrlsBack() {
        store.charge(client, DAY, 70, 100);

        store.refund(client, DAY, 70);

        assertEquals(0, store.used(client, DAY));
        assertEquals(new QuotaStore.Charge.Charged(100), store.charge(client, DAY, 100, 100));
    }

    @Test
    void charge_whenChargesRaceForTheLastRoom_onlyAsManyPassAsFit() throws Exception {
        List<Callable<QuotaStore.Charge>> charges = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            charges.add(() -> store.charge(client, DAY, 30, 100));
        }

        long passed = Contracts.race(charges).stream().filter(c -> c instanceof QuotaStore.Charge.Charged).count();

        assertEquals(3, passed);
        assertEquals(90, store.used(client, DAY));
    }
}
