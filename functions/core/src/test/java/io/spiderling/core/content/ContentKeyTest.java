package io.spiderling.core.content;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ContentKeyTest {

    private static final String HASH = "2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a067";

    @Test
    void forUrlHash_whenValidHash_isPrefixedByFirstTwoHexChars() {
        assertEquals("content/2a/" + HASH, ContentKey.forUrlHash(HASH));
    }

    @Test
    void urlHashOf_whenContentKey_returnsTheHashItWasMadeFrom() {
        assertEquals(Optional.of(HASH), ContentKey.urlHashOf(ContentKey.forUrlHash(HASH)));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "2a1b", HASH + "0", "2A1B402420EF46577471CDC7409B0FA2C6A204DB316E59ADE2D805435489A067",
            "2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a06g"})
    void forUrlHash_whenNot64LowerCaseHexChars_throws(String urlHash) {
        assertThrows(IllegalArgumentException.class, () -> ContentKey.forUrlHash(urlHash));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "content/", "robots/2a/" + HASH, "content/2b/" + HASH, "content/2a/" + HASH + ".html",
            "content/2a/" + HASH + "/", "/content/2a/" + HASH, "content/2A/" + HASH, "content/2a/2a1b"})
    void urlHashOf_whenNotAContentKey_isEmpty(String key) {
        assertEquals(Optional.empty(), ContentKey.urlHashOf(key));
    }
}
