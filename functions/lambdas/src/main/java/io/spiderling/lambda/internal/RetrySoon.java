package io.spiderling.lambda.internal;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.time.Duration;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Brings a message its handler failed back soon, with backoff, instead of after its queue's whole visibility
 * timeout. The plan queue hides a message for 90 minutes so that a chunk is never planned twice at once by an
 * invocation that runs its full 15 minutes; a chunk whose handler threw (a throttle, a store's blip) would then wait
 * those 90 minutes to be tried again, and its batch with it. An invocation that dies without throwing (a timeout)
 * cannot call this, so its message keeps the long timeout that protects it.
 */
public final class RetrySoon {

    private static final Logger LOG = Logger.getLogger(RetrySoon.class);

    /** The first retry's delay; each receive after doubles it, up to SQS's 12 hours, and never past {@link #MAX}. */
    static final Duration FIRST = Duration.ofSeconds(30);
    static final Duration MAX = Duration.ofMinutes(15);

    private final SqsClient sqs;
    private final String queueUrl;

    public RetrySoon(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    /** How long the message stays hidden after its {@code receiveCount}th receive failed. */
    static Duration delay(int receiveCount) {
        int doublings = Math.min(Math.max(receiveCount, 1) - 1, 10);
        Duration delay = FIRST.multipliedBy(1L << doublings);
        return delay.compareTo(MAX) > 0 ? MAX : delay;
    }

    /**
     * Hides {@code message} for its backoff from now. Best effort: if this fails too, the message comes back when its
     * visibility timeout ends, as it would have.
     */
    public void after(SQSEvent.SQSMessage message) {
        String count = message.getAttributes() == null ? null
                : message.getAttributes().get("ApproximateReceiveCount");
        int receives = count == null ? 1 : Integer.parseInt(count);
        try {
            sqs.changeMessageVisibility(b -> b.queueUrl(queueUrl).receiptHandle(message.getReceiptHandle())
                    .visibilityTimeout((int) delay(receives).toSeconds()));
        } catch (RuntimeException e) {
            LOG.warnf("could not bring message %s back sooner: %s", message.getMessageId(), e.getMessage());
        }
    }
}
