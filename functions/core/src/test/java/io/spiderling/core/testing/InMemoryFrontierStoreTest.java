package io.spiderling.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The frontier tests rely on this fake's release rule, so it is pinned here against the port's javadoc. */
class InMemoryFrontierStoreTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    private final InMemoryFrontierStore store = new InMemoryFrontierStore();

    @Test
    void release_whenTheCopyReadWasSentAndCameBackSince_returnsFalseAndCountsNothing() {
        NormalizedUrl url = NormalizedUrl.parse("https://www.stale.example/page");
        SiteKey site = url.siteKey();
        store.park(new FrontierEntry("batch-1", url, 0, 1, NOW));
        FrontierEntry readByTheSweep = store.due(site, NOW, 1).getFirst();
        assertTrue(store.release(store.due(site, NOW, 1).getFirst(), NOW, 5));
        assertTrue(store.requeue(site, readByTheSweep.batchId(), readByTheSweep.urlHash(), 1, NOW));

        assertFalse(store.release(readByTheSweep, NOW, 5), "a stale copy would re-send a deduplication id just seen");

        assertEquals(0, store.released(site));
        FrontierEntry current = store.due(site, NOW, 1).getFirst();
        assertEquals(readByTheSweep.send() + 1, current.send());
        assertEquals(List.of(current), store.releaseAll(site, List.of(current), NOW, 5));
    }
}
