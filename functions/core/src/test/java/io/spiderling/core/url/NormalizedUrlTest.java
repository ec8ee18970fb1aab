package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class NormalizedUrlTest {

    @Test
    void urlHash_whenKnownValue_isLowerHexSha256OfUtf8Value() {
        NormalizedUrl url = NormalizedUrl.parse("http://example.com/");

        // printf %s 'http://example.com/' | sha256sum
        assertEquals("2a1b402420ef46577471cdc7409b0fa2c6a204db316e59ade2d805435489a067", url.urlHash());
    }

    @Test
    void parse_whenNormalizedValue_exposesParts() {
        NormalizedUrl url = NormalizedUrl.parse("https://my_host.example.com:8443/a?b=1");

        assertEquals(new NormalizedUrl("https://my_host.example.com:8443/a?b=1", "https", "my_host.example.com", 8443),
                url);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "/relative/path", "example.com/a", "ftp://example.com/", "mailto:a@example.com",
            "HTTP://example.com/", "http://", "http:///a", "http://user@example.com/", "http://Example.com/",
            "http://example.com:80/", "http://example.com./", "http://example.com/#", "http://example.com/a b",
            "http://example.com/a|b", "http://example.com/%zz", "http://[fe80::1%eth0]/", "http://[::1%2531]/",
            "http://[::ffff:7f00:1]/", "http://exa\tmple.com/", " http://example.com/"})
    void parse_whenNotAbsoluteHttpUrlWithValidHost_throws(String value) {
        assertThrows(IllegalArgumentException.class, () -> NormalizedUrl.parse(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com:0/", "http://[::ffff:127.0.0.1]/", "http://a{b}$c/?q=%7C",
            "http://xn--fa-hia.de/", "http://example..com/"})
    void parse_whenKeyTheStandardAccepts_rehydrates(String value) {
        assertEquals(value, NormalizedUrl.parse(value).value());
    }

    @Test
    void toString_whenCalled_isValue() {
        assertEquals("http://example.com/a", NormalizedUrl.parse("http://example.com/a").toString());
    }
}
