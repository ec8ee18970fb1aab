package io.spiderling.core.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.notify.WebhookSignature.Headers;
import io.spiderling.core.notify.WebhookSignature.Verification;
import io.spiderling.core.notify.WebhookSignature.Verification.Invalid;
import io.spiderling.core.notify.WebhookSignature.Verification.Reason;
import io.spiderling.core.notify.WebhookSignature.Verification.Valid;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookSignatureTest {

    private static final String SECRET = "whsec-0123456789abcdef";
    private static final String OTHER_SECRET = "whsec-rotated-fedcba9876543210";
    private static final String EVENT_ID = "batch-42:completed";
    private static final Instant SENT = Instant.parse("2026-01-01T00:00:00Z"); // 1767225600
    private static final byte[] BODY = "{\"eventId\":\"batch-42:completed\"}".getBytes(StandardCharsets.UTF_8);
    private static final Duration TOLERANCE = Duration.ofMinutes(5);

    /**
     * Computed once, outside Java, so the wire format cannot drift with the code:
     * <pre>
     * printf '%s' '1767225600.batch-42:completed.{"eventId":"batch-42:completed"}' \
     *   | openssl dgst -sha256 -hmac 'whsec-0123456789abcdef'
     * </pre>
     */
    private static final String OPENSSL_HEX = "b49c1bd43694c3b57498c70d82989a3876e135e984cb30268a934e2c55f004ec";
    /** The same command with {@code -hmac 'whsec-rotated-fedcba9876543210'}. */
    private static final String OPENSSL_HEX_OTHER_SECRET =
            "2fcbc55e9353946667318fb820f16c58db8711206c3bede780042eb090a44e4e";

    @Test
    void sign_whenKnownVector_matchesOpensslOutput() {
        Headers headers = WebhookSignature.sign(BODY, SECRET, EVENT_ID, SENT);

        assertEquals(new Headers(EVENT_ID, "1767225600", "v1=" + OPENSSL_HEX), headers);
    }

    @ParameterizedTest(name = "{0} / {1} / {2}")
    @CsvSource({
            "s3cret-s3cret-s3cret, b-1:completed, 2026-03-04T05:06:07Z, '{}'",
            "a-secret-with-ünïcode, b.with.dots:progress:12, 2030-12-31T23:59:59Z, '{\"total\":3}'",
            "x, id, 1970-01-01T00:00:00Z, ''",
    })
    void sign_whenAnyInput_matchesHmacComputedWithJavaxCrypto(String secret, String eventId, Instant at, String body)
            throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((at.getEpochSecond() + "." + eventId + ".").getBytes(StandardCharsets.UTF_8));
        String expected = "v1=" + HexFormat.of().formatHex(mac.doFinal(bytes));

        assertEquals(expected, WebhookSignature.sign(bytes, secret, eventId, at).signature());
    }

    @Test
    void sign_whenTwoSecrets_sendsOneValuePerSecretInOrder() {
        Headers headers = WebhookSignature.sign(BODY, List.of(OTHER_SECRET, SECRET), EVENT_ID, SENT);

        assertEquals("v1=" + OPENSSL_HEX_OTHER_SECRET + ",v1=" + OPENSSL_HEX, headers.signature());
    }

    @Test
    void sign_whenTimestampHasAFraction_sendsWholeSecondsAndStillVerifies() {
        Instant at = SENT.plusMillis(999);

        Headers headers = WebhookSignature.sign(BODY, SECRET, EVENT_ID, at);

        assertEquals("1767225600", headers.timestamp());
        assertEquals(new Valid(EVENT_ID, SENT), WebhookSignature.verify(headers.asMap(), BODY, SECRET, at, TOLERANCE));
    }

    @Test
    void asMap_whenSigned_givesTheDocumentedHeaderNamesInOrder() {
        Map<String, String> map = WebhookSignature.sign(BODY, SECRET, EVENT_ID, SENT).asMap();

        assertEquals(List.of("Spiderling-Event-Id", "Spiderling-Timestamp", "Spiderling-Signature"),
                List.copyOf(map.keySet()));
        assertEquals(List.of(EVENT_ID, "1767225600", "v1=" + OPENSSL_HEX), List.copyOf(map.values()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "line\r\nInjected: yes", "ünïcode"})
    void sign_whenEventIdIsNotAHeaderToken_throws(String eventId) {
        assertThrows(IllegalArgumentException.class, () -> WebhookSignature.sign(BODY, SECRET, eventId, SENT));
    }

    @Test
    void sign_whenSecretEmpty_throws() {
        assertThrows(IllegalArgumentException.class, () -> WebhookSignature.sign(BODY, "", EVENT_ID, SENT));
    }

    @Test
    void sign_whenTimestampBefore1970_throws() {
        assertThrows(IllegalArgumentException.class,
                () -> WebhookSignature.sign(BODY, SECRET, EVENT_ID, Instant.EPOCH.minusSeconds(1)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/notify/webhook-verify-cases.csv", numLinesToSkip = 1)
    void verify_whenTableCase_givesExpectedVerification(String rule, String eventId, String timestamp,
            String signature, String body, Instant now, String expected) {
        Map<String, String> headers = new HashMap<>();
        if (eventId != null) {
            headers.put(WebhookSignature.EVENT_ID_HEADER, eventId);
        }
        if (timestamp != null) {
            headers.put(WebhookSignature.TIMESTAMP_HEADER, timestamp);
        }
        if (signature != null) {
            headers.put(WebhookSignature.SIGNATURE_HEADER, signature);
        }

        Verification verification = WebhookSignature.verify(headers, body.getBytes(StandardCharsets.UTF_8), SECRET,
                now, TOLERANCE);

        if (expected.equals("VALID")) {
            assertEquals(new Valid(eventId, Instant.ofEpochSecond(Long.parseLong(timestamp))), verification, rule);
        } else {
            assertEquals(Reason.valueOf(expected), assertInstanceOf(Invalid.class, verification, rule).reason(), rule);
        }
    }

    @Test
    void verify_whenHeaderNamesInAnotherCase_findsThem() {
        Map<String, String> lower = new HashMap<>();
        WebhookSignature.sign(BODY, SECRET, EVENT_ID, SENT).asMap()
                .forEach((name, value) -> lower.put(name.toLowerCase(Locale.ROOT), value));

        assertTrue(WebhookSignature.verify(lower, BODY, SECRET, SENT, TOLERANCE).valid());
    }

    @Test
    void verify_whenSignedWithOldAndNewSecret_acceptsEitherSecret() {
        Map<String, String> headers =
                WebhookSignature.sign(BODY, List.of(SECRET, OTHER_SECRET), EVENT_ID, SENT).asMap();

        assertTrue(WebhookSignature.verify(headers, BODY, SECRET, SENT, TOLERANCE).valid());
        assertTrue(WebhookSignature.verify(headers, BODY, OTHER_SECRET, SENT, TOLERANCE).valid());
        assertEquals(Reason.MISMATCH, assertInstanceOf(Invalid.class,
                WebhookSignature.verify(headers, BODY, "a-third-secret-entirely", SENT, TOLERANCE)).reason());
    }

    @Test
    void verify_whenMismatch_detailNamesNeitherSecretNorExpectedSignature() {
        Map<String, String> headers = WebhookSignature.sign(BODY, OTHER_SECRET, EVENT_ID, SENT).asMap();

        String detail = assertInstanceOf(Invalid.class,
                WebhookSignature.verify(headers, BODY, SECRET, SENT, TOLERANCE)).detail();

        assertEquals("no v1 signature matches", detail);
    }

    @Test
    void verify_whenToleranceNegative_throws() {
        Map<String, String> headers = WebhookSignature.sign(BODY, SECRET, EVENT_ID, SENT).asMap();

        assertThrows(IllegalArgumentException.class,
                () -> WebhookSignature.verify(headers, BODY, SECRET, SENT, Duration.ofSeconds(-1)));
    }
}
