package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What {@link OptOutStore}'s javadoc promises, run against every implementation. Implementations may share one table
 * between the tests of a class, so each test lists sites named after the test and looks at those only.
 */
public abstract class OptOutStoreContract {

    protected static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

    protected OptOutStore store;
    private String prefix;

    protected abstract OptOutStore createStore();

    @BeforeEach
    void createStoreAndNameSites(TestInfo test) {
        store = createStore();
        prefix = Contracts.nameOf(test).replace("-", "");
    }

    @Test
    void sites_whenAdded_listsEachWithItsTime() {
        store.add(site("a"), T0);
        store.add(site("b"), T0.plusSeconds(5));

        assertEquals(Map.of(site("a"), T0, site("b"), T0.plusSeconds(5)), mine());
    }

    @Test
    void add_whenListedAlready_keepsTheFirstTime() {
        store.add(site("a"), T0);
        store.add(site("a"), T0.plusSeconds(60));

        assertEquals(Map.of(site("a"), T0), mine());
    }

    @Test
    void remove_whenListedOrNot_takesItOffAndSaysWhetherItWasOn() {
        store.add(site("a"), T0);
        store.add(site("b"), T0);

        assertTrue(store.remove(site("a")));
        assertFalse(store.remove(site("a")));
        assertFalse(store.remove(site("never")));
        assertEquals(Map.of(site("b"), T0), mine());
    }

    private SiteKey site(String name) {
        return new SiteKey(name + "." + prefix + ".example");
    }

    private Map<SiteKey, Instant> mine() {
        return store.sites().entrySet().stream().filter(e -> e.getKey().value().endsWith("." + prefix + ".example"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
