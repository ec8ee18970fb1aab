package io.spiderling.core.signing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class KeyRingTest {

    private static final SigningKey OLD = Rfc9421Keys.rfc9421(Optional.of(Instant.ofEpochSecond(1000)),
            Optional.of(Instant.ofEpochSecond(5000)));
    private static final SigningKey NEW = Rfc9421Keys.rfc8037(Optional.of(Instant.ofEpochSecond(4000)),
            Optional.empty());
    private static final Map<String, SigningKey> NAMED = Map.of("old", OLD, "new", NEW);
    private static final KeyRing RING = KeyRing.of(List.of(OLD, NEW));

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/signing/rotation.csv", numLinesToSkip = 2)
    void signingKeyAndPublished_whenRotating_expectsTheTable(String name, long now, String signs, String published) {
        Instant at = Instant.ofEpochSecond(now);

        assertEquals(signs.equals("none") ? Optional.empty() : Optional.of(NAMED.get(signs)), RING.signingKey(at));
        assertEquals(Arrays.stream(published.split(" ")).map(NAMED::get).toList(), RING.published(at));
    }

    @Test
    void parse_whenJwksWithValidity_expectsKeysWithTheirTimes() {
        KeyRing ring = KeyRing.parse("""
                {"keys":[{"kty":"OKP","crv":"Ed25519","d":"%s","x":"%s","nbf":1000,"exp":5000}]}
                """.formatted(Rfc9421Keys.RFC8037_D, Rfc9421Keys.RFC8037_X));

        SigningKey key = ring.all().get(0);
        assertEquals(Rfc9421Keys.RFC8037_THUMBPRINT, key.keyId());
        assertEquals(Optional.of(Instant.ofEpochSecond(1000)), key.notBefore());
        assertEquals(Optional.of(Instant.ofEpochSecond(5000)), key.expiresAt());
    }

    @Test
    void parse_whenNotAnEd25519PrivateKey_refusesWithTheReason() {
        assertThrows(IllegalArgumentException.class, () -> KeyRing.parse("{\"keys\":[]}"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KeyRing.parse(
                "{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"" + Rfc9421Keys.RFC8037_X + "\"}]}"))
                .getMessage().contains("private d"));
        assertThrows(IllegalArgumentException.class, () -> KeyRing.parse(
                "{\"keys\":[{\"kty\":\"EC\",\"crv\":\"P-256\",\"d\":\"a\",\"x\":\"b\"}]}"));
        assertThrows(IllegalArgumentException.class, () -> KeyRing.parse("not json"));
    }

    @Test
    void newPrivateJwk_whenGenerated_expectsAKeyTheRingReads() {
        String jwks = KeyRing.withKey(Optional.empty(), KeyRing.newPrivateJwk(
                Optional.of(Instant.ofEpochSecond(1000)), Optional.empty()));

        KeyRing ring = KeyRing.parse(jwks);
        assertEquals(1, ring.all().size());
        assertFalse(ring.signingKey(Instant.ofEpochSecond(2000)).isEmpty());
        String two = KeyRing.withKey(Optional.of(jwks), KeyRing.newPrivateJwk(Optional.empty(), Optional.empty()));
        assertEquals(2, KeyRing.parse(two).all().size());
    }
}
