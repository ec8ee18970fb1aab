package io.spiderling.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.politeness.OptOut;
import io.spiderling.core.testing.InMemoryOptOutStore;
import io.spiderling.core.testing.TestClock;
import io.spiderling.core.url.SiteKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OptOutListTest {

    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    private static final SiteKey FILED = new SiteKey("filed.example");
    private static final SiteKey ASKED = new SiteKey("asked.example");

    private final TestClock clock = new TestClock(T0);
    private final AtomicInteger reads = new AtomicInteger();
    private final InMemoryOptOutStore store = new InMemoryOptOutStore();
    private final OptOutList list = OptOutList.of(Set.of(FILED), new CountingStore(), clock, Duration.ofSeconds(5));

    @Test
    void contains_whenFileOrApiListsIt_isTrue() {
        store.add(ASKED, T0);

        assertTrue(list.contains(FILED));
        assertTrue(list.contains(ASKED));
        assertFalse(list.contains(new SiteKey("other.example")));
    }

    @Test
    void contains_whenAskedForManyUrls_readsTheStoreOnceACacheTime() {
        for (int i = 0; i < 1000; i++) {
            list.contains(ASKED);
        }
        assertEquals(1, reads.get());

        store.add(ASKED, T0); // another instance's opt-out: seen once the cache time is over
        assertFalse(list.contains(ASKED));
        clock.advance(Duration.ofSeconds(5));

        assertTrue(list.contains(ASKED));
        assertEquals(2, reads.get());
    }

    @Test
    void add_whenApiListsASite_appliesAtOnceHere() {
        assertFalse(list.contains(ASKED));

        OptOutList.Listed listed = list.add(ASKED);

        assertEquals(new OptOutList.Listed(ASKED, OptOutList.Source.API, Optional.of(T0)), listed);
        assertTrue(list.contains(ASKED));
    }

    @Test
    void remove_whenTheFileListsIt_isRefusedAndItStaysOptedOut() {
        assertEquals(new OptOutList.Removal.InFile(FILED), list.remove(FILED));
        assertTrue(list.contains(FILED));
        assertEquals(new OptOutList.Listed(FILED, OptOutList.Source.FILE, Optional.empty()), list.add(FILED));
    }

    @Test
    void remove_whenApiListedItOrNot_saysWhichAndAppliesAtOnce() {
        list.add(ASKED);

        assertEquals(new OptOutList.Removal.Removed(ASKED), list.remove(ASKED));
        assertFalse(list.contains(ASKED));
        assertEquals(new OptOutList.Removal.NotListed(ASKED), list.remove(ASKED));
    }

    @Test
    void all_whenBothList_showsEachOnceTheFileFirstInSiteOrder() {
        store.add(ASKED, T0);
        store.add(FILED, T0);

        assertEquals(List.of(new OptOutList.Listed(ASKED, OptOutList.Source.API, Optional.of(T0)),
                new OptOutList.Listed(FILED, OptOutList.Source.FILE, Optional.empty())),
                List.copyOf(list.all().values()));
    }

    @Test
    void siteKey_whenNotASiteKey_throwsNamingItsSiteKey() {
        assertEquals(new SiteKey("example.com"), OptOut.siteKey("Example.COM"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OptOut.siteKey("www.example.com"));
        assertEquals("'www.example.com' is not a site key; its site key is 'example.com'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OptOut.siteKey("example.com/path"));
    }

    /** The store, counting whole-list reads. */
    private final class CountingStore implements io.spiderling.core.port.OptOutStore {
        @Override
        public java.util.Map<SiteKey, Instant> sites() {
            reads.incrementAndGet();
            return store.sites();
        }

        @Override
        public void add(SiteKey site, Instant at) {
            store.add(site, at);
        }

        @Override
        public boolean remove(SiteKey site) {
            return store.remove(site);
        }
    }
}
