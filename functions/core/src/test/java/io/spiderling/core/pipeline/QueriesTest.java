package io.spiderling.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueriesTest {

    private static final NormalizedUrl URL = NormalizedUrl.parse("http://example.com/b?x=1&y=2");

    private final CallLog log = new CallLog();
    private final InMemoryUrlStore urls = new InMemoryUrlStore(log);
    private final Queries queries = new Queries(UrlNormalizer.create(), new InMemoryBatchStore(log), urls);

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
        urls.recordFetch(new FetchRecord(URL.urlHash(), URL.value(), ItemState.FAILED, Optional.of(404),
                Optional.empty(), 0, false, Optional.empty(), Optional.empty(), Optional.of(URL.value()),
                Instant.parse("2025-03-01T10:00:00Z"), 5, 9, Optional.of("http 404")));

        Queries.UrlLookup lookup = queries.url("  HTTP://EXAMPLE.com:80/a/../b?y=2&x=1#frag ");

        assertEquals(new Queries.UrlLookup.Found(URL, urls.find(URL.urlHash()).orElseThrow()), lookup);
    }
}
