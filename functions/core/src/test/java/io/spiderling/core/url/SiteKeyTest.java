package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.url.NormalizationResult.Accepted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class SiteKeyTest {

    private static final String SHA256_ID = "sha256-[0-9a-f]{64}";

    private final UrlNormalizer normalizer = UrlNormalizer.create();

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvFileSource(resources = "/url/site-key-cases.csv", numLinesToSkip = 1)
    void of_whenTableCase_givesExpectedSiteKey(String rule, String input, String expected) {
        NormalizedUrl url = assertInstanceOf(Accepted.class, normalizer.normalize(input), rule).url();

        assertEquals(new SiteKey(expected), SiteKey.of(url), rule);
        assertEquals(SiteKey.of(url), url.siteKey(), rule);
        assertEquals(expected, SiteKey.of(url).messageGroupId(), rule + ": the key is its own MessageGroupId");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "Example.COM,           example.com",
            "www.example.com.,      example.com",
            "alice.github.io.,      alice.github.io",
            "LOCALHOST.,            localhost",
    })
    void of_whenHostNotInNormalForm_givesSameKeyAsNormalForm(String host, String expected) {
        NormalizedUrl url = new NormalizedUrl("http://" + host + "/", "http", host, 80);

        assertEquals(new SiteKey(expected), SiteKey.of(url));
    }

    @Test
    void of_whenSubdomainsOfOneDomain_sharesOneMessageGroup() {
        SiteKey www = NormalizedUrl.parse("https://www.example.com/a").siteKey();
        SiteKey shop = NormalizedUrl.parse("http://shop.example.com:8080/b").siteKey();

        assertEquals(www, shop);
        assertEquals(www.messageGroupId(), shop.messageGroupId());
    }

    @Test
    void of_whenLoopbackAddressesDiffer_givesOneSiteEach() {
        assertNotEquals(NormalizedUrl.parse("http://127.0.0.2:8080/").siteKey(),
                NormalizedUrl.parse("http://127.0.0.3:8080/").siteKey());
    }

    @ParameterizedTest
    @ValueSource(strings = {"example.com", "[2001:db8::1]", "xn--bcher-kva.example", "my_host.example.com"})
    void messageGroupId_whenValueIsAllowed_isValue(String value) {
        assertEquals(value, new SiteKey(value).messageGroupId());
    }

    @Test
    void messageGroupId_whenValueIs124Characters_isValueWithRoomForALaneSuffix() {
        String value = "a".repeat(55) + "." + "b".repeat(63) + ".test";

        assertEquals(value, new SiteKey(value).messageGroupId());
        assertTrue(new SiteKey(value + "x").messageGroupId().matches(SHA256_ID), "125 characters are hashed");
    }

    @Test
    void messageGroupId_whenValueIsLongerThan124Characters_isStableSha256Id() {
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
