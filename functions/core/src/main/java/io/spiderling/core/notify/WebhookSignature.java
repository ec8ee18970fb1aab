package io.spiderling.core.notify;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature on a webhook delivery, so a receiver can tell that a POST came from Spiderling, was meant for it, and
 * is recent. Every delivery carries three headers:
 * <pre>
 *   Spiderling-Event-Id:  batch-42:completed
 *   Spiderling-Timestamp: 1767225600
 *   Spiderling-Signature: v1=5f0c…e1 (64 lower-case hex digits)
 * </pre>
 * where the signature is HMAC-SHA256, keyed with the client's webhook secret (its UTF-8 bytes), over the bytes of
 * {@code "<timestamp>.<event id>."} followed by the raw request body. While a secret is being rotated the header
 * carries one {@code v1=} value per secret, separated by commas.
 *
 * <p><b>The receiver's recipe</b> ({@link #verify} does exactly this):
 * <ol>
 *   <li>Read the three headers (names are case-insensitive) and the body as raw bytes, before any JSON parsing or
 *       re-encoding: a single changed byte changes the signature.
 *   <li>Compute {@code hex(HMAC-SHA256(secret, timestamp + "." + eventId + "." + body))}, with the timestamp and the
 *       event id exactly as they appear in the headers.
 *   <li>Compare it with each {@code v1=} value of {@code Spiderling-Signature} in constant time (for example
 *       {@link MessageDigest#isEqual}); unknown versions such as {@code v2=} are ignored. Accept if any matches.
 *   <li>Refuse the delivery if the timestamp is more than a few minutes from your clock (five is usual): a captured
 *       delivery cannot be replayed later.
 *   <li>Deduplicate on the event id: deliveries are retried, so the same event can arrive more than once, and an
 *       attacker may replay one within the tolerance. Check that the body's {@code eventId} is the header's: event
 *       ids may contain dots, so the signed string alone does not fix where the id ends and the body begins.
 * </ol>
 * With openssl: {@code printf '%s' "$TS.$ID.$BODY" | openssl dgst -sha256 -hmac "$SECRET"}.
 *
 * <p>The timestamp and event id are signed together with the body, not sent beside it, because otherwise an old
 * signed body could be replayed under a fresh timestamp, or the body of one event under the id of another.
 */
public final class WebhookSignature {

    public static final String EVENT_ID_HEADER = "Spiderling-Event-Id";
    public static final String TIMESTAMP_HEADER = "Spiderling-Timestamp";
    public static final String SIGNATURE_HEADER = "Spiderling-Signature";
    /** The prefix of a signature in the current scheme; another scheme would get a new one rather than change this. */
    public static final String VERSION_PREFIX = "v1=";

    private static final String HMAC = "HmacSHA256";
    private static final HexFormat HEX = HexFormat.of();
    /** Header values are visible ASCII, so an event id can never inject a line break or another header. */
    private static final Pattern EVENT_ID = Pattern.compile("[\\x21-\\x7e]{1,256}");
    /** Epoch seconds, digits only: a sign, a fraction or an exponent would give two spellings of one time. */
    private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{1,18}");
    private static final Pattern SIGNATURE = Pattern.compile("[0-9a-fA-F]{64}");

    private WebhookSignature() {}

    /** The header values of one signed delivery, to send as they are. */
    public record Headers(String eventId, String timestamp, String signature) {

        public Headers {
            Objects.requireNonNull(eventId, "eventId");
            Objects.requireNonNull(timestamp, "timestamp");
            Objects.requireNonNull(signature, "signature");
        }

        /** Header name to value, in the order they are documented. */
        public Map<String, String> asMap() {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put(EVENT_ID_HEADER, eventId);
            headers.put(TIMESTAMP_HEADER, timestamp);
            headers.put(SIGNATURE_HEADER, signature);
            return Collections.unmodifiableMap(headers);
        }
    }

    /** What {@link #verify} found. */
    public sealed interface Verification {

        default boolean valid() {
            return this instanceof Valid;
        }

        /** The body is authentic and recent; {@code eventId} is the one to deduplicate on. */
        record Valid(String eventId, Instant timestamp) implements Verification {

            public Valid {
                Objects.requireNonNull(eventId, "eventId");
                Objects.requireNonNull(timestamp, "timestamp");
            }
        }

        /**
         * @param reason the class of failure, for a receiver to count or switch on
         * @param detail one line for a log; never contains the secret or the expected signature
         */
        record Invalid(Reason reason, String detail) implements Verification {

            public Invalid {
                Objects.requireNonNull(reason, "reason");
                Objects.requireNonNull(detail, "detail");
            }
        }

        enum Reason {
            /** One of the three headers is absent or blank. */
            MISSING_HEADER,
            /** A header is present but not in the documented form, or there is no {@code v1=} value. */
            MALFORMED,
            /** The signature matches but the timestamp is further from now than the tolerance: replayed or late. */
            OUTSIDE_TOLERANCE,
            /** No {@code v1=} value matches: wrong secret, or the body, id or timestamp was changed. */
            MISMATCH
        }
    }

    /**
     * Signs one delivery.
     *
     * @param timestamp when the delivery is sent (not when the event happened, so that a retry is signed afresh and
     *     stays inside the receiver's tolerance); sent as whole epoch seconds
     * @throws IllegalArgumentException if the secret is empty, the event id is not 1 to 256 visible ASCII characters,
     *     or the timestamp is before 1970
     */
    public static Headers sign(byte[] body, String secret, String eventId, Instant timestamp) {
        return sign(body, List.of(secret), eventId, timestamp);
    }

    /**
     * Signs one delivery once per secret, for rotation: the receiver accepts it while it knows either secret, so the
     * sender signs with old and new secret until every receiver has switched.
     *
     * @param secrets one or more secrets, in the order their signatures appear in the header
     */
    public static Headers sign(byte[] body, List<String> secrets, String eventId, Instant timestamp) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(timestamp, "timestamp");
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("at least one secret is needed");
        }
        if (!EVENT_ID.matcher(eventId).matches()) {
            throw new IllegalArgumentException("event id must be 1 to 256 visible ASCII characters");
        }
        if (timestamp.getEpochSecond() < 0) {
            throw new IllegalArgumentException("timestamp before 1970: " + timestamp);
        }
        String seconds = Long.toString(timestamp.getEpochSecond());
        StringBuilder signature = new StringBuilder();
        for (String secret : secrets) {
            if (!signature.isEmpty()) {
                signature.append(',');
            }
            signature.append(VERSION_PREFIX).append(HEX.formatHex(hmac(secret, seconds, eventId, body)));
        }
        return new Headers(eventId, seconds, signature.toString());
    }

    /**
     * Checks a delivery as a receiver would; see the recipe in the class comment.
     *
     * <p>The signature is checked before the timestamp, so {@link Verification.Reason#OUTSIDE_TOLERANCE} always means
     * a genuine delivery that is old (replayed, or delayed by a skewed clock), never a forgery.
     *
     * @param headers the request's headers; names are matched without regard to case, values are stripped of
     *     surrounding white space
     * @param tolerance how far the timestamp may be from {@code now}, either way
     * @throws IllegalArgumentException if the secret is empty or the tolerance negative: those are the caller's bugs,
     *     not the sender's
     */
    public static Verification verify(Map<String, String> headers, byte[] body, String secret, Instant now,
            Duration tolerance) {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(now, "now");
        if (tolerance.isNegative()) {
            throw new IllegalArgumentException("tolerance must not be negative, was " + tolerance);
        }
        Map<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, value) -> {
            if (name != null && value != null && !value.isBlank()) {
                byName.put(name, value.strip());
            }
        });
        for (String name : List.of(EVENT_ID_HEADER, TIMESTAMP_HEADER, SIGNATURE_HEADER)) {
            if (!byName.containsKey(name)) {
                return invalid(Verification.Reason.MISSING_HEADER, "missing header " + name);
            }
        }
        String eventId = byName.get(EVENT_ID_HEADER);
        String seconds = byName.get(TIMESTAMP_HEADER);
        if (!TIMESTAMP.matcher(seconds).matches()) {
            return invalid(Verification.Reason.MALFORMED, TIMESTAMP_HEADER + " is not epoch seconds");
        }
        List<byte[]> candidates = new ArrayList<>();
        for (String part : byName.get(SIGNATURE_HEADER).split(",")) {
            String value = part.strip();
            if (!value.startsWith(VERSION_PREFIX)) {
                continue; // another scheme, for a receiver that knows it; not an error here
            }
            String hex = value.substring(VERSION_PREFIX.length());
            if (!SIGNATURE.matcher(hex).matches()) {
                return invalid(Verification.Reason.MALFORMED, SIGNATURE_HEADER + " has a v1 value that is not 64 hex"
                        + " digits");
            }
            candidates.add(HEX.parseHex(hex));
        }
        if (candidates.isEmpty()) {
            return invalid(Verification.Reason.MALFORMED, SIGNATURE_HEADER + " has no v1 value");
        }
        byte[] expected = hmac(secret, seconds, eventId, body);
        boolean matched = false;
        for (byte[] candidate : candidates) {
            // every candidate is compared, so the time taken does not say which one matched
            matched |= MessageDigest.isEqual(expected, candidate);
        }
        if (!matched) {
            return invalid(Verification.Reason.MISMATCH, "no v1 signature matches");
        }
        Instant timestamp = Instant.ofEpochSecond(Long.parseLong(seconds));
        Duration skew = Duration.between(timestamp, now).abs();
        if (skew.compareTo(tolerance) > 0) {
            return invalid(Verification.Reason.OUTSIDE_TOLERANCE, "timestamp is " + skew.toSeconds()
                    + " s from now, more than the tolerance of " + tolerance.toSeconds() + " s");
        }
        return new Verification.Valid(eventId, timestamp);
    }

    private static Verification invalid(Verification.Reason reason, String detail) {
        return new Verification.Invalid(reason, detail);
    }

    private static byte[] hmac(String secret, String seconds, String eventId, byte[] body) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("secret must not be empty");
        }
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), HMAC));
            mac.update((seconds + "." + eventId + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every Java platform must support " + HMAC, e);
        }
    }
}
