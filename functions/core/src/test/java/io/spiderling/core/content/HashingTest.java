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

    @ParameterizedTest(name = "[{0}]")
    @CsvSource({
            // RFC 4648 section 10, padding left off
            "'', ''", "f, MY", "fo, MZXQ", "foo, MZXW6", "foob, MZXW6YQ", "fooba, MZXW6YTB", "foobar, MZXW6YTBOI",
    })
    void base32_whenRfc4648Vector_matchesWithoutPadding(String input, String expected) {
        assertEquals(expected, Hashing.base32(input.getBytes(StandardCharsets.US_ASCII)));
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource({
            // the SHA-1 of nothing, as every WARC tool writes it; and FIPS 180-1's "abc" (a9993e36…9cd0d89d)
            "'', sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
            "abc, sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5",
    })
    void warcSha1_whenKnownVector_isBase32OfTheSha1(String input, String expected) {
        assertEquals(expected, Hashing.warcSha1(input.getBytes(StandardCharsets.US_ASCII)));
    }
}
