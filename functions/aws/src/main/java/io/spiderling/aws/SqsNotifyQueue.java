package io.spiderling.aws;

import io.spiderling.core.port.NotifyQueue;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@link NotifyQueue} on a standard SQS queue, {@code {"batchId":…,"kind":"completed"|"progress","sequence":n,
 * "attempt":n}}, with the delay as the message's DelaySeconds (whole seconds, rounded up). Standard, not FIFO:
 * only a FIFO queue refuses per-message delays, and a duplicate notification is dropped by the notify stage.
 */
public final class SqsNotifyQueue implements NotifyQueue {

    private static final Pattern MESSAGE = Pattern.compile(
            "\\{\"batchId\":\"([A-Za-z0-9._-]{1,128})\",\"kind\":\"([a-z]+)\",\"sequence\":(\\d{1,18}),\"attempt\":(\\d{1,9})}");

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsNotifyQueue(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    /** Batch ids are letters, digits and {@code ._-}, so nothing needs escaping. */
    public static String encode(Message m) {
        return "{\"batchId\":\"" + m.batchId() + "\",\"kind\":\"" + m.kind().wireName() + "\",\"sequence\":"
                + m.sequence() + ",\"attempt\":" + m.attempt() + "}";
    }

    /** Empty for a body {@link #encode} did not write. */
    public static Optional<Message> decode(String body) {
        Matcher m = body == null ? null : MESSAGE.matcher(body.strip());
        if (m == null || !m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Message(m.group(1), Kind.fromWireName(m.group(2)), Long.parseLong(m.group(3)),
                    Integer.parseInt(m.group(4))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public void send(Message message, Duration delay) {
        if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
            throw new IllegalArgumentException("delay must be between 0 and " + MAX_DELAY + ", was " + delay);
        }
        int seconds = (int) Math.min(MAX_DELAY.toSeconds(), delay.toSeconds() + (delay.toNanosPart() > 0 ? 1 : 0));
        sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(encode(message)).delaySeconds(seconds));
    }
}
