package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.change.ChangeState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.content.MarkdownCopy;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageDirectives;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.extract.StructuredData;
import io.spiderling.core.fetch.Capture;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore.Claim;
import io.spiderling.core.port.UrlStore.UrlRecord;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@link UrlStore}'s javadoc promises, run against every implementation. Implementations may share one store
 * between the tests of a class, so each test works on its own URL (named after the test and its case).
 */
public abstract class UrlStoreContract {

    // Millisecond precision: stores may keep instants as epoch milliseconds.
    protected static final Instant T1 = Instant.parse("2025-03-01T10:00:00.001Z");
    protected static final Instant T2 = T1.plusSeconds(3600);

    protected UrlStore store;
    protected String url;
    protected String urlHash;

    /** A store for one test; it may hold other tests' URLs. */
    protected abstract UrlStore createStore();

    @BeforeEach
    void createStoreAndNameUrl(TestInfo test) {
        store = createStore();
        // Each case of a table test gets a URL of its own too.
        NormalizedUrl normalized = NormalizedUrl.parse("https://example.com/" + Contracts.nameOf(test) + "?case="
                + Integer.toHexString(test.getDisplayName().hashCode()));
        url = normalized.value();
        urlHash = normalized.urlHash();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            # case; stored extraction's and stored fetch's content time, seconds after T1 (empty: none); written
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
            store.recordExtraction(extraction(T1.plusSeconds(extractedFrom), "sha-stored", meta("stored", null)));
        }
        if (fetchedAt != null) {
            store.recordFetch(fullFetch(T1.plusSeconds(fetchedAt), "sha-fetched"));
        }
        Optional<ExtractionRecord> before = store.find(urlHash).flatMap(UrlRecord::extraction);
        ExtractionRecord incoming = extraction(T1, "sha-incoming", meta("incoming", null));

        assertEquals(written, store.recordExtraction(incoming).isPresent());

