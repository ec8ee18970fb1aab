package io.spiderling.core.content;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HashingTest {

    @ParameterizedTest(name = "[{0}]")
    @CsvSource({
            // FIPS 180-2 test vector and the empty string
            "abc, ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "'', e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    })
    void sha256Hex_whenKnownVector_matches(String input, String expected) {
        assertEquals(expected, Hashing.sha256Hex(input));
        assertEquals(expected, Hashing.sha256Hex(input.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @CsvSource({"bücher", "日本語"})
    void sha256Hex_whenNonAsciiString_hashesUtf8Bytes(String input) {
        assertEquals(Hashing.sha256Hex(input.getBytes(StandardCharsets.UTF_8)), Hashing.sha256Hex(input));
    }
}
