package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestUrlTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "https://example.com:8443/a?b=2&a=1 | https | example.com    | 8443 | /a?b=2&a=1",
            "http://example.com/                | http  | example.com    | 80   | /",
            "https://example.com/a?             | https | example.com    | 443  | /a?",
            "http://[2001:db8::1]:8080/x        | http  | [2001:db8::1]  | 8080 | /x",
            "http://127.0.0.1/%7e?q=%41         | http  | 127.0.0.1      | 80   | /%7e?q=%41",
            "http://example.com:0/              | http  | example.com    | 0    | /",
    })
    void parse_whenRequestUrl_exposesParts(String value, String scheme, String host, int port, String target) {
        assertEquals(new RequestUrl(value, scheme, host, port, target), RequestUrl.parse(value));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "/relative", "example.com/a", "ftp://example.com/", "HTTP://example.com/",
            "http://example.com", "http://Example.com/", "http://example.com:80/", "http://example.com/#",
            "http://example.com/a#b", "http://user@example.com/", "http://example.com/a b", "http://example.com/a/../b",
            " http://example.com/", "http://[::ffff:127.0.0.1]/"})
    void parse_whenNotASerializedRequestUrl_throws(String value) {
        assertThrows(IllegalArgumentException.class, () -> RequestUrl.parse(value));
    }

    @Test
    void new_whenTargetIsNotTheEndOfTheValue_throws() {
        assertThrows(IllegalArgumentException.class,
                () -> new RequestUrl("http://example.com/a", "http", "example.com", 80, "/b"));
    }

    @Test
    void toString_whenCalled_isValue() {
        assertEquals("http://example.com/a?b", RequestUrl.parse("http://example.com/a?b").toString());
    }
}
