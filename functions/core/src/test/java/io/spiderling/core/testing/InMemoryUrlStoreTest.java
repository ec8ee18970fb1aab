package io.spiderling.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore.UrlRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pipeline tests rely on this fake's staleness rules, so they are pinned here against the port's javadoc. */
class InMemoryUrlStoreTest {

    private static final String HASH = "2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a067";
    private static final Instant T = Instant.parse("2025-03-01T10:00:00Z");

    private final InMemoryUrlStore urls = new InMemoryUrlStore(new CallLog());

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            # case; stored extraction's and stored fetch's content time, seconds after T (empty: none); written
            empty row,                          ,    ,    true
            older extraction stored,            -5,  ,    true
            same content extracted again,       0,   ,    true
            newer extraction stored,            5,   ,    false
            fetch of this content stored,       ,    0,   true
            older fetch stored,                 ,    -5,  true
            newer fetch stored,                 ,    5,   false
            older extraction but newer fetch,   -5,  5,   false
            """)
    void recordExtraction_whenRowHolds_refusesOnlyOlderContent(String name, Long extractedFrom, Long fetchedAt,
            boolean written) {
        if (extractedFrom != null) {
            urls.recordExtraction(extraction("stored", T.plusSeconds(extractedFrom)));
        }
        if (fetchedAt != null) {
            urls.recordFetch(fetch(T.plusSeconds(fetchedAt)));
        }
        Optional<ExtractionRecord> before = urls.find(HASH).flatMap(UrlRecord::extraction);
        ExtractionRecord incoming = extraction("incoming", T);

        assertEquals(written, urls.recordExtraction(incoming));

        assertEquals(written ? Optional.of(incoming) : before, urls.find(HASH).flatMap(UrlRecord::extraction));
    }

    @Test
    void recordFetch_whenExtractionStored_leavesItAlone() {
        ExtractionRecord extraction = extraction("title", T);
        urls.recordExtraction(extraction);

        urls.recordFetch(fetch(T));

        assertEquals(new UrlRecord(HASH, Optional.of(fetch(T)), Optional.of(extraction)), urls.find(HASH).orElseThrow());
    }

    @Test
    void recordFetch_whenNewerFetchStored_keepsTheNewerOne() {
        urls.recordFetch(fetch(T.plusSeconds(5)));

        urls.recordFetch(fetch(T));

        assertEquals(Optional.of(fetch(T.plusSeconds(5))), urls.find(HASH).orElseThrow().fetch());
    }

    private static ExtractionRecord extraction(String title, Instant contentFetchedAt) {
        return new ExtractionRecord(HASH, "https://example.com/", titled(title), "0".repeat(64),
                contentFetchedAt, contentFetchedAt.plusSeconds(1));
    }

    private static PageMetadata titled(String title) {
        return new PageMetadata(title, null, null, null, null, Map.of(), Map.of(), List.of(), List.of(), 0, "UTF-8");
    }

    private static FetchRecord fetch(Instant fetchedAt) {
        return new FetchRecord(HASH, "https://example.com/", ItemState.FETCHED, Optional.of(200), Optional.empty(), 0,
                false, Optional.empty(), Optional.empty(), Optional.empty(), fetchedAt, 1, 2, Optional.empty());
    }
}
