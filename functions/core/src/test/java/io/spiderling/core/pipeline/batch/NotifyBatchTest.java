package io.spiderling.core.pipeline.batch;

import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.pipeline.BatchTracker;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.net.AddressPolicy;
import io.spiderling.core.notify.CallbackPolicy;
import io.spiderling.core.notify.DeliveryPolicy;
import io.spiderling.core.notify.UrlChangedEvent;
import io.spiderling.core.notify.WebhookSignature;
import io.spiderling.core.port.EventSink;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.port.WebhookSender;
import io.spiderling.core.testing.CallLog;
import io.spiderling.core.testing.InMemoryBatchStore;
import io.spiderling.core.testing.TestClock;
import io.spiderling.core.url.NormalizedUrl;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NotifyBatchTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    private static final String HOOK = "https://hooks.example.com/spiderling";
    private static final String SECRET = "whsec-0123456789abcdef";
    private static final NormalizedUrl URL = NormalizedUrl.parse("https://example.com/a");

    private final CallLog log = new CallLog();
    private final InMemoryBatchStore batches = new InMemoryBatchStore(log);
    private final TestClock clock = new TestClock(START);
    private final List<Sent> queued = new ArrayList<>();
    private final NotifyQueue queue = (message, delay) -> queued.add(new Sent(message, delay));
    private final List<Post> posts = new ArrayList<>();
    private final Deque<DeliveryPolicy.Attempt> answers = new ArrayDeque<>();
    private final WebhookSender sender = (uri, addresses, body, headers) -> {
        posts.add(new Post(uri, addresses, body, headers));
        return answers.isEmpty() ? DeliveryPolicy.Attempt.status(204) : answers.poll();
    };
    private String resolvesTo = "93.184.216.34";
    private final CallbackPolicy callbacks = new CallbackPolicy(CallbackPolicy.Settings.httpsOnly(List.of("*")),
            AddressPolicy.strict(), host -> {
                try {
                    return List.of(InetAddress.getByName(resolvesTo));
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
            });
    private final NotifyBatch notify = NotifyBatch.builder().batches(batches).queue(queue).sender(sender)
            .secrets(client -> client.equals("client-a") ? Optional.of(SECRET) : Optional.empty())
            .callbacks(callbacks).delivery(DeliveryPolicy.create()).clock(clock).jitter(() -> 0.5).build();

    private record Sent(NotifyQueue.Message message, Duration delay) {}

    private record Post(URI uri, List<InetAddress> addresses, byte[] body, Map<String, String> headers) {}

    private void batch(String id, Optional<Duration> progressEvery) {
        batches.createBatch(BatchHeader.builder().batchId(id).total(1).source(BatchSource.HTTP).createdAt(START)
                .options(BatchOptions.builder().callbackUrl(HOOK).progressEvery(progressEvery).build())
                .client("client-a").build());
        batches.addItems(id, List.of(URL), START);
    }

    private BatchTracker tracker() {
        return new BatchTracker(batches, batches, new EmitCompletion(queue, EventSink.NONE));
    }

    @Test
    void handle_whenCompletedAndReceiverAccepts_postsASignedEventOnceAndRecordsTheDelivery() {
        batch("b1", Optional.empty());
        tracker().finish("b1", URL.urlHash(), Reason.FETCHED, null, START);
        NotifyQueue.Message message = queued.getFirst().message();

        var outcome = notify.handle(message);
        var again = notify.handle(message);

        assertEquals(new NotifyBatch.Outcome.Delivered("b1:completed"), outcome);
        assertInstanceOf(NotifyBatch.Outcome.Skipped.class, again, "a duplicate message does not post again");
        assertEquals(1, posts.size());
        Post post = posts.getFirst();
        assertEquals(URI.create(HOOK), post.uri());
        assertEquals("93.184.216.34", post.addresses().getFirst().getHostAddress());
        var verified = WebhookSignature.verify(post.headers(), post.body(), SECRET, START, Duration.ofMinutes(5));
        assertEquals(new WebhookSignature.Verification.Valid("b1:completed", START), verified);
        assertTrue(new String(post.body()).contains("\"counts\":{"), new String(post.body()));
        assertEquals(Optional.of(START), batches.status("b1").orElseThrow().callback().deliveredAt());
    }

    @Test
    void checkCompletion_whenRunTwice_emitsTheCompletionOnce() {
        batch("b2", Optional.empty());
        BatchTracker tracker = tracker();
        tracker.finish("b2", URL.urlHash(), Reason.FETCHED, null, START);

        tracker.checkCompletion("b2", START.plusSeconds(1));
        tracker.finish("b2", URL.urlHash(), Reason.FETCHED, null, START.plusSeconds(2));

        assertEquals(List.of(NotifyQueue.Message.completed("b2")), queued.stream().map(Sent::message).toList());
    }

    @Test
    void checkCompletion_whenTheRecorderDiedBeforeEmitting_theNextCallerEmitsItWithTheSameId() {
        batch("b3", Optional.empty());
        batches.finishItem("b3", URL.urlHash(), Reason.FETCHED, null, START);
        BatchTracker crashing = new BatchTracker(batches, batches, status -> {
            throw new IllegalStateException("crashed after recording the completion");
        });
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> crashing.checkCompletion("b3", START));
        assertTrue(batches.status("b3").orElseThrow().completedAt().isPresent());

        tracker().checkCompletion("b3", START.plusSeconds(1)); // the message's retry
        tracker().checkCompletion("b3", START.plusSeconds(2));

        assertEquals(List.of(NotifyQueue.Message.completed("b3")), queued.stream().map(Sent::message).toList());
    }

    @Test
    void handle_whenReceiverFails_retriesWithBackoffThenRecordsTheFailure() {
        batch("b4", Optional.empty());
        tracker().finish("b4", URL.urlHash(), Reason.FETCHED, null, START);
        NotifyQueue.Message message = queued.getFirst().message();
        for (int i = 0; i < 8; i++) {
            answers.add(DeliveryPolicy.Attempt.status(503));
        }

        List<NotifyBatch.Outcome> outcomes = new ArrayList<>();
        while (outcomes.isEmpty() || outcomes.getLast() instanceof NotifyBatch.Outcome.RetryLater) {
            outcomes.add(notify.handle(message));
            message = queued.getLast().message();
        }

        assertEquals(8, posts.size(), "eight attempts");
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9).subList(0, 8),
                queued.stream().map(s -> s.message().attempt()).toList(), "each retry is the next attempt");
        assertTrue(queued.get(2).delay().compareTo(queued.get(1).delay()) > 0, "backing off: " + queued);
        var gaveUp = assertInstanceOf(NotifyBatch.Outcome.GaveUp.class, outcomes.getLast());
        assertEquals(Optional.of(gaveUp.reason()), batches.status("b4").orElseThrow().callback().failure());
        assertTrue(gaveUp.reason().contains("http 503"), gaveUp.reason());
    }

    @Test
    void handle_whenTheCallbackNowResolvesToAPrivateAddress_refusesToSendAndGivesUp() {
        batch("b5", Optional.empty());
        tracker().finish("b5", URL.urlHash(), Reason.FETCHED, null, START);
        resolvesTo = "10.0.0.1";

        var outcome = notify.handle(queued.getFirst().message());

        assertInstanceOf(NotifyBatch.Outcome.GaveUp.class, outcome);
        assertEquals(0, posts.size(), "nothing is sent to a private address");
        assertTrue(batches.status("b5").orElseThrow().callback().failure().orElseThrow().contains("10.0.0.1"));
    }

    @Test
    void handle_whenProgressIsDue_postsItOnceAndSchedulesTheNextAtTheInterval() {
        batch("b6", Optional.of(Duration.ofSeconds(30)));
        clock.set(START.plusSeconds(30));

        var first = notify.handle(NotifyQueue.Message.progress("b6", 1));
        var duplicate = notify.handle(NotifyQueue.Message.progress("b6", 1));

        assertEquals(new NotifyBatch.Outcome.Delivered("b6:progress:1"), first);
        assertInstanceOf(NotifyBatch.Outcome.Skipped.class, duplicate);
        assertEquals(1, posts.size());
        assertEquals(new Sent(NotifyQueue.Message.progress("b6", 2), Duration.ofSeconds(30)), queued.getFirst());
    }

    @Test
    void handle_whenProgressArrivesEarly_waitsForItsTimeWithoutPosting() {
        batch("b7", Optional.of(Duration.ofSeconds(30)));
        clock.set(START.plusSeconds(10));

        notify.handle(NotifyQueue.Message.progress("b7", 1));

        assertEquals(0, posts.size());
        assertEquals(new Sent(NotifyQueue.Message.progress("b7", 1), Duration.ofSeconds(20)), queued.getFirst());
    }

    @Test
    void handle_whenBatchCompleted_stopsProgressReports() {
        batch("b8", Optional.of(Duration.ofSeconds(30)));
        tracker().finish("b8", URL.urlHash(), Reason.FETCHED, null, START);
        queued.clear();
        clock.set(START.plusSeconds(30));

        assertInstanceOf(NotifyBatch.Outcome.Skipped.class, notify.handle(NotifyQueue.Message.progress("b8", 1)));
        assertEquals(0, posts.size());
        assertEquals(0, queued.size());
    }

    @Test
    void handle_whenClientHasNoSecret_givesUpSayingSo() {
        batches.createBatch(BatchHeader.builder().batchId("b9").total(1).source(BatchSource.HTTP).createdAt(START)
                .options(BatchOptions.builder().callbackUrl(HOOK).build()).client("nobody").build());
        batches.addItems("b9", List.of(URL), START);
        tracker().finish("b9", URL.urlHash(), Reason.FETCHED, null, START);

        var outcome = notify.handle(queued.getFirst().message());

        assertTrue(assertInstanceOf(NotifyBatch.Outcome.GaveUp.class, outcome).reason().contains("no webhook secret"));
        assertEquals(0, posts.size());
    }

    @Test
    void deadLettered_whenACompletionDeliveryWasGivenUpByTheQueue_recordsTheFailureOnTheBatch() {
        batch("b10", Optional.empty());
        tracker().finish("b10", URL.urlHash(), Reason.FETCHED, null, START);

        notify.deadLettered(queued.getFirst().message().nextAttempt());

        var callback = batches.status("b10").orElseThrow().callback();
        assertTrue(callback.failure().orElseThrow().startsWith("dead-lettered"), callback.toString());
        assertEquals(2, callback.attempts());
        assertEquals(0, posts.size());
    }

    /** A batch with a callback that asks for change notices (or not). */
    private void changesBatch(String id, boolean wantsChanges) {
        BatchOptions.Builder options = BatchOptions.builder().callbackUrl(HOOK);
        if (wantsChanges) {
            options.notices(BatchOptions.Notice.CHANGES);
        }
        batches.createBatch(BatchHeader.builder().batchId(id).total(1).source(BatchSource.HTTP).createdAt(START)
                .options(options.build()).client("client-a").build());
    }

    private static final UrlChangedEvent CHANGE = new UrlChangedEvent(URL, "ab".repeat(32), START.minusSeconds(5),
            ContentChange.of("d2", Optional.of("d1"), Optional.of(START.minusSeconds(3600))));

    @Test
    void handle_whenAChangeForABatchThatAskedForChanges_postsItSignedUnderTheListenersIdWithTheBatchId()
            throws Exception {
        changesBatch("c1", true);

        var outcome = notify.handle(NotifyQueue.Message.changed("c1", CHANGE));

        assertEquals(new NotifyBatch.Outcome.Delivered(CHANGE.id()), outcome);
        Post post = posts.getFirst();
        assertEquals(URI.create(HOOK), post.uri());
        var verified = WebhookSignature.verify(post.headers(), post.body(), SECRET, START, Duration.ofMinutes(5));
        assertEquals(new WebhookSignature.Verification.Valid(CHANGE.id(), START), verified);
        var body = new com.fasterxml.jackson.databind.ObjectMapper().readTree(post.body());
        assertEquals(CHANGE.id(), body.get("eventId").asText(), "the listeners' id, for one deduplication");
        assertEquals("url.changed", body.get("type").asText());
        assertEquals("c1", body.get("batchId").asText());
        assertEquals(URL.value(), body.get("url").asText());
        assertEquals("d1", body.get("previousDigest").asText());
        assertEquals(List.of(), queued, "nothing follows a delivered change");
    }

    @Test
    void handle_whenAChangeForABatchThatDidNotAskForChanges_skipsIt() {
        changesBatch("c2", false);

        var outcome = notify.handle(NotifyQueue.Message.changed("c2", CHANGE));

        assertInstanceOf(NotifyBatch.Outcome.Skipped.class, outcome);
        assertEquals(0, posts.size());
    }

    @Test
    void handle_whenTheReceiverKeepsFailingAChange_retriesWithBackoffThenCountsItOnTheBatch() {
        changesBatch("c3", true);
        for (int i = 0; i < 8; i++) {
            answers.add(DeliveryPolicy.Attempt.status(503));
        }
        NotifyQueue.Message message = NotifyQueue.Message.changed("c3", CHANGE);

        List<NotifyBatch.Outcome> outcomes = new ArrayList<>();
        while (outcomes.isEmpty() || outcomes.getLast() instanceof NotifyBatch.Outcome.RetryLater) {
            outcomes.add(notify.handle(message));
            message = queued.isEmpty() ? message : queued.getLast().message();
        }

        assertEquals(8, posts.size(), "eight attempts");
        assertEquals(List.of(2, 3, 4, 5, 6, 7, 8), queued.stream().map(s -> s.message().attempt()).toList());
        assertTrue(queued.stream().allMatch(s -> s.message().change().equals(Optional.of(CHANGE))),
                "each retry carries the change");
        assertTrue(queued.get(2).delay().compareTo(queued.get(1).delay()) > 0, "backing off: " + queued);
        assertTrue(posts.stream().allMatch(p -> CHANGE.id().equals(p.headers().get("Spiderling-Event-Id"))),
                "one id for every attempt");
        var gaveUp = assertInstanceOf(NotifyBatch.Outcome.GaveUp.class, outcomes.getLast());
        var failures = batches.status("c3").orElseThrow().noticeFailures();
        assertEquals(1, failures.count());
        assertTrue(failures.last().orElseThrow().contains(CHANGE.id())
                && failures.last().orElseThrow().contains(gaveUp.reason()), failures.toString());
        assertEquals(Optional.empty(), batches.status("c3").orElseThrow().callback().failure(),
                "the completion's callback is untouched");
    }

    @Test
    void handle_whenAChangesCallbackNowResolvesToAPrivateAddress_givesUpAtOnceWithoutSending() {
        changesBatch("c4", true);
        resolvesTo = "10.0.0.1";

        var outcome = notify.handle(NotifyQueue.Message.changed("c4", CHANGE));

        assertInstanceOf(NotifyBatch.Outcome.GaveUp.class, outcome);
        assertEquals(0, posts.size(), "nothing is sent to a private address");
        assertEquals(0, queued.size());
        assertTrue(batches.status("c4").orElseThrow().noticeFailures().last().orElseThrow().contains("10.0.0.1"));
    }

    @Test
    void deadLettered_whenAChangeWasGivenUpByTheQueue_countsItOnTheBatch() {
        changesBatch("c5", true);

        var outcome = notify.deadLettered(NotifyQueue.Message.changed("c5", CHANGE).nextAttempt());

        assertEquals(new NotifyBatch.Outcome.GaveUp(CHANGE.id(), "dead-lettered"), outcome);
        var failures = batches.status("c5").orElseThrow().noticeFailures();
        assertEquals(1, failures.count());
        assertTrue(failures.last().orElseThrow().contains("dead-lettered"), failures.toString());
        assertEquals(0, posts.size());
    }
}
