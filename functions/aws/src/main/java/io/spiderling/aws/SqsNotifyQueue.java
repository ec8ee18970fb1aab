package io.spiderling.aws;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spiderling.core.change.ChangeState;
import io.spiderling.core.change.ContentChange;
import io.spiderling.core.notify.UrlChangedEvent;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.url.NormalizedUrl;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@link NotifyQueue} on a standard SQS queue, {@code {"batchId":…,"kind":"completed"|"progress"|"changed",
 * "sequence":n,"attempt":n}}, and for a change {@code "change":{…}}, the listeners' {@code url.changed} event as
 * {@link UrlChangedEvent#toJson()} writes it; the delay is the message's DelaySeconds (whole seconds, rounded up).
 * Standard, not FIFO: only a FIFO queue refuses per-message delays, and a duplicate notification is dropped by the
 * notify stage or, for a change, by the receiver's check of its event id. A change's message is a few hundred bytes
 * besides its URL (at most 2,048 characters), far below SQS's 256 KB; {@link #encode} checks it all the same.
 */
public final class SqsNotifyQueue implements NotifyQueue {

    /** SQS's largest message body. */
    static final int MAX_BODY_BYTES = 256 * 1024;

    private static final Pattern BATCH_ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");
    private static final Set<String> FIELDS = Set.of("batchId", "kind", "sequence", "attempt", "change");
    private static final Set<String> CHANGE_FIELDS = Set.of("eventId", "type", "url", "urlHash", "contentSha256",
            "fetchedAt", "changeDigest", "previousDigest", "previousFetchedAt");
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsNotifyQueue(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    /**
     * Batch ids are letters, digits and {@code ._-}, so nothing needs escaping; a change is written by its event's
     * own JSON writer.
     *
     * @throws IllegalArgumentException for a body over SQS's 256 KB, which no message of today's events reaches
     */
    public static String encode(Message m) {
        String body = "{\"batchId\":\"" + m.batchId() + "\",\"kind\":\"" + m.kind().wireName() + "\",\"sequence\":"
                + m.sequence() + ",\"attempt\":" + m.attempt()
                + m.change().map(c -> ",\"change\":" + new String(c.toJson(), StandardCharsets.UTF_8)).orElse("")
                + "}";
        if (body.getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
            throw new IllegalArgumentException("a notify message of " + body.length() + " characters is over SQS's "
                    + MAX_BODY_BYTES + " bytes");
        }
        return body;
    }

    /** Empty for a body {@link #encode} did not write. */
    public static Optional<Message> decode(String body) {
        if (body == null) {
            return Optional.empty();
        }
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.isObject() || !only(node, FIELDS)) {
                return Optional.empty();
            }
            String batchId = text(node, "batchId");
            JsonNode sequence = node.path("sequence");
            if (!BATCH_ID.matcher(batchId).matches() || !sequence.isIntegralNumber() || !sequence.canConvertToLong()
                    || sequence.longValue() < 0 || !node.path("attempt").isInt()) {
                return Optional.empty();
            }
            Optional<UrlChangedEvent> change = node.has("change") ? Optional.of(change(node.get("change")))
                    : Optional.empty();
            return Optional.of(new Message(batchId, Kind.fromWireName(text(node, "kind")),
                    sequence.longValue(), node.get("attempt").intValue(), change));
        } catch (JsonProcessingException | IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The event {@link UrlChangedEvent#toJson()} wrote; its id and hash must be the ones its URL and time give. */
    private static UrlChangedEvent change(JsonNode node) {
        if (!node.isObject() || !only(node, CHANGE_FIELDS) || !UrlChangedEvent.TYPE.equals(text(node, "type"))) {
            throw new IllegalArgumentException("not a url.changed event");
        }
        NormalizedUrl url = NormalizedUrl.parse(text(node, "url"));
        Instant fetchedAt = Instant.parse(text(node, "fetchedAt"));
        ContentChange change = ContentChange.of(text(node, "changeDigest"), optionalText(node, "previousDigest"),
                optionalText(node, "previousFetchedAt").map(Instant::parse));
        if (change.state() != ChangeState.CHANGED) {
            throw new IllegalArgumentException("a url.changed event whose digests say " + change.state());
        }
        UrlChangedEvent event = new UrlChangedEvent(url, text(node, "contentSha256"), fetchedAt, change);
        if (!event.id().equals(text(node, "eventId")) || !url.urlHash().equals(text(node, "urlHash"))) {
            throw new IllegalArgumentException("a url.changed event whose id or hash is not its URL's");
        }
        return event;
    }

    private static boolean only(JsonNode node, Set<String> allowed) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            if (!allowed.contains(names.next())) {
                return false;
            }
        }
        return true;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a string");
        }
        return value.textValue();
    }

    private static Optional<String> optionalText(JsonNode node, String field) {
        return node.has(field) ? Optional.of(text(node, field)) : Optional.empty();
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
