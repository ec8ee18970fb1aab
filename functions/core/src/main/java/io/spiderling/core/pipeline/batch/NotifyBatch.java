package io.spiderling.core.pipeline.batch;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchOutline;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.notify.CallbackEvent;
import io.spiderling.core.notify.CallbackPolicy;
import io.spiderling.core.notify.DeliveryPolicy;
import io.spiderling.core.notify.ProgressSchedule;
import io.spiderling.core.notify.UrlChangedEvent;
import io.spiderling.core.notify.WebhookSignature;
import io.spiderling.core.port.BatchHeaderStore;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.port.WebhookSecrets;
import io.spiderling.core.port.WebhookSender;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * The notify stage: posts a batch's completion, one progress report, or one change of a page ({@code url.changed}, for
 * a batch that asked for it), to its callback URL, signed with its client's secret, and decides what follows.
 *
 * <p>Each message is one delivery attempt. The callback URL is checked again before sending (the allow-list may have
 * changed, and the name may resolve elsewhere now), and the connection goes to an address that check allowed. A
 * failed completion is sent again through the queue with backoff, and after the last attempt the failure is recorded
 * on the batch. A delivered completion is recorded too, so a duplicate message does not post it again; its event id
 * is stable either way. Progress reports are numbered from the batch's creation; each posts at most once, a failed
 * one is not retried (the next report supersedes it), and they stop when the batch completes.
 *
 * <p>A change is posted under the listeners' event id, with the batch's id in its body; it is retried as a completion
 * is, and after the last attempt counted on the batch as a change notice given up ({@link
 * BatchHeaderStore#recordChangeNoticeFailed}). Nothing records a delivered one: a duplicate message posts it again,
 * under the same id, which the receiver drops. Changes are extracted after the fetch, so one may come after the
 * batch's completion.
 */
public final class NotifyBatch {

    private final BatchHeaderStore batches;
    private final NotifyQueue queue;
    private final WebhookSender sender;
    private final WebhookSecrets secrets;
    private final CallbackPolicy callbacks;
    private final DeliveryPolicy delivery;
    private final Clock clock;
    private final DoubleSupplier jitter;

    private NotifyBatch(Builder b) {
        this.batches = Objects.requireNonNull(b.batches, "batches");
        this.queue = Objects.requireNonNull(b.queue, "queue");
        this.sender = Objects.requireNonNull(b.sender, "sender");
        this.secrets = Objects.requireNonNull(b.secrets, "secrets");
        this.callbacks = Objects.requireNonNull(b.callbacks, "callbacks");
        this.delivery = Objects.requireNonNull(b.delivery, "delivery");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.jitter = Objects.requireNonNull(b.jitter, "jitter");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Names each collaborator; all are required. */
    public static final class Builder {
        private BatchHeaderStore batches;
        private NotifyQueue queue;
        private WebhookSender sender;
        private WebhookSecrets secrets;
        private CallbackPolicy callbacks;
        private DeliveryPolicy delivery;
        private Clock clock;
        private DoubleSupplier jitter;

        private Builder() {}

        public Builder batches(BatchHeaderStore value) {
            batches = value;
            return this;
        }

        public Builder queue(NotifyQueue value) {
            queue = value;
            return this;
        }

        public Builder sender(WebhookSender value) {
            sender = value;
            return this;
        }

        public Builder secrets(WebhookSecrets value) {
            secrets = value;
            return this;
        }

        public Builder callbacks(CallbackPolicy value) {
            callbacks = value;
            return this;
        }

        public Builder delivery(DeliveryPolicy value) {
            delivery = value;
            return this;
        }

        public Builder clock(Clock value) {
            clock = value;
            return this;
        }

        public Builder jitter(DoubleSupplier value) {
            jitter = value;
            return this;
        }

        public NotifyBatch build() {
            return new NotifyBatch(this);
        }
    }

    /** What one message came to. */
    public sealed interface Outcome {
        record Delivered(String eventId) implements Outcome {}

        record RetryLater(String eventId, Duration delay, String reason) implements Outcome {}

        record GaveUp(String eventId, String reason) implements Outcome {}

        /**
         * Nothing to send: no such batch, no callback, already delivered, progress after completion, or a change
         * for a batch that asked for none.
         */
        record Skipped(String why) implements Outcome {}
    }

    /**
     * A message the notify queue gave up on (the stores failed on it repeatedly): a completion's callback is recorded
     * as failed, so the batch says what happened instead of waiting for a delivery that will not come; a progress
     * report is dropped, and the reports after it with it (the batch's completion callback still comes).
     */
    public Outcome deadLettered(NotifyQueue.Message message) {
        String failed = "dead-lettered: the notify stage failed on attempt " + message.attempt() + " repeatedly";
        return switch (message.kind()) {
            case COMPLETED -> {
                batches.recordCallbackFailed(message.batchId(), failed, message.attempt(), clock.instant());
                yield new Outcome.GaveUp(CallbackEvent.completedId(message.batchId()), "dead-lettered");
            }
            case PROGRESS -> new Outcome.GaveUp(CallbackEvent.progressId(message.batchId(), message.sequence()),
                    "dead-lettered");
            case CHANGED -> {
                UrlChangedEvent event = message.change().orElseThrow();
                batches.recordChangeNoticeFailed(message.batchId(), noticeFailure(event, failed), clock.instant());
                yield new Outcome.GaveUp(event.id(), "dead-lettered");
            }
        };
    }

    public Outcome handle(NotifyQueue.Message message) {
        if (message.kind() == NotifyQueue.Kind.CHANGED) {
            return changed(message, message.change().orElseThrow());
        }
        Optional<BatchStatus> found = batches.status(message.batchId());
        if (found.isEmpty()) {
            return new Outcome.Skipped("no batch " + message.batchId());
        }
        BatchStatus status = found.get();
        Optional<String> callback = status.header().options().callbackUrl();
        if (callback.isEmpty()) {
            return new Outcome.Skipped("batch " + message.batchId() + " has no callback");
        }
        return switch (message.kind()) {
            case COMPLETED -> completed(message, status, callback.get());
            case PROGRESS -> progress(message, status, callback.get());
            case CHANGED -> throw new IllegalStateException("a change is handled apart");
        };
    }

    /**
     * One attempt at posting a change to a batch that asked for changes. The batch's outline is enough (no counts):
     * its callback, its client and its options never change.
     */
    private Outcome changed(NotifyQueue.Message message, UrlChangedEvent event) {
        Optional<BatchHeader> found = batches.outline(message.batchId()).map(BatchOutline::header);
        if (found.isEmpty()) {
            return new Outcome.Skipped("no batch " + message.batchId());
        }
        BatchHeader header = found.get();
        Optional<String> callback = header.options().callbackUrl();
        if (callback.isEmpty() || !header.options().wants(BatchOptions.Notice.CHANGES)) {
            return new Outcome.Skipped("batch " + message.batchId() + " asked for no change notices");
        }
        Instant now = clock.instant();
        DeliveryPolicy.Attempt attempt = send(header.client(), callback.get(), event.id(),
                event.toJson(message.batchId()), now);
        return switch (delivery.decide(attempt, message.attempt(), jitter.getAsDouble())) {
            case DeliveryPolicy.Decision.Delivered d -> new Outcome.Delivered(event.id());
            case DeliveryPolicy.Decision.Retry retry -> {
                queue.send(message.nextAttempt(), retry.delay());
                yield new Outcome.RetryLater(event.id(), retry.delay(), retry.reason());
            }
            case DeliveryPolicy.Decision.GiveUp giveUp -> {
                batches.recordChangeNoticeFailed(message.batchId(), noticeFailure(event, giveUp.reason()), now);
                yield new Outcome.GaveUp(event.id(), giveUp.reason());
            }
        };
    }

    /** How a change notice given up reads on its batch: which page's change, and why. */
    private static String noticeFailure(UrlChangedEvent event, String reason) {
        return "url.changed " + event.id() + " (" + event.url().value() + "): " + reason;
    }

    private Outcome completed(NotifyQueue.Message message, BatchStatus status, String callback) {
        if (status.callback().deliveredAt().isPresent()) {
            return new Outcome.Skipped("completion of " + message.batchId() + " already delivered");
        }
        if (status.completedAt().isEmpty()) {
            return new Outcome.Skipped("batch " + message.batchId() + " has not completed");
        }
        CallbackEvent event = CallbackEvent.completed(message.batchId(), status.countsByWireName(), status.header().total(),
                status.completedAt().get());
        Instant now = clock.instant();
        DeliveryPolicy.Decision decision = delivery.decide(send(status, callback, event, now), message.attempt(),
                jitter.getAsDouble());
        return switch (decision) {
            case DeliveryPolicy.Decision.Delivered d -> {
                batches.recordCallbackDelivered(message.batchId(), now, message.attempt());
                yield new Outcome.Delivered(event.eventId());
            }
            case DeliveryPolicy.Decision.Retry retry -> {
                queue.send(message.nextAttempt(), retry.delay());
                yield new Outcome.RetryLater(event.eventId(), retry.delay(), retry.reason());
            }
            case DeliveryPolicy.Decision.GiveUp giveUp -> {
                batches.recordCallbackFailed(message.batchId(), giveUp.reason(), message.attempt(), now);
                yield new Outcome.GaveUp(event.eventId(), giveUp.reason());
            }
        };
    }

    private Outcome progress(NotifyQueue.Message message, BatchStatus status, String callback) {
        if (status.completedAt().isPresent() || status.cancelledAt().isPresent()) {
            return new Outcome.Skipped("batch " + message.batchId() + " is over; progress reports stop");
        }
        Instant now = clock.instant();
        Optional<Duration> every = status.header().options().progressEvery();
        if (every.isEmpty()) {
            return new Outcome.Skipped("batch " + message.batchId() + " asked for no progress reports");
        }
        ProgressSchedule schedule = new ProgressSchedule(every.get(), status.header().createdAt());
        Duration early = schedule.delayUntil(message.sequence(), now);
        if (!early.isZero()) { // a report further away than one queue delay, or a message that came early
            queue.send(message, early);
            return new Outcome.Skipped("progress " + message.sequence() + " is due in " + early);
        }
        if (!batches.markProgressSent(message.batchId(), message.sequence())) {
            return new Outcome.Skipped("progress " + message.sequence() + " of " + message.batchId()
                    + " already posted");
        }
        // The next report: the following one, or, after a stall, the first one still ahead; never a burst.
        long elapsed = Duration.between(status.header().createdAt(), now).toMillis() / every.get().toMillis();
        long next = Math.max(message.sequence() + 1, elapsed + 1);
        queue.send(NotifyQueue.Message.progress(message.batchId(), next), schedule.delayUntil(next, now));
        CallbackEvent event = CallbackEvent.progress(message.batchId(), message.sequence(), status.countsByWireName(),
                status.header().total(), now);
        DeliveryPolicy.Attempt attempt = send(status, callback, event, now);
        return switch (delivery.decide(attempt, delivery.settings().maxAttempts(), jitter.getAsDouble())) {
            case DeliveryPolicy.Decision.Delivered d -> new Outcome.Delivered(event.eventId());
            case DeliveryPolicy.Decision.Retry r -> new Outcome.GaveUp(event.eventId(), attempt.describe());
            case DeliveryPolicy.Decision.GiveUp g -> new Outcome.GaveUp(event.eventId(), attempt.describe());
        };
    }

    private DeliveryPolicy.Attempt send(BatchStatus status, String callback, CallbackEvent event, Instant now) {
        return send(status.header().client(), callback, event.eventId(), event.toJson(), now);
    }

    /** Checks the callback again, signs the body and posts it; a refusal is an attempt that was never sent. */
    private DeliveryPolicy.Attempt send(String client, String callback, String eventId, byte[] body, Instant now) {
        Optional<String> secret = secrets.secretOf(client);
        if (secret.isEmpty()) {
            return DeliveryPolicy.Attempt.blocked("client \"" + client + "\" has no webhook secret to sign with");
        }
        return switch (callbacks.check(callback)) {
            case CallbackPolicy.Verdict.Refused refused -> refused.asAttempt();
            case CallbackPolicy.Verdict.Allowed allowed -> {
                WebhookSignature.Headers headers = WebhookSignature.sign(body, secret.get(), eventId, now);
                Map<String, String> all = new LinkedHashMap<>(headers.asMap());
                all.put("Content-Type", "application/json");
                all.put("User-Agent", "Spiderling-Webhook/1");
                yield sender.post(allowed.uri(), allowed.addresses(), body, all);
            }
        };
    }

}
