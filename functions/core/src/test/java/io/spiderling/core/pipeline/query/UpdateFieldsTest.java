package io.spiderling.core.pipeline.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.DelegatingUrlStore;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UpdateFieldsTest {

    private static final NormalizedUrl URL = NormalizedUrl.parse("http://example.com/a");
    private static final Instant AT = Instant.parse("2025-03-01T10:00:00Z");

    private final InMemoryUrlStore urls = new InMemoryUrlStore(new CallLog());
    private final UpdateFields fields = new UpdateFields(UrlNormalizer.create(), urls);

    @Test
    void patch_whenAddedThenChanged_mergesNamedFieldsAndRemovesNulls() {
        fields.patch(URL.value(), Map.of("team", Optional.of("\"search\""), "score", Optional.of("7")));

        var result = fields.patch("HTTP://EXAMPLE.COM/a", Map.of("score", Optional.of("8"), "team", Optional.empty(),
                "tags", Optional.of("[\"a\",\"b\"]")));

        var updated = assertInstanceOf(UpdateFields.Result.Updated.class, result);
        assertEquals(Map.of("score", "8", "tags", "[\"a\",\"b\"]"), updated.fields());
        assertEquals(updated.fields(), urls.find(URL.urlHash()).orElseThrow().fields());
        assertEquals(2, urls.find(URL.urlHash()).orElseThrow().fieldsVersion());
    }

    @Test
    void patch_whenUrlIsAnAlias_writesToTheCanonicalRecord() {
        NormalizedUrl target = NormalizedUrl.parse("http://example.com/landing");
        urls.recordFetch(FetchRecord.builder(target.urlHash(), target.value(), ItemState.FETCHED, AT).httpStatus(200)
                .contentType("text/html").size(1).timeToFirstByteMs(1).totalMs(1).build());
        urls.recordRedirect(URL.urlHash(), URL.value(), target.value(), AT);

        var updated = assertInstanceOf(UpdateFields.Result.Updated.class,
                fields.patch(URL.value(), Map.of("k", Optional.of("1"))));

        assertEquals(target, updated.url());
        assertEquals(Map.of("k", "1"), urls.find(target.urlHash()).orElseThrow().fields());
    }

    @Test
    void patch_whenAnotherWriterWinsOnce_retriesOnTheNewVersionAndKeepsBothChanges() {
        UrlStore racing = new RacingStore(urls);
        var result = new UpdateFields(UrlNormalizer.create(), racing).patch(URL.value(), Map.of("mine",
                Optional.of("1")));

        assertInstanceOf(UpdateFields.Result.Updated.class, result);
        assertEquals(Map.of("mine", "1", "theirs", "2"), urls.find(URL.urlHash()).orElseThrow().fields());
    }

    @Test
    void patch_whenInvalid_refusesNamingTheProblemAndWritesNothing() {
        assertTrue(invalid(Map.of()).contains("no fields"));
        assertTrue(invalid(Map.of("bad name", Optional.of("1"))).contains("invalid field name"));
        assertTrue(invalid(Map.of("_x", Optional.of("1"))).contains("invalid field name"));
        assertTrue(invalid(Map.of("big", Optional.of("\"" + "x".repeat(5000) + "\""))).contains("at most 4096"));
        Map<String, Optional<String>> many = new HashMap<>();
        for (int i = 0; i < 51; i++) {
            many.put("f" + i, Optional.of("1"));
        }
        assertTrue(invalid(many).contains("at most 50"));
        assertInstanceOf(UpdateFields.Result.Invalid.class, fields.patch("ftp://example.com/", Map.of("k",
                Optional.of("1"))));
        assertEquals(Optional.empty(), urls.find(URL.urlHash()));
    }

    @Test
    void patch_whenMergedFieldsExceedTheTotal_refuses() {
        for (int i = 0; i < 8; i++) {
            fields.patch(URL.value(), Map.of("f" + i, Optional.of("\"" + "x".repeat(4000) + "\"")));
        }

        var result = fields.patch(URL.value(), Map.of("one-more", Optional.of("\"" + "x".repeat(4000) + "\"")));

        assertTrue(assertInstanceOf(UpdateFields.Result.Invalid.class, result).reason().contains("32768"));
        assertEquals(8, urls.find(URL.urlHash()).orElseThrow().fields().size());
    }

    private String invalid(Map<String, Optional<String>> patch) {
        return assertInstanceOf(UpdateFields.Result.Invalid.class, fields.patch(URL.value(), patch)).reason();
    }

    /** Lets another writer add a field between this writer's read and its first write. */
    private static final class RacingStore extends DelegatingUrlStore {
        private boolean raced;

        RacingStore(InMemoryUrlStore delegate) {
            super(delegate);
        }

        @Override
        public boolean replaceFields(String urlHash, String url, Map<String, String> f, long expectedVersion) {
            if (!raced) {
                raced = true;
                delegate.replaceFields(urlHash, url, Map.of("theirs", "2"), expectedVersion);
            }
            return delegate.replaceFields(urlHash, url, f, expectedVersion);
        }
    }
}
