package io.spiderling.core.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.CallbackState;
import io.spiderling.core.batch.NoticeFailures;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.Rejection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What {@link BatchHeaderStore}'s javadoc promises, run against every implementation. */
public abstract class BatchHeaderStoreContract extends BatchPortsContract {

    private BatchHeaderStore headers() {
        return stores.headers();
    }

    @Test
    void createBatch_whenCalledTwiceWithSameId_keepsTheFirstHeader() {
        BatchHeader first = BatchHeader.builder().batchId(batchId).total(3).duplicates(2)
                .rejected(List.of(new Rejection("ftp://x/", "unsupported scheme: ftp"))).rejectedCount(1)
                .source(BatchSource.HTTP).createdAt(CREATED).build();
        assertTrue(headers().createBatch(first));

        assertFalse(headers().createBatch(BatchHeader.builder().batchId(batchId).total(99).duplicates(5)
                .source(BatchSource.SQS).createdAt(LATER).build()));
        assertEquals(first, headers().status(batchId).orElseThrow().header());
    }

    @Test
    void createBatch_whenOptionsAndFingerprintGiven_readsThemBack() {
        BatchHeader header = BatchHeader.builder().batchId(batchId).total(1).source(BatchSource.HTTP).createdAt(CREATED)
                .options(BatchOptions.builder().callbackUrl("https://hooks.example.com/done")
                        .recrawlAfter(Duration.ofMinutes(90)).progressEvery(Duration.ofMinutes(1)).capture(true)
                        .notices(BatchOptions.Notice.CHANGES).build())
                .fingerprint("f".repeat(64)).build();
        headers().createBatch(header);

        assertEquals(header, headers().status(batchId).orElseThrow().header());
        assertEquals(header, headers().outline(batchId).orElseThrow().header());
    }

    @Test
    void createBatch_whenNoNoticesAsked_readsBackNone() {
        headers().createBatch(BatchHeader.builder().batchId(batchId).total(1).source(BatchSource.HTTP)
                .createdAt(CREATED).options(BatchOptions.builder().callbackUrl("https://hooks.example.com/done")
                        .build()).build());

        assertEquals(java.util.Set.of(), headers().status(batchId).orElseThrow().header().options().notices());
    }

    /** BatchPlanner produces {@code Rejection(null, "missing URL")} for a JSON null among the URLs. */
    @Test
    void createBatch_whenRejectionHasNoUrl_storesHeaderAndReadsItBack() {
        BatchHeader header = BatchHeader.builder().batchId(batchId).total(1)
                .rejected(List.of(new Rejection(null, "missing url"))).rejectedCount(1).source(BatchSource.HTTP)
                .createdAt(CREATED).build();
        headers().createBatch(header);

        assertEquals(header, headers().status(batchId).orElseThrow().header());
    }

    @Test
    void status_whenBatchUnknown_returnsEmpty() {
        assertEquals(Optional.empty(), headers().status(batchId));
    }

    @Test
    void status_whenNothingFinished_returnsHeaderAndEverythingQueued() {
        BatchHeader header = BatchHeader.builder().batchId(batchId).total(2)
                .rejected(List.of(new Rejection("mailto:a@b", "unsupported scheme: mailto"))).rejectedCount(4)
                .source(BatchSource.SQS).createdAt(CREATED).build();
        headers().createBatch(header);

        BatchStatus status = headers().status(batchId).orElseThrow();

        assertEquals(new BatchStatus(header, Map.of(), Optional.empty()), status);
        assertEquals(2, status.queued());
        assertFalse(status.done());
    }

    @Test
    void status_whenTheBatchAwaitsItsUpload_saysSo() {
        headers().createBatch(uploadHeader());

        assertEquals(Optional.of(PlanProgress.AWAITING_UPLOAD), headers().status(batchId).orElseThrow().planning());
    }

    @Test
    void markCompleted_whenCalledTwice_returnsTrueOnceAndKeepsTheFirstTime() {
        headers().createBatch(header(0));

        assertTrue(headers().markCompleted(batchId, LATER));
        assertFalse(headers().markCompleted(batchId, LATER.plusSeconds(60)));

        assertEquals(Optional.of(LATER), headers().status(batchId).orElseThrow().completedAt());
    }

    @Test
    void markCompleted_whenBatchUnknown_returnsFalseAndCreatesNoHeader() {
        assertFalse(headers().markCompleted(batchId, LATER));

        assertEquals(Optional.empty(), headers().status(batchId));
    }

