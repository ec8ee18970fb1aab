package io.spiderling.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.spiderling.core.quota.Quota;
import io.spiderling.core.testing.InMemoryQuotaStore;
import io.spiderling.core.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class QuotasTest {

    private static final Instant T0 = Instant.parse("2026-11-28T22:00:00Z");

    private final InMemoryQuotaStore store = new InMemoryQuotaStore();
    private final TestClock clock = new TestClock(T0);

    @Test
    void charge_whenDefaultLimit_countsBatchesUntilTheDayIsFullThenRefusesUntilMidnight() {
        Quotas quotas = new Quotas(store, 10, clock);

        assertEquals(new Quota.Decision.Allowed(10, 6, Instant.parse("2026-11-29T00:00:00Z")),
                quotas.charge("acme", 6));
        Quota.Decision over = quotas.charge("acme", 5);
        assertEquals(new Quota.Decision.OverQuota(10, 6, 5, Instant.parse("2026-11-29T00:00:00Z"),
                Duration.ofHours(2)), over);

        clock.advance(Duration.ofHours(2));

        assertInstanceOf(Quota.Decision.Allowed.class, quotas.charge("acme", 5));
    }

    @Test
    void charge_whenTheClientsOwnLimit_overridesTheDefaultAndZeroIsUnlimited() {
        Quotas quotas = new Quotas(store, 10, clock);
        quotas.setLimit("big", 1000);
        quotas.setLimit("free", 0);

        assertInstanceOf(Quota.Decision.Allowed.class, quotas.charge("big", 500));
        assertInstanceOf(Quota.Decision.Unlimited.class, quotas.charge("free", 1_000_000));
        assertEquals(0, store.used("free", LocalDate.parse("2026-11-28")));
        assertInstanceOf(Quota.Decision.OverQuota.class, quotas.charge("other", 11));
    }

    @Test
    void room_whenTheDayIsUsedUp_isOverQuotaAndOtherwiseAllowed() {
        Quotas quotas = new Quotas(store, 10, clock);

        assertInstanceOf(Quota.Decision.Allowed.class, quotas.room("acme"));
        quotas.charge("acme", 10);

        assertInstanceOf(Quota.Decision.OverQuota.class, quotas.room("acme"));
    }

    @Test
    void refund_whenCharged_givesTheRoomBack() {
        Quotas quotas = new Quotas(store, 10, clock);
        quotas.charge("acme", 10);

        quotas.refund("acme", 10, T0);

        assertEquals(new Quotas.Usage("acme", 10, false, 0, Instant.parse("2026-11-29T00:00:00Z")),
                quotas.usage("acme"));
    }

    @Test
    void charge_whenUnlimited_readsAndWritesNothing() {
        assertInstanceOf(Quota.Decision.Unlimited.class, Quotas.UNLIMITED.charge("acme", 5));
        assertInstanceOf(Quota.Decision.Unlimited.class, new Quotas(store, 0, clock).charge("acme", 5));
        assertEquals(0, store.used("acme", LocalDate.parse("2026-11-28")));
    }
}
