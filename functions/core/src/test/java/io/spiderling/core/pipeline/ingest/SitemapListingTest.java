package io.spiderling.core.pipeline.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.batch.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A read sitemap's list, cut into chunks for the planners and read back. */
class SitemapListingTest {

    @Test
    void chunk_whenReadBack_givesEachEntryAsWritten() {
        List<SitemapListing.Entry> entries = List.of(
                new SitemapListing.Entry.Listed("https://example.com/a",
                        Optional.of(Instant.parse("2026-11-01T10:00:00Z"))),
                new SitemapListing.Entry.Listed("https://example.com/b?q=\"x\"", Optional.empty()),
                new SitemapListing.Entry.Refused("https://other.example/", Reason.SITEMAP_OTHER_SITE, "listed by …"));

        assertEquals(entries, SitemapListing.read(SitemapListing.chunk(entries, 0)));
    }

    @Test
    void chunk_whenTheListIsLongerThanAChunk_cutsItAtEveryChunksWorth() {
        List<SitemapListing.Entry> entries = new ArrayList<>();
        for (int i = 0; i < SitemapListing.ENTRIES_PER_CHUNK + 3; i++) {
            entries.add(new SitemapListing.Entry.Listed("https://example.com/p" + i, Optional.empty()));
        }

        assertEquals(2, SitemapListing.chunkCount(entries.size()));
        assertEquals(1, SitemapListing.chunkCount(0), "an empty list is one empty chunk, so it is planned too");
        assertEquals(SitemapListing.ENTRIES_PER_CHUNK, SitemapListing.read(SitemapListing.chunk(entries, 0)).size());
        assertEquals(entries.subList(SitemapListing.ENTRIES_PER_CHUNK, entries.size()),
                SitemapListing.read(SitemapListing.chunk(entries, 1)));
    }

    @Test
    void read_whenALineIsNotTheListings_isRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> SitemapListing.read("{\"href\":\"x\"}\n".getBytes(StandardCharsets.UTF_8)));
        assertThrows(IllegalArgumentException.class,
                () -> SitemapListing.read("{\"url\":\"x\",\"reason\":\"nope\"}\n".getBytes(StandardCharsets.UTF_8)));
        assertThrows(IllegalArgumentException.class,
                () -> SitemapListing.read("not json\n".getBytes(StandardCharsets.UTF_8)));
    }
}
