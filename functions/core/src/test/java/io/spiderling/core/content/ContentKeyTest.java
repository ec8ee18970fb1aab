package io.spiderling.core.content;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ContentKeyTest {

    private static final String SHA = "2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a067";

    @Test
    void forSha256_whenValidSha_isPrefixedByFirstTwoHexChars() {
        assertEquals("content/2a/" + SHA, ContentKey.forSha256(SHA));
    }

    @Test
    void sha256Of_whenContentKey_returnsTheHashItWasMadeFrom() {
        assertEquals(Optional.of(SHA), ContentKey.sha256Of(ContentKey.forSha256(SHA)));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "2a1b", SHA + "0", "2A1B402420EF46577471CDC7409B0FA2C6A204DB316E59ADE2D805435489A067",
            "2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a06g"})
    void forSha256_whenNot64LowerCaseHexChars_throws(String urlHash) {
        assertThrows(IllegalArgumentException.class, () -> ContentKey.forSha256(urlHash));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "content/", "robots/2a/" + SHA, "content/2b/" + SHA, "content/2a/" + SHA + ".html",
            "content/2a/" + SHA + "/", "/content/2a/" + SHA, "content/2A/" + SHA, "content/2a/2a1b"})
    void sha256Of_whenNotAContentKey_isEmpty(String key) {
        assertEquals(Optional.empty(), ContentKey.sha256Of(key));
    }
}
