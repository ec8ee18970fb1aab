package io.spiderling.core.pipeline.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.change.ChangeState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore.UrlRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which change a URL's record shows for its latest fetch (ADR 18). */
class QueriesChangeTest {

    private static final Instant T1 = Instant.parse("2026-11-28T06:00:00Z");
    private static final Instant T2 = T1.plus(Duration.ofHours(1));
    private static final String HASH = "ab".repeat(32);
    private static final ContentChange CHANGED = new ContentChange(ChangeState.CHANGED, "d2", Optional.of("d1"),
            Optional.of(T1.minus(Duration.ofDays(1))));

    @Test
    void change_whenTheExtractionIsOfTheLatestFetch_isTheOneItRecorded() {
        assertEquals(Optional.of(CHANGED), Queries.change(record(fetch(ItemState.FETCHED, T1), T1)));
    }

    @Test
    void change_whenTheLatestFetchIsStillToBeExtracted_isNotKnownYet() {
        assertEquals(Optional.empty(), Queries.change(record(fetch(ItemState.FETCHED, T2), T1)));
    }

    @Test
    void change_whenTheSiteAnswered304_isUnchangedSinceTheCopyItConfirmed() {
        assertEquals(Optional.of(new ContentChange(ChangeState.UNCHANGED, "d2", Optional.of("d2"), Optional.of(T1))),
                Queries.change(record(fetch(ItemState.NOT_MODIFIED, T2), T1)));
    }

    @Test
    void change_whenTheFetchFailed_isNone() {
        assertEquals(Optional.empty(), Queries.change(record(fetch(ItemState.FAILED, T2), T1)));
    }

    private static FetchRecord fetch(ItemState state, Instant at) {
        return FetchRecord.builder(HASH, "https://example.com/", state, at).build();
    }

    private static UrlRecord record(FetchRecord fetch, Instant extractedFrom) {
        ExtractionRecord extraction = ExtractionRecord.builder().urlHash(HASH).url("https://example.com/")
                .page(PageMetadata.empty()).contentSha256("sha").contentFetchedAt(extractedFrom)
                .extractedAt(extractedFrom).changeDigest(Optional.of("d2")).build();
        return UrlRecord.builder().urlHash(HASH).fetch(Optional.of(fetch)).extraction(Optional.of(extraction))
                .change(Optional.of(CHANGED)).build();
    }
}