        assertEquals(written ? Optional.of(incoming) : before, store.find(urlHash).flatMap(UrlRecord::extraction));
    }

    @Test
    void claim_whenBatchesAskInTurn_firstClaimsOthersJoinAndReleaseReturnsEachJoinerOnce() {
        Instant stale = T1.minusSeconds(1800);

        assertEquals(Claim.CLAIMED, store.claim(urlHash, url, "a", T1, stale));
        assertEquals(Claim.JOINED, store.claim(urlHash, url, "b", T1, stale));
        assertEquals(Claim.JOINED, store.claim(urlHash, url, "c", T1, stale));
        assertEquals(Claim.JOINED, store.claim(urlHash, url, "b", T1, stale), "a redelivered join");
        assertEquals(Claim.CLAIMED, store.claim(urlHash, url, "a", T1, stale), "the holder re-claims its own");

        assertEquals(List.of("b", "c"), store.releaseClaim(urlHash).stream().sorted().toList());
        assertEquals(List.of(), store.releaseClaim(urlHash), "released once");
        assertEquals(Claim.CLAIMED, store.claim(urlHash, url, "d", T2, T2.minusSeconds(1800)));
    }

    @Test
    void claimAll_whenSomeUrlsHeldByAnotherBatch_claimsTheRestAndJoinsThose() {
        Instant stale = T1.minusSeconds(1800);
        List<UrlStore.ClaimRequest> requests = IntStream.range(0, 130)
                .mapToObj(i -> NormalizedUrl.parse(url + "&n=" + i))
                .map(u -> new UrlStore.ClaimRequest(u.urlHash(), u.value())).toList();
        store.claim(requests.get(3).urlHash(), requests.get(3).url(), "other", T1, stale);
        store.claim(requests.get(120).urlHash(), requests.get(120).url(), "other", T1, stale);

        List<Claim> claims = store.claimAll(requests, "mine", T1, stale);

        for (int i = 0; i < requests.size(); i++) {
            assertEquals(i == 3 || i == 120 ? Claim.JOINED : Claim.CLAIMED, claims.get(i), "request " + i);
        }
        assertEquals(List.of("mine"), store.releaseClaim(requests.get(3).urlHash()));
        List<Claim> again = store.claimAll(requests, "mine", T1, stale);
        for (int i = 0; i < requests.size(); i++) {
            assertEquals(i == 120 ? Claim.JOINED : Claim.CLAIMED, again.get(i), "a redelivered planning, request " + i);
        }
    }

    @Test
    void recordFetch_whenTheFetchWasCaptured_readsTheCaptureBackAndAnUncapturedFetchRemovesIt() {
        for (var capture : List.of(
                Capture.builder().key("capture/ab/" + "ab".repeat(32)).remoteIp("2001:db8::1").capturedAt(T1)
                        .payloadDigest("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ").truncated(false)
                        .refersToAt(Optional.empty()).build(),
                Capture.builder().key("capture/cd/" + "cd".repeat(32)).remoteIp("192.0.2.1")
                        .capturedAt(T1.plusSeconds(60)).payloadDigest("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ")
                        .truncated(true).refersToAt(Optional.of(T1)).build())) {
            FetchRecord captured = FetchRecord.builder(urlHash, url, ItemState.FETCHED, capture.capturedAt())
                    .httpStatus(200).contentType("text/html").size(1).timeToFirstByteMs(1).totalMs(1)
                    .capture(Optional.of(capture)).build();

            store.recordFetch(captured);

            assertEquals(Optional.of(capture), store.find(urlHash).orElseThrow().fetch().orElseThrow().capture());
        }
        store.recordFetch(FetchRecord.builder(urlHash, url, ItemState.FETCHED, T1.plusSeconds(120)).httpStatus(200)
                .contentType("text/html").size(1).timeToFirstByteMs(1).totalMs(1).build());

        assertEquals(Optional.empty(), store.find(urlHash).orElseThrow().fetch().orElseThrow().capture());
    }

    @Test
    void findAll_whenSomeKnown_returnsThoseWithTheirRecords() {
        Instant stale = T1.minusSeconds(1800);
        List<String> hashes = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            NormalizedUrl u = NormalizedUrl.parse(url + "&f=" + i);
            hashes.add(u.urlHash());
            if (i % 3 == 0) {
                store.recordFetch(FetchRecord.builder(u.urlHash(), u.value(), ItemState.FETCHED, T1).httpStatus(200)
                        .contentType("text/html").size(1).timeToFirstByteMs(1).totalMs(1).build());
            }
            store.claim(u.urlHash(), u.value(), "a", T1, stale); // a claim is no row of its own
        }

        var found = store.findAll(hashes);

        assertEquals(40, found.size());
        assertTrue(found.containsKey(hashes.get(0)));
        assertFalse(found.containsKey(hashes.get(1)));
    }

    @Test
    void claim_whenHolderIsStale_takesOverAndKeepsTheWaiters() {
        store.claim(urlHash, url, "lost", T1, T1.minusSeconds(1800));
        store.claim(urlHash, url, "waiting", T1, T1.minusSeconds(1800));

        assertEquals(Claim.CLAIMED, store.claim(urlHash, url, "new", T2, T2.minusSeconds(1800)));

        assertEquals(List.of("waiting"), store.releaseClaim(urlHash));
    }

    @Test
    void releaseClaim_whenNothingClaimed_returnsEmptyAndCreatesNoRow() {
        assertEquals(List.of(), store.releaseClaim(urlHash));

        assertEquals(Optional.empty(), store.find(urlHash));
    }

    @Test
    void find_whenUnknown_returnsEmpty() {
        assertEquals(Optional.empty(), store.find(urlHash));
    }

    @Test
    void find_whenFetchRecordedWithEveryField_returnsItAll() {
        FetchRecord fetch = fullFetch(T1, "sha-1");

        store.recordFetch(fetch);

        assertEquals(new UrlRecord(urlHash, Optional.of(fetch), Optional.empty()), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void find_whenFetchRecordedWithoutOptionalFields_returnsThemAbsent() {
        FetchRecord fetch = failedFetch(T1);

        store.recordFetch(fetch);

        assertEquals(new UrlRecord(urlHash, Optional.of(fetch), Optional.empty()), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordFetch_whenNewerFetchLacksOptionalFields_removesTheOldValues() {
        store.recordFetch(fullFetch(T1, "sha-1"));
        FetchRecord failed = failedFetch(T2);

        store.recordFetch(failed);

        assertEquals(Optional.of(failed), store.find(urlHash).orElseThrow().fetch());
    }

    @Test
    void recordFetch_whenOlderThanStored_doesNotOverwrite() {
        FetchRecord newer = fullFetch(T2, "sha-2");
        store.recordFetch(newer);

        store.recordFetch(failedFetch(T1));

        assertEquals(Optional.of(newer), store.find(urlHash).orElseThrow().fetch());
    }

    @Test
    void recordFetch_whenSameFetchRedelivered_keepsIt() {
        FetchRecord fetch = fullFetch(T1, "sha-1");
        store.recordFetch(fetch);

        store.recordFetch(fetch);

        assertEquals(Optional.of(fetch), store.find(urlHash).orElseThrow().fetch());
    }

    @Test
    void recordExtraction_whenNoRowYet_createsRowWithExtractionOnly() {
        ExtractionRecord extraction = extraction(T1, "sha-1", meta("Title", "Description"));

        assertTrue(store.recordExtraction(extraction).isPresent());

        assertEquals(new UrlRecord(urlHash, Optional.empty(), Optional.of(extraction)), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordFetch_whenExtractionOfSameContentCameFirst_keepsTheExtraction() {
        ExtractionRecord extraction = extraction(T1, "sha-1", meta("Title", "Description"));
        store.recordExtraction(extraction);
        FetchRecord fetch = fullFetch(T1, "sha-1");

        store.recordFetch(fetch);

        assertEquals(new UrlRecord(urlHash, Optional.of(fetch), Optional.of(extraction)), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordExtraction_whenFetchAlreadyStored_addsExtractionAndKeepsFetch() {
        FetchRecord fetch = fullFetch(T1, "sha-1");
        store.recordFetch(fetch);
        ExtractionRecord extraction = extraction(T1, "sha-1", meta(null, "Only a description"));

        assertTrue(store.recordExtraction(extraction).isPresent());

        assertEquals(new UrlRecord(urlHash, Optional.of(fetch), Optional.of(extraction)), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordExtraction_whenContentOlderThanStoredFetch_returnsFalseAndKeepsNewerData() {
        FetchRecord fetch = fullFetch(T2, "sha-2");
        store.recordFetch(fetch);
        ExtractionRecord current = extraction(T2, "sha-2", meta("New", "new"));
        store.recordExtraction(current);

        assertFalse(store.recordExtraction(extraction(T1, "sha-1", meta("Old", "old"))).isPresent());

        assertEquals(new UrlRecord(urlHash, Optional.of(fetch), Optional.of(current)), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordExtraction_whenContentOlderThanStoredFetchAndNoExtractionYet_returnsFalse() {
        FetchRecord fetch = fullFetch(T2, "sha-2");
        store.recordFetch(fetch);

        assertFalse(store.recordExtraction(extraction(T1, "sha-1", meta("Old", "old"))).isPresent());

        assertEquals(new UrlRecord(urlHash, Optional.of(fetch), Optional.empty()), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordExtraction_whenContentOlderThanStoredExtraction_returnsFalseAndKeepsNewerData() {
        // No fetch row: only the stored extraction's content time can refuse the write.
        ExtractionRecord newer = extraction(T2, "sha-2", meta("New", "new"));
        store.recordExtraction(newer);

        assertFalse(store.recordExtraction(extraction(T1, "sha-1", meta("Old", null))).isPresent());

        assertEquals(new UrlRecord(urlHash, Optional.empty(), Optional.of(newer)), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordExtraction_whenSameContentAgain_returnsTrueWithSameData() {
        ExtractionRecord extraction = extraction(T1, "sha-1", meta("Title", null));
        store.recordExtraction(extraction);

        assertTrue(store.recordExtraction(extraction).isPresent());

        assertEquals(new UrlRecord(urlHash, Optional.empty(), Optional.of(extraction)), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordExtraction_whenContentNewerThanStoredFetch_isAccepted() {
        // The S3 event of a newer fetch can beat that fetch's metadata write. The stored fetch failed, so any fetch
        // field the extraction touched would show.
        FetchRecord fetch = failedFetch(T1);
        store.recordFetch(fetch);
        ExtractionRecord newer = extraction(T2, "sha-2", meta("Newer", null));

        assertTrue(store.recordExtraction(newer).isPresent());

        assertEquals(new UrlRecord(urlHash, Optional.of(fetch), Optional.of(newer)), withoutChange(store.find(urlHash).orElseThrow()));
    }

    @Test
    void recordExtraction_whenNewerContentDropsAField_removesTheOldValue() {
        store.recordExtraction(extraction(T1, "sha-1", meta("Title", "Description")));
        ExtractionRecord newer = extraction(T2, "sha-2", PageMetadata.empty());

        assertTrue(store.recordExtraction(newer).isPresent());

        assertEquals(Optional.of(newer), store.find(urlHash).orElseThrow().extraction());
    }

    private FetchRecord fullFetch(Instant fetchedAt, String sha) {
        return FetchRecord.builder(urlHash, url, ItemState.FETCHED, fetchedAt).httpStatus(200)
                .contentType("text/html; charset=utf-8").size(12_345).truncated(true).contentKey("content/" + urlHash)
                .contentSha256(sha).finalUrl("https://example.com/final").requestUrl("https://example.com/?b=2&a=1")
                .timeToFirstByteMs(120).totalMs(480).build();
    }

    private FetchRecord failedFetch(Instant fetchedAt) {
        return FetchRecord.builder(urlHash, url, ItemState.FAILED, fetchedAt).totalMs(10_000)
                .error("connect timed out").build();
    }

    @Test
    void recordExtraction_whenNewerContentHasNoDirectives_removesTheOldOnes() {
        store.recordExtraction(extraction(T1, "sha-1", PageMetadata.builder().directives(directives()).build()));
        ExtractionRecord newer = extraction(T2, "sha-2", PageMetadata.empty());

        assertTrue(store.recordExtraction(newer).isPresent());

        assertEquals(PageDirectives.none(), store.find(urlHash).orElseThrow().extraction().orElseThrow().page()
                .directives());
    }

    /** Every part of the directives, the date both readable and as written. */
    private static PageDirectives directives() {
        return PageDirectives.builder().directive(PageDirectives.Directive.NOARCHIVE)
                .directive(PageDirectives.Directive.NOINDEX)
                .unavailableAfter(PageDirectives.UnavailableAfter.of("25 Jun 2030 15:00:00 PST"))
                .source(PageDirectives.Source.META).other("max-snippet:20").other("noimageindex").build();
    }

    /** The row without its change, for the tests of what else it holds. */
    private static UrlRecord withoutChange(UrlRecord r) {
        return UrlRecord.builder().urlHash(r.urlHash()).fetch(r.fetch()).extraction(r.extraction())
                .redirectsTo(r.redirectsTo()).fields(r.fields()).fieldsVersion(r.fieldsVersion()).linked(r.linked())
                .build();
    }

    private ExtractionRecord extraction(Instant contentFetchedAt, String sha, PageMetadata page, String digest) {
        return ExtractionRecord.builder().urlHash(urlHash).url(url).page(page).contentSha256(sha)
                .contentFetchedAt(contentFetchedAt).extractedAt(contentFetchedAt.plusSeconds(2))
                .changeDigest(Optional.of(digest)).build();
    }

    @Test
    void recordExtraction_whenContentComesNewThenChangedThenTheSame_recordsEachChangeAndKeepsItOnARetry() {
        Instant t3 = T2.plusSeconds(3600);
        ContentChange first = store.recordExtraction(extraction(T1, "sha-1", meta("A", null), "d1")).orElseThrow();
        assertEquals(new ContentChange(ChangeState.NEW, "d1", Optional.empty(), Optional.empty()), first);
        assertEquals(Optional.of(first), store.recordExtraction(extraction(T1, "sha-1", meta("A", null), "d1")),
                "a retry of the first extraction answers as it did");

        ContentChange second = store.recordExtraction(extraction(T2, "sha-2", meta("B", null), "d2")).orElseThrow();
        assertEquals(new ContentChange(ChangeState.CHANGED, "d2", Optional.of("d1"), Optional.of(T1)), second);
        assertEquals(Optional.of(second), store.recordExtraction(extraction(T2, "sha-2", meta("B", null), "d2")),
                "a retry after the write does not compare the content with itself");
        assertEquals(Optional.of(second), store.find(urlHash).orElseThrow().change());

        ContentChange third = store.recordExtraction(extraction(t3, "sha-3", meta("B", null), "d2")).orElseThrow();
        assertEquals(new ContentChange(ChangeState.UNCHANGED, "d2", Optional.of("d2"), Optional.of(T2)), third);
        assertEquals(Optional.empty(), store.recordExtraction(extraction(T2, "sha-2", meta("B", null), "d2")),
                "an extraction of older content is refused");
        assertEquals(Optional.of(third), store.find(urlHash).orElseThrow().change());
        assertEquals(Optional.of("d2"), store.find(urlHash).orElseThrow().extraction().orElseThrow().changeDigest());
    }

    @Test
    void requestChangeNotices_whenNotExtractedYet_keepsTheBatchesForTheExtractionToRead() {
        store.recordFetch(fullFetch(T2, "sha-2"));

        assertEquals(Optional.empty(), store.requestChangeNotices(urlHash, T2, "sha-2", Set.of("b1")));
        assertEquals(Optional.empty(), store.requestChangeNotices(urlHash, T2, "sha-2", Set.of("b2", "b1")));

        assertEquals(Set.of("b1", "b2"), store.changeNoticeRequests(urlHash, T2));
        assertEquals(Set.of(), store.changeNoticeRequests(urlHash, T1), "another fetch's content asked for none");
        store.recordExtraction(extraction(T2, "sha-2", meta("B", null), "d2"));
        assertEquals(Set.of("b1", "b2"), store.changeNoticeRequests(urlHash, T2), "the extraction leaves them");
    }

    @Test
    void requestChangeNotices_whenTheExtractionCameFirst_answersTheChangeItRecorded() {
        store.recordExtraction(extraction(T1, "sha-1", meta("A", null), "d1"));
        store.recordFetch(fullFetch(T2, "sha-2"));
        ContentChange changed = store.recordExtraction(extraction(T2, "sha-2", meta("B", null), "d2")).orElseThrow();

        Optional<ContentChange> answered = store.requestChangeNotices(urlHash, T2, "sha-2", Set.of("b1"));

        assertEquals(ChangeState.CHANGED, changed.state());
        assertEquals(Optional.of(changed), answered);
        assertEquals(Optional.empty(), store.requestChangeNotices(urlHash, T2, "sha-other", Set.of("b2")),
                "the change of other bytes is not this content's");
    }

    @Test
    void requestChangeNotices_whenTheRowHoldsANewerFetch_recordsNothing() {
        store.recordFetch(fullFetch(T2, "sha-2"));

        assertEquals(Optional.empty(), store.requestChangeNotices(urlHash, T1, "sha-1", Set.of("b1")));

        assertEquals(Set.of(), store.changeNoticeRequests(urlHash, T1));
        assertEquals(Set.of(), store.changeNoticeRequests(urlHash, T2));
    }

    @Test
    void requestChangeNotices_whenANewerFetchAsks_replacesTheOlderFetchsBatches() {
        store.recordFetch(fullFetch(T1, "sha-1"));
        store.requestChangeNotices(urlHash, T1, "sha-1", Set.of("b1"));
        store.recordFetch(fullFetch(T2, "sha-2"));

        store.requestChangeNotices(urlHash, T2, "sha-2", Set.of("b2"));

        assertEquals(Set.of("b2"), store.changeNoticeRequests(urlHash, T2));
        assertEquals(Set.of(), store.changeNoticeRequests(urlHash, T1));
    }

    @Test
    void requestChangeNotices_whenTheFetchHoldsTheMost_recordsNoMore() {
        store.recordFetch(fullFetch(T1, "sha-1"));
        Set<String> many = IntStream.range(0, UrlStore.MAX_CHANGE_REQUESTS).mapToObj(i -> "b" + i)
                .collect(java.util.stream.Collectors.toSet());
        store.requestChangeNotices(urlHash, T1, "sha-1", many);

        store.requestChangeNotices(urlHash, T1, "sha-1", Set.of("late"));

        assertEquals(many, store.changeNoticeRequests(urlHash, T1));
    }

    @Test
    void changeNoticeRequests_whenNoRow_isEmpty() {
        assertEquals(Set.of(), store.changeNoticeRequests(urlHash, T1));
        assertEquals(Optional.empty(), store.requestChangeNotices(urlHash, T1, "sha-1", Set.of("b1")));
        assertEquals(Optional.empty(), store.find(urlHash), "a request creates no row");
    }

    @Test
    void recordExtraction_whenTheRecordHasNoChangeDigest_comparesByTheContentHash() {
        ExtractionRecord plain = ExtractionRecord.builder().urlHash(urlHash).url(url).page(meta("A", null))
                .contentSha256("sha-1").contentFetchedAt(T1).extractedAt(T1).build();

        assertEquals(Optional.of(new ContentChange(ChangeState.NEW, "sha-1", Optional.empty(), Optional.empty())),
                store.recordExtraction(plain));
    }

    private ExtractionRecord extraction(Instant contentFetchedAt, String sha, PageMetadata page) {
        return ExtractionRecord.builder().urlHash(urlHash).url(url).page(page).contentSha256(sha)
                .contentFetchedAt(contentFetchedAt).extractedAt(contentFetchedAt.plusSeconds(2))
                .changeDigest(Optional.of("digest of " + sha)).build();
    }

    private static PageMetadata meta(String title, String description) {
        return PageMetadata.builder().title(title).description(description).language(null).canonicalHref(null)
                .image(null).openGraph(Map.of()).twitter(Map.of()).structuredData(List.of()).outlinks(List.of())
                .outlinksFound(0).encoding(null).build();
    }

    @Test
    void recordExtraction_whenEverythingExtracted_readsBackTheSame() {
        PageMetadata rich = PageMetadata.builder().title("T").description("D").language("en-GB")
                .canonicalHref("https://example.com/c").image("https://example.com/i.jpg")
                .openGraph(Map.of("title", "OG", "type", "product")).twitter(Map.of("card", "summary"))
                .structuredData(List.of(new StructuredData("Product",
                        Map.of("name", "Shoe", "price", "9.99", "priceCurrency", "EUR"))))
                .outlinks(List.of("https://example.com/a", "https://example.org/b")).outlinksFound(7)
                .encoding("windows-1252").directives(directives()).build();
        ExtractionRecord record = ExtractionRecord.builder().urlHash(urlHash).url("https://example.com/").page(rich)
                .contentSha256("sha-1").contentFetchedAt(T1).extractedAt(T1.plusSeconds(1))
                .canonicalUrl(Optional.of("https://example.com/c")).source(Optional.of("https://example.com/x"))
                .build();

        assertTrue(store.recordExtraction(record).isPresent());

        ExtractionRecord back = store.find(urlHash).orElseThrow().extraction().orElseThrow();
        assertEquals(record.page().structuredData(), back.page().structuredData());
        assertEquals(new TreeMap<>(rich.openGraph()), new TreeMap<>(back.page().openGraph()));
        assertEquals(rich.outlinks(), back.page().outlinks());
        assertEquals(7, back.page().outlinksFound());
        assertEquals("windows-1252", back.page().encoding());
        assertEquals(Optional.of("https://example.com/c"), back.canonicalUrl());
        assertEquals(Optional.of("https://example.com/x"), back.source());
        assertEquals(Optional.of("https://example.com/c"), store.find(urlHash).orElseThrow().aliasOf());
    }

    @Test
    void recordExtraction_whenANewerFetchHoldsTheSameBytes_stillTakesTheLateExtraction() {
        store.recordFetch(fullFetch(T2, "sha-1")); // a 304 at T2 confirming the bytes fetched at T1

        assertTrue(store.recordExtraction(extraction(T1, "sha-1", meta("Late", null))).isPresent());
    }

    @Test
    void recordRedirect_whenNoNewerOwnFetch_pointsReadsAtTheTargetUntilTheUrlIsFetchedItself() {
        store.recordRedirect(urlHash, "https://example.com/", "https://example.com/moved", T1);
        assertEquals(Optional.of("https://example.com/moved"), store.find(urlHash).orElseThrow().redirectsTo());

        store.recordRedirect(urlHash, "https://example.com/", "https://example.com/older", T1.minusSeconds(5));
        assertEquals(Optional.of("https://example.com/moved"), store.find(urlHash).orElseThrow().redirectsTo(),
                "an older alias does not replace a newer one");

        store.recordFetch(fullFetch(T2, "sha-2"));
        assertEquals(Optional.empty(), store.find(urlHash).orElseThrow().redirectsTo(),
                "its own newer fetch answers for it again");
        store.recordRedirect(urlHash, "https://example.com/", "https://example.com/moved", T1);
        assertEquals(Optional.empty(), store.find(urlHash).orElseThrow().redirectsTo());
    }

    @Test
    void replaceFields_whenVersionMatches_writesAndBumpsItElseRefuses() {
        assertTrue(store.replaceFields(urlHash, "https://example.com/", Map.of("a", "1"), 0));
        assertFalse(store.replaceFields(urlHash, "https://example.com/", Map.of("a", "2"), 0));
        assertTrue(store.replaceFields(urlHash, "https://example.com/", Map.of("a", "3", "b", "[]"), 1));

        UrlRecord row = store.find(urlHash).orElseThrow();
        assertEquals(Map.of("a", "3", "b", "[]"), row.fields());
        assertEquals(2, row.fieldsVersion());
        store.recordExtraction(extraction(T1, "sha-1", meta("T", null)));
        assertEquals(row.fields(), store.find(urlHash).orElseThrow().fields(), "extraction leaves them");
    }

    @Test
    void recordLinked_whenExtractionIsStillTheOneIndexed_recordsTheLinks() {
        store.recordExtraction(extraction(T2, "sha-2", meta("T", null)));

        store.recordLinked(urlHash, List.of("https://example.com/a"), T1);
        assertEquals(List.of(), store.find(urlHash).orElseThrow().linked(), "a stale extraction's links");
        store.recordLinked(urlHash, List.of("https://example.com/b"), T2);
        assertEquals(List.of("https://example.com/b"), store.find(urlHash).orElseThrow().linked());
    }

    @Test
    void recordLinked_whenTheNewerExtractionHasNoLinks_recordsNone() {
        store.recordExtraction(extraction(T1, "sha-1", meta("T", null)));
        store.recordLinked(urlHash, List.of("https://example.com/a"), T1);

        store.recordLinked(urlHash, List.of(), T1);

        assertEquals(List.of(), store.find(urlHash).orElseThrow().linked());
    }

    @Test
    void recordExtraction_whenManyLinks_readsThemBackInOrderWithRepeatsAndAnySpelling() {
        List<String> links = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            links.add("https://example.com/section-" + (i % 7) + "/article-" + i + "?ref=home#top");
        }
        links.add("https://example.com/section-0/article-0?ref=home#top");
        links.add("https://例え.jp/パス?q=ü");
        links.add("https://example.com/" + "x".repeat(2_000));
        PageMetadata page = PageMetadata.builder().title("T").description(null).language(null).canonicalHref(null)
                .image(null).openGraph(Map.of()).twitter(Map.of()).structuredData(List.of()).outlinks(links)
                .outlinksFound(links.size()).encoding(null).build();

        assertTrue(store.recordExtraction(extraction(T1, "sha-1", page)).isPresent());
        store.recordLinked(urlHash, links, T1);

        UrlStore.UrlRecord back = store.find(urlHash).orElseThrow();
        assertEquals(links, back.extraction().orElseThrow().page().outlinks());
        assertEquals(links, back.linked());
    }

    @Test
    void recordMarkdown_whenTheRowHoldsThatContent_isReadBackAsCurrent() {
        store.recordExtraction(extraction(T1, "sha-1", meta("T", null)));
        MarkdownCopy markdown = new MarkdownCopy("a".repeat(64), 1_234, "sha-1", Optional.of("Title"),
                Optional.of("en-gb"));

        assertTrue(store.recordMarkdown(urlHash, markdown));

        UrlStore.UrlRecord back = store.find(urlHash).orElseThrow();
        assertEquals(Optional.of(markdown), back.markdown());
        assertEquals(Optional.of(markdown), back.currentMarkdown());
    }

    @Test
    void recordMarkdown_whenTheRowHoldsOtherContentOrNone_isRefused() {
        MarkdownCopy ofSha1 = new MarkdownCopy("b".repeat(64), 10, "sha-1", Optional.empty(), Optional.empty());
        assertFalse(store.recordMarkdown(urlHash, ofSha1), "no extraction yet");

        store.recordExtraction(extraction(T2, "sha-2", meta("T", null)));
        assertFalse(store.recordMarkdown(urlHash, ofSha1), "the row's content is another");
        assertEquals(Optional.empty(), store.find(urlHash).orElseThrow().markdown());
    }

    @Test
    void currentMarkdown_whenNewerContentIsExtracted_isEmptyThoughTheOldIsKept() {
        store.recordExtraction(extraction(T1, "sha-1", meta("T", null)));
        MarkdownCopy ofSha1 = new MarkdownCopy("c".repeat(64), 10, "sha-1", Optional.empty(), Optional.empty());
        store.recordMarkdown(urlHash, ofSha1);

        store.recordExtraction(extraction(T2, "sha-2", meta("T", null)));

        UrlStore.UrlRecord back = store.find(urlHash).orElseThrow();
        assertEquals(Optional.of(ofSha1), back.markdown());
        assertEquals(Optional.empty(), back.currentMarkdown());
    }

    @Test
    void recordExtraction_withMarkdown_recordsBothInOneWriteAndAnotherWithoutLeavesIt() {
        MarkdownCopy markdown = new MarkdownCopy("f".repeat(64), 99, "sha-1", Optional.of("T"), Optional.empty());

        assertTrue(store.recordExtraction(extraction(T1, "sha-1", meta("T", null)), Optional.of(markdown))
                .isPresent());
        assertEquals(Optional.of(markdown), store.find(urlHash).orElseThrow().currentMarkdown());

        store.recordExtraction(extraction(T1, "sha-1", meta("T", null))); // an event that did not ask for it
        assertEquals(Optional.of(markdown), store.find(urlHash).orElseThrow().currentMarkdown());
    }

    @Test
    void recordExtraction_withMarkdownWhenRefused_recordsNeither() {
        store.recordExtraction(extraction(T2, "sha-2", meta("New", null)));
        MarkdownCopy old = new MarkdownCopy("0".repeat(64), 9, "sha-1", Optional.empty(), Optional.empty());

        assertFalse(store.recordExtraction(extraction(T1, "sha-1", meta("Old", null)), Optional.of(old)).isPresent());

        assertEquals(Optional.empty(), store.find(urlHash).orElseThrow().markdown());
    }
}
