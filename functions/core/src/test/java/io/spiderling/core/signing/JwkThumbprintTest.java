package io.spiderling.core.signing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class JwkThumbprintTest {

    @Test
    void ofOkp_whenRfc8037A3Key_expectsTheRfcThumbprint() {
        assertEquals(Rfc9421Keys.RFC8037_THUMBPRINT, JwkThumbprint.ofOkp("Ed25519", Rfc9421Keys.RFC8037_X));
    }

    @Test
    void of_whenPrivateKeyRead_expectsKeyIdIsTheThumbprint() {
        assertEquals(Rfc9421Keys.RFC8037_THUMBPRINT, Rfc9421Keys.rfc8037(Optional.empty(), Optional.empty()).keyId());
    }

    @Test
    void of_whenDAndXOfDifferentKeys_refuses() {
        assertThrows(IllegalArgumentException.class, () -> SigningKey.of(Rfc9421Keys.ED25519_D, Rfc9421Keys.RFC8037_X,
                Optional.empty(), Optional.empty()));
    }
}
