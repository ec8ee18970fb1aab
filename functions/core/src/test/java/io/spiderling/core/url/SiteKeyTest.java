package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class SiteKeyTest {

    private static final String SHA256_ID = "sha256-[0-9a-f]{64}";

    @Test
    void of_whenUrlHasPort_isHostWithoutPort() {
        NormalizedUrl url = NormalizedUrl.parse("https://shop.example.com:8443/a");

        assertEquals(new SiteKey("shop.example.com"), SiteKey.of(url));
        assertEquals(SiteKey.of(url), url.siteKey());
    }

    @ParameterizedTest
    @ValueSource(strings = {"example.com", "[2001:db8::1]", "xn--bcher-kva.example", "my_host.example.com"})
    void messageGroupId_whenValueIsAllowed_isValue(String value) {
        assertEquals(value, new SiteKey(value).messageGroupId());
    }

    @Test
    void messageGroupId_whenValueIs128Characters_isValue() {
        String value = "a".repeat(59) + "." + "b".repeat(63) + ".test";

        assertEquals(value, new SiteKey(value).messageGroupId());
    }

    @Test
    void messageGroupId_whenValueIsLongerThan128Characters_isStableSha256Id() {
        String value = "a".repeat(63) + "." + "b".repeat(63) + ".test";

        String id = new SiteKey(value).messageGroupId();

        assertTrue(id.matches(SHA256_ID), id);
        assertEquals(id, new SiteKey(value).messageGroupId());
        assertNotEquals(id, new SiteKey(value + "x").messageGroupId());
    }

    @ParameterizedTest
    @ValueSource(strings = {"bücher.example", "a b", "tab\there"})
    void messageGroupId_whenValueHasCharactersSqsRefuses_isSha256Id(String value) {
        assertTrue(new SiteKey(value).messageGroupId().matches(SHA256_ID));
    }

    @Test
    void messageGroupId_whenHashed_isSha256OfValue() {
        // printf %s 'a b' | sha256sum
        assertEquals("sha256-c8687a08aa5d6ed2044328fa6a697ab8e96dc34291e8c2034ae8c38e6fcc6d65",
                new SiteKey("a b").messageGroupId());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "  "})
    void constructor_whenBlank_throws(String value) {
        assertThrows(IllegalArgumentException.class, () -> new SiteKey(value));
    }
}
