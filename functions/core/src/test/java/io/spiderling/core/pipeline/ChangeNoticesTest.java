package io.spiderling.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.notify.UrlChangedEvent;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryUrlStore;
import io.spiderling.core.url.NormalizedUrl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The fetch stage's half and the extraction's, in either order: each batch that asked is told once a change is. */
class ChangeNoticesTest {

    private static final Instant T1 = Instant.parse("2026-11-28T10:00:00Z");
    private static final Instant T2 = T1.plusSeconds(3600);
    private static final NormalizedUrl URL = NormalizedUrl.parse("https://example.com/p");

    private final InMemoryUrlStore urls = new InMemoryUrlStore(new CallLog());
    private final List<NotifyQueue.Message> sent = new ArrayList<>();
    private final List<Duration> delays = new ArrayList<>();
    private final ChangeNotices notices = new ChangeNotices(urls, (message, delay) -> {
        sent.add(message);
        delays.add(delay);
    });

    private static FetchRecord fetch(Instant at, String sha) {
        return FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED, at).httpStatus(200)
                .contentType("text/html").contentKey("content/" + sha).contentSha256(sha).build();
    }

    /** The extraction's write, as ExtractContent makes it; the change it records. */
    private ContentChange extracted(Instant at, String sha, String digest) {
        return urls.recordExtraction(ExtractionRecord.builder().urlHash(URL.urlHash()).url(URL.value())
                .page(PageMetadata.empty()).contentSha256(sha).contentFetchedAt(at).extractedAt(at)
                .changeDigest(Optional.of(digest)).build()).orElseThrow();
    }

    private List<String> toldBatches() {
        return sent.stream().map(NotifyQueue.Message::batchId).toList();
    }

    @Test
    void requested_whenTheExtractionRecordedAChangeFirst_tellsTheBatchesAtOnce() {
        extracted(T1, "sha-1", "d1");
        urls.recordFetch(fetch(T2, "sha-2"));
        ContentChange change = extracted(T2, "sha-2", "d2");

        notices.requested(fetch(T2, "sha-2"), List.of("b1", "b2"));

        assertEquals(List.of("b1", "b2"), toldBatches());
        UrlChangedEvent event = new UrlChangedEvent(URL, "sha-2", T2, change);
        assertEquals(List.of(NotifyQueue.Message.changed("b1", event), NotifyQueue.Message.changed("b2", event)),
                sent);
        assertEquals(List.of(Duration.ZERO, Duration.ZERO), delays);
    }

    @Test
    void changed_whenTheFetchRecordedItsBatchesFirst_tellsThemOnceTheChangeIsRecorded() {
        extracted(T1, "sha-1", "d1");
        urls.recordFetch(fetch(T2, "sha-2"));

        notices.requested(fetch(T2, "sha-2"), List.of("b1"));
        notices.requested(fetch(T2, "sha-2"), List.of("b2"));
        assertEquals(List.of(), sent, "nothing is known to have changed yet");
        ContentChange change = extracted(T2, "sha-2", "d2");
        notices.changed(new UrlChangedEvent(URL, "sha-2", T2, change));

        assertEquals(java.util.Set.of("b1", "b2"), java.util.Set.copyOf(toldBatches()));
        assertEquals(2, sent.size(), "each once");
    }

    @Test
    void requested_whenTheContentIsNewOrUnchanged_tellsNobody() {
        urls.recordFetch(fetch(T1, "sha-1"));
        extracted(T1, "sha-1", "d1");
        notices.requested(fetch(T1, "sha-1"), List.of("b1"));
        urls.recordFetch(fetch(T2, "sha-2"));
        extracted(T2, "sha-2", "d1");
        notices.requested(fetch(T2, "sha-2"), List.of("b1"));

        assertEquals(List.of(), sent);
    }

    @Test
    void requested_whenNoBatchAskedOrNoContentWasStored_writesNothing() {
        urls.recordFetch(fetch(T1, "sha-1"));

        notices.requested(fetch(T1, "sha-1"), List.of());
        notices.requested(FetchRecord.builder(URL.urlHash(), URL.value(), ItemState.FETCHED, T1).build(),
                List.of("b1"));

        assertEquals(java.util.Set.of(), urls.changeNoticeRequests(URL.urlHash(), T1));
    }

    @Test
    void requested_whenMoreBatchesAskThanAFetchKeeps_recordsTheFirstOnes() {
        urls.recordFetch(fetch(T1, "sha-1"));
        List<String> many = IntStream.range(0, UrlStore.MAX_CHANGE_REQUESTS + 5).mapToObj(i -> "b" + i).toList();

        notices.requested(fetch(T1, "sha-1"), many);

        assertEquals(java.util.Set.copyOf(many.subList(0, UrlStore.MAX_CHANGE_REQUESTS)),
                urls.changeNoticeRequests(URL.urlHash(), T1));
    }
}