    @Test
    void outline_whenCreatedThenCancelled_readsTheHeaderAndThenTheCancellation() {
        BatchHeader header = header(1);
        assertEquals(Optional.empty(), headers().outline(batchId), "unknown");
        headers().createBatch(header);

        assertEquals(header, headers().outline(batchId).orElseThrow().header(), "a batch just created");
        assertEquals(Optional.empty(), headers().outline(batchId).orElseThrow().cancelledAt());
        headers().markCancelled(batchId, LATER);
        assertEquals(Optional.of(LATER), headers().outline(batchId).orElseThrow().cancelledAt());
    }

    @Test
    void markCancelled_whenCalledTwice_recordsTheFirstTimeOnly() {
        headers().createBatch(header(1));

        assertTrue(headers().markCancelled(batchId, LATER));
        assertFalse(headers().markCancelled(batchId, LATER.plusSeconds(5)));
        assertFalse(headers().markCancelled(batchId + "-unknown", LATER));

        BatchStatus status = headers().status(batchId).orElseThrow();
        assertEquals(Optional.of(LATER), status.cancelledAt());
        assertEquals(Optional.empty(), status.completedAt());
        assertEquals(Optional.empty(), headers().status(batchId + "-unknown"));
    }

    @Test
    void markCompletionEmitted_whenCalledTwice_recordsTheFirstTimeOnly() {
        headers().createBatch(header(0));

        assertTrue(headers().markCompletionEmitted(batchId, LATER));
        assertFalse(headers().markCompletionEmitted(batchId, LATER.plusSeconds(5)));
        assertFalse(headers().markCompletionEmitted(batchId + "-unknown", LATER));

        assertEquals(Optional.of(LATER), headers().status(batchId).orElseThrow().callback().completionEmittedAt());
        assertEquals(Optional.empty(), headers().status(batchId + "-unknown"));
    }

    @Test
    void recordCallbackFailed_whenThenDelivered_keepsTheDeliveryAndForgetsTheFailure() {
        headers().createBatch(header(0));
        headers().markCompletionEmitted(batchId, CREATED);

        headers().recordCallbackFailed(batchId, "HTTP 500", 1, LATER);
        assertEquals(new CallbackState(Optional.of(CREATED), Optional.empty(), Optional.of("HTTP 500"), 1, 0),
                headers().status(batchId).orElseThrow().callback());

        headers().recordCallbackDelivered(batchId, LATER.plusSeconds(10), 2);
        headers().recordCallbackDelivered(batchId, LATER.plusSeconds(20), 3);
        headers().recordCallbackFailed(batchId, "late duplicate", 4, LATER.plusSeconds(30));

        assertEquals(new CallbackState(Optional.of(CREATED), Optional.of(LATER.plusSeconds(10)), Optional.empty(), 2,
                0), headers().status(batchId).orElseThrow().callback(), "the first delivery wins, and stands");
    }

    @Test
    void recordCallback_whenBatchUnknown_createsNoHeader() {
        headers().recordCallbackDelivered(batchId, LATER, 1);
        headers().recordCallbackFailed(batchId, "HTTP 500", 1, LATER);

        assertEquals(Optional.empty(), headers().status(batchId));
    }

    @Test
    void recordChangeNoticeFailed_whenCalledTwice_countsBothAndKeepsTheLatest() {
        headers().createBatch(header(0));
        assertEquals(NoticeFailures.NONE, headers().status(batchId).orElseThrow().noticeFailures());

        headers().recordChangeNoticeFailed(batchId, "url.changed a:1:changed: http 404", LATER);
        headers().recordChangeNoticeFailed(batchId, "url.changed b:2:changed: dead-lettered", LATER.plusSeconds(5));

        BatchStatus status = headers().status(batchId).orElseThrow();
        assertEquals(new NoticeFailures(2, Optional.of("url.changed b:2:changed: dead-lettered"),
                Optional.of(LATER.plusSeconds(5))), status.noticeFailures());
        assertEquals(CallbackState.NONE, status.callback(), "the completion's callback is another matter");
    }

    @Test
    void recordChangeNoticeFailed_whenBatchUnknown_createsNoHeader() {
        headers().recordChangeNoticeFailed(batchId, "http 404", LATER);

        assertEquals(Optional.empty(), headers().status(batchId));
    }

    @Test
    void markProgressSent_whenTheSameOrAnEarlierReportComesAgain_refusesIt() {
        headers().createBatch(header(3));

        assertTrue(headers().markProgressSent(batchId, 1));
        assertTrue(headers().markProgressSent(batchId, 3));
        assertFalse(headers().markProgressSent(batchId, 3), "a duplicate message");
        assertFalse(headers().markProgressSent(batchId, 2), "an earlier report, late");
        assertFalse(headers().markProgressSent(batchId + "-unknown", 1));

        assertEquals(3, headers().status(batchId).orElseThrow().callback().progressSent());
    }
}
