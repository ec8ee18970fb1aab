package io.spiderling.core.signing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequestSignerTest {

    private static final URI DIRECTORY =
            URI.create("https://bot.example/.well-known/http-message-signatures-directory");
    private static final byte[] NONCE = new byte[NonceSource.RECOMMENDED_BYTES];
    private static final SigningKey KEY = Rfc9421Keys.rfc9421(Optional.empty(), Optional.of(
            Instant.ofEpochSecond(1_700_000_100)));

    private final RequestSigner signer = new RequestSigner(() -> KeyRing.of(List.of(KEY)), DIRECTORY,
            Duration.ofMinutes(5), () -> NONCE.clone());

    @Test
    void sign_whenKeyValid_expectsTheThreeHeadersOfTheArchitectureDraft() {
        SignatureHeaders headers = signer.sign("example.com:8443", Instant.ofEpochMilli(1_700_000_000_900L))
                .orElseThrow();

        String nonce = Base64.getUrlEncoder().withoutPadding().encodeToString(NONCE);
        assertEquals("\"" + DIRECTORY + "\"", headers.signatureAgent());
        assertEquals("sig1=(\"@authority\" \"signature-agent\");created=1700000000;expires=1700000100;keyid=\""
                + KEY.keyId() + "\";nonce=\"" + nonce + "\";tag=\"web-bot-auth\"", headers.signatureInput());
        assertTrue(headers.signature().matches("sig1=:[A-Za-z0-9+/]{86}==:"), headers.signature());
    }

    @Test
    void sign_whenKeyExpiresSooner_expectsExpiresCutAtTheKey() {
        SignatureHeaders headers = signer.sign("example.com", Instant.ofEpochSecond(1_700_000_000)).orElseThrow();

        assertTrue(headers.signatureInput().contains(";expires=1700000100;"), headers.signatureInput());
    }

    @Test
    void sign_whenSigned_expectsSignatureOverTheBaseOfTheSentValues() throws Exception {
        Instant now = Instant.ofEpochSecond(1_700_000_000);
        SignatureHeaders headers = signer.sign("example.com", now).orElseThrow();

        String input = headers.signatureInput().substring("sig1=".length());
        String base = "\"@authority\": example.com\n\"signature-agent\": " + headers.signatureAgent()
                + "\n\"@signature-params\": " + input;
        String signature = headers.signature().substring("sig1=:".length(), headers.signature().length() - 1);
        assertEquals(signature, Base64.getEncoder().encodeToString(KEY.sign(base.getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void sign_whenNoKeyValid_expectsNothing() {
        assertFalse(signer.sign("example.com", Instant.ofEpochSecond(1_700_000_100)).isPresent());
    }

    @Test
    void of_whenAuthorityHasDefaultPort_expectsPortLeftOut() {
        assertEquals("example.com", Authority.of("https", "Example.COM", 443));
        assertEquals("example.com:8080", Authority.of("http", "example.com", 8080));
        assertEquals("[::1]:443", Authority.of("http", "[::1]", 443));
    }

    @Test
    void response_whenDirectory_expectsPublicKeysAndOneSignaturePerKey() {
        KeyDirectory directory = new KeyDirectory(() -> KeyRing.of(List.of(KEY,
                Rfc9421Keys.rfc8037(Optional.empty(), Optional.empty()))), Duration.ofHours(1));

        KeyDirectory.Response response = directory.response("bot.example", Instant.ofEpochSecond(1_700_000_000));

        assertFalse(response.body().contains("\"d\""), response.body());
        assertTrue(response.body().contains("\"kid\":\"" + Rfc9421Keys.RFC8037_THUMBPRINT + "\""));
        Map<String, String> headers = response.headers();
        assertEquals(KeyDirectory.MEDIA_TYPE, headers.get("Content-Type"));
        assertEquals("binding0=(\"@authority\";req);created=1700000000;expires=1700000100;keyid=\"" + KEY.keyId()
                + "\";tag=\"http-message-signatures-directory\", binding1=(\"@authority\";req);created=1700000000"
                + ";expires=1700003600;keyid=\"" + Rfc9421Keys.RFC8037_THUMBPRINT
                + "\";tag=\"http-message-signatures-directory\"", headers.get("Signature-Input"));
        assertTrue(headers.get("Signature").matches("binding0=:[^:]+:, binding1=:[^:]+:"), headers.get("Signature"));
    }
}
