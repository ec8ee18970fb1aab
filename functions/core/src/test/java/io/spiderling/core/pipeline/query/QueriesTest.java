package io.spiderling.core.pipeline.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageDirectives;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryBlobStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueriesTest {

    private static final NormalizedUrl URL = NormalizedUrl.parse("http://example.com/b?x=1&y=2");

    private final CallLog log = new CallLog();
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final InMemoryBlobStore blobs = new InMemoryBlobStore(log);
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final Queries queries = Queries.builder().normalizer(UrlNormalizer.create()).headers(batches)
            .items(batches).urls(urls).blobs(blobs).build();

    @Test
    void url_whenInvalid_returnsInvalidWithTheNormalizersReason() {
        assertEquals(new Queries.UrlLookup.Invalid("unsupported scheme: ftp"), queries.url("ftp://example.com/b"));
    }

    @Test
    void url_whenNeverSeen_returnsNotFoundWithTheNormalizedUrl() {
        assertEquals(new Queries.UrlLookup.NotFound(URL), queries.url("HTTP://Example.com/b?y=2&x=1"));
    }

    @Test
    void url_whenStoredUnderAnotherSpelling_findsIt() {
        urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FAILED,
                Instant.parse("2025-03-01T10:00:00Z")).httpStatus(404).finalUrl(URL.value()).timeToFirstByteMs(5)
                .totalMs(9).error("http 404").build());

        Queries.UrlLookup lookup = queries.url("  HTTP://EXAMPLE.com:80/a/../b?y=2&x=1#frag ");

        assertEquals(new Queries.UrlLookup.Found(URL, urls.find(URL.urlHash()).orElseThrow()), lookup);
    }

    private static final Instant AT = Instant.parse("2025-03-01T10:00:00Z");
    private static final String SHA = "ab".repeat(32);

    private static FetchRecord fetched(NormalizedUrl url, Instant at) {
        return FetchRecord.builder(url.urlHash(), url.value(), ItemState.FETCHED, at).httpStatus(200)
                .contentType("text/html").size(10).contentKey(BucketKeys.content(SHA)).contentSha256(SHA)
                .finalUrl(url.value()).timeToFirstByteMs(5).totalMs(9).build();
    }

    @Test
    void url_whenItRedirected_answersWithTheTargetsRecordOneHopAway() {
        NormalizedUrl target = NormalizedUrl.parse("http://example.com/landing");
        urls.recordFetch(fetched(target, AT));
        urls.recordRedirect(URL.urlHash(), URL.value(), target.value(), AT);

        var found = assertInstanceOf(Queries.UrlLookup.Found.class, queries.url(URL.value()));

        assertEquals(target.urlHash(), found.record().urlHash());
        assertEquals(target.value(), found.resolvedUrl());
        assertEquals(URL, found.url());
    }

    @Test
    void url_whenAliasTargetIsItselfAnAlias_stopsAfterOneHop() {
        NormalizedUrl middle = NormalizedUrl.parse("http://example.com/middle");
        NormalizedUrl last = NormalizedUrl.parse("http://example.com/last");
        urls.recordFetch(fetched(middle, AT));
        urls.recordRedirect(middle.urlHash(), middle.value(), last.value(), AT.plusSeconds(1));
        urls.recordFetch(fetched(last, AT));
        urls.recordRedirect(URL.urlHash(), URL.value(), middle.value(), AT);

        var found = assertInstanceOf(Queries.UrlLookup.Found.class, queries.url(URL.value()));

        assertEquals(middle.urlHash(), found.record().urlHash());
    }

    @Test
    void url_whenAliasTargetUnknown_answersWithTheUrlsOwnRowOrNotFound() {
        urls.recordRedirect(URL.urlHash(), URL.value(), "http://example.com/nowhere", AT);

        assertEquals(new Queries.UrlLookup.NotFound(URL), queries.url(URL.value()));
    }

    @Test
    void directives_whenHeaderAndMetaBothSpeak_answersTheirUnionForTheAgent() {
        urls.recordFetch(fetched(URL, AT).toBuilder()
                .headers(Map.of("x-robots-tag", "noarchive, googlebot: noindex, crawlbot: nosnippet")).build());
        urls.recordExtraction(ExtractionRecord.builder().urlHash(URL.urlHash()).url(URL.value())
                .page(PageMetadata.builder().directives(PageDirectives.builder()
                        .directive(PageDirectives.Directive.NOFOLLOW).source(PageDirectives.Source.META).build())
                        .build())
                .contentSha256(SHA).contentFetchedAt(AT).extractedAt(AT.plusSeconds(1)).build());
        Queries forCrawlbot = Queries.builder().normalizer(UrlNormalizer.create()).headers(batches).items(batches)
                .urls(urls).blobs(blobs).robotsAgent("crawlbot").build();
        UrlStore.UrlRecord record = urls.find(URL.urlHash()).orElseThrow();

        PageDirectives ours = queries.directives(record);
        PageDirectives crawlbots = forCrawlbot.directives(record);

        assertEquals(Set.of(PageDirectives.Directive.NOARCHIVE, PageDirectives.Directive.NOFOLLOW), ours.directives());
        assertEquals(Set.of(PageDirectives.Source.HEADER, PageDirectives.Source.META), ours.sources());
        assertEquals(Set.of(PageDirectives.Directive.NOARCHIVE, PageDirectives.Directive.NOSNIPPET,
                PageDirectives.Directive.NOFOLLOW), crawlbots.directives());
    }

    @Test
    void directives_whenNeitherSpeaks_areNone() {
        urls.recordFetch(fetched(URL, AT));

        assertEquals(PageDirectives.none(), queries.directives(urls.find(URL.urlHash()).orElseThrow()));
    }

    @Test
    void urls_whenSeveral_answersEachInOrder() {
        urls.recordFetch(fetched(URL, AT));

        var lookups = queries.urls(List.of("ftp://x", URL.value(), "http://example.com/unknown"));

        assertInstanceOf(Queries.UrlLookup.Invalid.class, lookups.get(0));
        assertInstanceOf(Queries.UrlLookup.Found.class, lookups.get(1));
        assertInstanceOf(Queries.UrlLookup.NotFound.class, lookups.get(2));
    }

    @Test
    void urls_whenMoreThan100_throws() {
        assertThrows(IllegalArgumentException.class, () -> queries.urls(Collections.nCopies(101, URL.value())));
        assertThrows(IllegalArgumentException.class, () -> queries.urls(List.of()));
    }

    @Test
    void content_whenFetched_presignsItsContentKey() {
        urls.recordFetch(fetched(URL, AT));

        var link = assertInstanceOf(Queries.ContentLink.Link.class, queries.content(URL.value(),
                Duration.ofMinutes(5), AT));

        assertTrue(link.uri().toString().contains(BucketKeys.content(SHA)), link.uri().toString());
        assertEquals(AT.plus(Duration.ofMinutes(5)), link.expiresAt());
    }

    @Test
    void content_whenFailedWithoutBody_saysNoContent() {
        urls.recordFetch(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FAILED, AT).httpStatus(404)
                .finalUrl(URL.value()).timeToFirstByteMs(5).totalMs(9).error("http 404").build());

        assertEquals(new Queries.ContentLink.NoContent(URL), queries.content(URL.value(), Duration.ofMinutes(5), AT));
    }
}
