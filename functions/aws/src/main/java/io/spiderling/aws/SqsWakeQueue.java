package io.spiderling.aws;

import io.spiderling.core.port.WakeQueue;
import io.spiderling.core.url.SiteKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@link WakeQueue} on a standard SQS queue: one message {@code {"site":…}} delayed until the due time, rounded up
 * to the second. SQS delays at most 15 minutes; a later due time sends nothing and is left to the sweep.
 */
public final class SqsWakeQueue implements WakeQueue {

    /** The longest delay SQS allows on a message. */
    static final Duration MAX_DELAY = Duration.ofMinutes(15);

    private final SqsClient sqs;
    private final String queueUrl;
    private final Clock clock;

    public SqsWakeQueue(SqsClient sqs, String queueUrl, Clock clock) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.clock = clock;
    }

    @Override
    public void wake(SiteKey site, Instant at) {
        long millis = Duration.between(clock.instant(), at).toMillis();
        long seconds = Math.max(0, (millis + 999) / 1000);
        if (seconds > MAX_DELAY.toSeconds()) {
            return;
        }
        sqs.sendMessage(b -> b.queueUrl(queueUrl).delaySeconds((int) seconds).messageBody(body(site)));
    }

    /** The message for a site; {@link #site} reads it back. */
    public static String body(SiteKey site) {
        return "{\"site\":\"" + site.value().replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    }

    /** The site a wake-up message names. */
    public static SiteKey site(String body) {
        String prefix = "{\"site\":\"";
        if (body == null || !body.startsWith(prefix) || !body.endsWith("\"}")) {
            throw new IllegalArgumentException("not a wake-up message: " + body);
        }
        String value = body.substring(prefix.length(), body.length() - 2).replace("\\\"", "\"").replace("\\\\", "\\");
        if (value.isBlank()) {
            throw new IllegalArgumentException("a wake-up message names no site: " + body);
        }
        return new SiteKey(value);
    }
}
