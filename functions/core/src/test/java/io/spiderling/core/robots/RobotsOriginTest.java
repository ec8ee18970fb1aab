package io.spiderling.core.robots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.ValueSource;

class RobotsOriginTest {

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvFileSource(resources = "/robots/origin-cases.csv", numLinesToSkip = 1)
    void of_whenTableCase_expectOriginAndRobotsUrl(String rule, String url, String origin, String robotsUrl) {
        RobotsOrigin actual = RobotsOrigin.of(url);

        assertEquals(origin, actual.value(), rule);
        assertEquals(robotsUrl, actual.robotsUrl(), rule);
        assertEquals(actual, RobotsOrigin.of(actual.value()), rule + ": the stored value reads back");
        assertEquals(actual, RobotsOrigin.of(actual.robotsUrl()), rule + ": robots.txt is in its own origin");
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"https://Example.com:443/a?b=1#c", "http://[2001:db8::1]:8080/x", "http://example.com/",
            "http://example.com:0/"})
    void of_whenNormalizedUrl_expectSameOriginAsFromString(String input) {
        NormalizedUrl url = ((Accepted) UrlNormalizer.create().normalize(input)).url();

        assertEquals(RobotsOrigin.of(url.value()), RobotsOrigin.of(url));
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"ftp://example.com/", "/relative/path", "example.com/a", "https:///nohost", "mailto:a@b.c",
            "https://example.com:99999/", "https://example.com:8x/", "http://exa mple.com/"})
    void of_whenNotAnAbsoluteHttpUrl_expectIllegalArgument(String url) {
        assertThrows(IllegalArgumentException.class, () -> RobotsOrigin.of(url));
    }

    @Test
    void new_whenHostNotLowerCase_expectIllegalArgument() {
        assertThrows(IllegalArgumentException.class, () -> new RobotsOrigin("https", "Example.com", 443));
    }
}
