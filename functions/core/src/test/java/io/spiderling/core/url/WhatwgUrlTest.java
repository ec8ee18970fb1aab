package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.url.WhatwgUrl.ParseError;
import io.spiderling.core.url.WhatwgUrl.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The parser's API; its conformance to the standard is WhatwgConformanceTest's. */
class WhatwgUrlTest {

    @Test
    void parse_whenAbsoluteUrl_exposesParts() {
        WhatwgUrl url = parsed("\t HTTPS://Us%65r:p w@EXAMPLE.com:8443/a/../b c?q=1 2#f g\n");

        assertEquals(WhatwgUrl.builder().scheme("https").username("Us%65r").password("p%20w").host("example.com")
                .port(8443).path("/b%20c").query("q=1%202").fragment("f%20g").build(), url);
        assertEquals("https://Us%65r:p%20w@example.com:8443/b%20c?q=1%202#f%20g", url.href());
        assertEquals("https://Us%65r:p%20w@example.com:8443/b%20c?q=1%202", url.hrefWithoutFragment());
        assertEquals("/b%20c?q=1%202", url.target());
        assertEquals(8443, url.effectivePort());
    }

    @Test
    void parse_whenDefaultPortAndNoQueryOrFragment_hasNone() {
        WhatwgUrl url = parsed("http://example.com:80");

        assertEquals(WhatwgUrl.builder().scheme("http").username("").password("").host("example.com").port(-1)
                .path("/").query(null).fragment(null).build(), url);
        assertEquals(80, url.effectivePort());
        assertEquals("/", url.target());
    }

    @Test
    void parse_whenEmptyQueryAndFragment_keepsThem() {
        WhatwgUrl url = parsed("http://example.com/?#");

        assertEquals("", url.query());
        assertEquals("", url.fragment());
        assertEquals("http://example.com/?#", url.href());
        assertEquals("/?", url.target());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "ftp://example.com/         | ftp",
            "FILE:///etc/passwd         | file",
            "ws://example.com/          | ws",
            "mailto:someone@example.com | mailto",
            "javascript:alert(1)        | javascript",
            "sc://x/                    | sc",
    })
    void parse_whenOtherScheme_isNotHttp(String input, String scheme) {
        assertEquals(new Result.NotHttp(scheme), WhatwgUrl.parse(input));
        assertEquals(new Result.NotHttp(scheme), WhatwgUrl.parse(input, "http://example.com/"));
    }

    @Test
    void parse_whenRelativeAgainstOtherScheme_isNotHttpOfTheBase() {
        assertEquals(new Result.NotHttp("sc"), WhatwgUrl.parse("a/b", "sc://host/"));
        assertEquals("http://x/", WhatwgUrl.parse("http://x", "sc://host/") instanceof Result.Parsed(WhatwgUrl url)
                ? url.href() : null);
    }

    @ParameterizedTest(name = "{0} against {1}")
    @CsvSource(delimiter = '|', value = {
            "?a=b&c=d    | http://example.org/foo/bar   | http://example.org/foo/bar?a=b&c=d",
            "?           | http://example.org/foo/bar   | http://example.org/foo/bar?",
            "??a=b       | http://example.org/foo/bar   | http://example.org/foo/bar??a=b",
            "///host/x   | http://example.org/foo/bar   | http://host/x",
            "/a/ /c      | http://example.org/foo/bar   | http://example.org/a/%20/c",
            "#x          | http://example.org/a?q#y     | http://example.org/a?q#x",
            "..          | http://example.org/a/b/c     | http://example.org/a/",
            "http:x      | http://example.org/a/b       | http://example.org/a/x",
            "https:x     | http://example.org/a/b       | https://x/",
            "//h:8080    | https://example.org/a        | https://h:8080/",
    })
    void parse_whenRelativeReference_resolvesAgainstBase(String input, String base, String href) {
        Result parsed = WhatwgUrl.parse(input, base);

        assertEquals(href, assertInstanceOf(Result.Parsed.class, parsed, input).url().href());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "example.com/a          | MISSING_SCHEME",
            "//example.com/a        | MISSING_SCHEME",
            "http://                | MISSING_HOST",
            "http://:80/            | MISSING_HOST",
            "http://user@/          | MISSING_HOST",
            "http://a b/            | INVALID_HOST",
            "http://a%00b/          | INVALID_HOST",
            "http://[::1/           | INVALID_HOST",
            "http://[::%31]/        | INVALID_HOST",
            "http://1.2.3.4.5/      | INVALID_HOST",
            "http://xn--/           | INVALID_HOST",
            "http://example.com:8o/ | INVALID_PORT",
            "http://example.com:-1/ | INVALID_PORT",
            "http://example.com:65536/ | PORT_OUT_OF_RANGE",
    })
    void parse_whenStandardRejects_namesTheError(String input, ParseError error) {
        assertEquals(new Result.Failure(error), WhatwgUrl.parse(input));
    }

    @Test
    void parse_whenUnpairedSurrogate_isRefused() {
        assertEquals(new Result.Failure(ParseError.UNPAIRED_SURROGATE), WhatwgUrl.parse("http://example.com/\ud800"));
        assertEquals("http://example.com/%F0%9F%98%80", parsed("http://example.com/\ud83d\ude00").href());
    }

    @Test
    void parse_whenBaseDoesNotParse_isInvalidBase() {
        assertEquals(new Result.Failure(ParseError.INVALID_BASE), WhatwgUrl.parse("/a", "http://a b/"));
        assertEquals(new Result.Failure(ParseError.INVALID_BASE), WhatwgUrl.parse("http://x/", "http://a b/"));
    }

    @Test
    void parse_whenNull_isMissingScheme() {
        assertEquals(new Result.Failure(ParseError.MISSING_SCHEME), WhatwgUrl.parse(null));
    }

    @Test
    void new_whenSchemeIsNotHttp_throws() {
        assertThrows(IllegalArgumentException.class, () -> WhatwgUrl.builder().scheme("ftp").username("").password("")
                .host("x").port(-1).path("/").query(null).fragment(null).build());
    }

    private static WhatwgUrl parsed(String input) {
        return assertInstanceOf(Result.Parsed.class, WhatwgUrl.parse(input), input).url();
    }
}
