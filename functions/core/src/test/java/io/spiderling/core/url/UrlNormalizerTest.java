package io.spiderling.core.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizationResult.Rejected;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UrlNormalizerTest {

    private static final String REJECT = "REJECT:";

    private final UrlNormalizer normalizer = UrlNormalizer.create();

    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvFileSource(resources = "/url/normalization-cases.csv", numLinesToSkip = 1)
    void normalize_whenTableCase_givesExpectedResult(String rule, String escapedInput, String escapedExpected) {
        String input = CsvEscapes.unescape(escapedInput);
        String expected = CsvEscapes.unescape(escapedExpected);
        NormalizationResult result = normalizer.normalize(input);

        if (expected.startsWith(REJECT)) {
            Rejected rejected = assertInstanceOf(Rejected.class, result, rule);
            assertTrue(rejected.reason().contains(expected.substring(REJECT.length())),
                    rule + ": reason was '" + rejected.reason() + "'");
            assertEquals(input, rejected.input(), rule);
        } else {
            NormalizedUrl url = assertInstanceOf(Accepted.class, result, rule).url();
            assertEquals(expected, url.value(), rule);
            assertEquals(url, assertInstanceOf(Accepted.class, normalizer.normalize(url.value()), rule).url(),
                    rule + ": normal form is stable");
            assertEquals(url, NormalizedUrl.parse(url.value()), rule + ": value re-hydrates");
        }
    }

    @ParameterizedTest(name = "{0}: [{2}] against [{1}]")
    @CsvFileSource(resources = "/url/request-url-cases.csv", numLinesToSkip = 1)
    void normalizeAndResolve_whenTableCase_requestTheStandardsSerialization(String rule, String base, String input,
            String expected) {
        String location = CsvEscapes.unescape(input);
        Optional<Accepted> accepted = base == null
                ? Optional.of(normalizer.normalize(location)).filter(Accepted.class::isInstance)
                        .map(Accepted.class::cast)
                : normalizer.resolve(base, location);

        if (expected.equals("REJECT")) {
            assertEquals(Optional.empty(), accepted, rule);
        } else {
            RequestUrl request = accepted.orElseThrow(() -> new AssertionError(rule + ": refused")).request();
            assertEquals(CsvEscapes.unescape(expected), request.value(), rule);
            assertEquals(request, RequestUrl.parse(request.value()), rule + ": value re-hydrates");
        }
    }

    @Test
    void resolve_whenAccepted_givesTheKeyAsNormalizeDoes() {
        Accepted resolved = normalizer.resolve("http://example.org/foo/bar", "?utm_source=x&b=2&a=1#top").orElseThrow();

        assertEquals(normalizer.normalize(resolved.request().value()), resolved);
        assertEquals("http://example.org/foo/bar?a=1&b=2", resolved.url().value());
        assertEquals("http://example.org/foo/bar?utm_source=x&b=2&a=1", resolved.request().value());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "http://example.com/a,         http,  example.com, 80",
            "https://example.com/a,        https, example.com, 443",
            "https://Example.com:8443/,    https, example.com, 8443",
            "http://[2001:db8::1]:8080/x,  http,  [2001:db8::1], 8080",
    })
    void normalize_whenAccepted_exposesSchemeHostAndEffectivePort(String input, String scheme, String host, int port) {
        NormalizedUrl url = assertInstanceOf(Accepted.class, normalizer.normalize(input)).url();

        assertEquals(scheme, url.scheme());
        assertEquals(host, url.host());
        assertEquals(port, url.port());
    }

    @Test
    void normalize_whenInputIsExactlyMaxLength_accepts() {
        String url = urlOfLength(UrlNormalizer.MAX_LENGTH);

        assertEquals(url, assertInstanceOf(Accepted.class, normalizer.normalize(url)).url().value());
    }

    @Test
    void normalize_whenInputIsLongerThanMaxLength_rejects() {
        String url = urlOfLength(UrlNormalizer.MAX_LENGTH + 1);

        Rejected rejected = assertInstanceOf(Rejected.class, normalizer.normalize(url));

        assertEquals("longer than 2048 characters", rejected.reason());
    }

    @Test
    void normalize_whenEscapingGrowsResultPastMaxLength_rejects() {
        String url = "http://example.com/" + " x".repeat(1000); // 2,019 characters; each space becomes %20

        Rejected rejected = assertInstanceOf(Rejected.class, normalizer.normalize(url));

        assertEquals("longer than 2048 characters", rejected.reason());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com/\ud83d", "http://example.com/\ude00x", "http://\ud83d.example/"})
    void normalize_whenUnpairedSurrogate_rejectsAsMalformed(String input) {
        Rejected rejected = assertInstanceOf(Rejected.class, normalizer.normalize(input));

        assertEquals("malformed URL", rejected.reason());
    }

    @Test
    void normalize_whenSurrogatePair_escapesItsUtf8Bytes() {
        NormalizedUrl url = assertInstanceOf(Accepted.class, normalizer.normalize("http://example.com/\ud83d\ude00"))
                .url();

        assertEquals("http://example.com/%F0%9F%98%80", url.value());
    }

    @Test
    void create_whenCalled_removesDefaultTrackingParameters() {
        assertEquals(TrackingParameters.defaults(), UrlNormalizer.create().trackingParameters());
        assertEquals(TrackingParameters.defaults(), UrlNormalizer.builder().build().trackingParameters());
    }

    @Test
    void normalize_whenTrackingParametersNone_keepsEveryParameter() {
        UrlNormalizer keepAll = UrlNormalizer.builder().trackingParameters(TrackingParameters.none()).build();

        assertEquals("http://example.com/?a=1&fbclid=2&utm_source=x",
                acceptedValue(keepAll, "http://example.com/?utm_source=x&fbclid=2&a=1"));
    }

    @Test
    void normalize_whenTrackingParametersEmptyString_keepsEveryParameter() {
        UrlNormalizer keepAll = UrlNormalizer.builder().trackingParameters(TrackingParameters.parse("")).build();

        assertEquals("http://example.com/?utm_source=x", acceptedValue(keepAll, "http://example.com/?utm_source=x"));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource(delimiter = '|', value = {
            "ref,sid_*   | http://example.com/?utm_source=x&REF=1&sid_a=2&sid=3 | http://example.com/?sid=3&utm_source=x",
            "SESSIONID   | http://example.com/a?sessionid=1                     | http://example.com/a",
            "fbclid      | http://example.com/?gclid=1&fbclid=2                 | http://example.com/?gclid=1",
    })
    void normalize_whenTrackingParametersConfigured_removesOnlyThose(String config, String input, String expected) {
        UrlNormalizer custom = UrlNormalizer.builder().trackingParameters(TrackingParameters.parse(config)).build();

        assertEquals(expected, acceptedValue(custom, input));
    }

    @Test
    void normalize_whenInputIsTooLongOnlyBecauseOfTrackingParameters_rejects() {
        // the limit applies to what the client sent, before anything is removed
        String input = "https://example.com/a?utm_source=" + "x".repeat(UrlNormalizer.MAX_LENGTH);

        Rejected rejected = assertInstanceOf(Rejected.class, normalizer.normalize(input));

        assertEquals("longer than 2048 characters", rejected.reason());
    }

    private static String acceptedValue(UrlNormalizer normalizer, String input) {
        return assertInstanceOf(Accepted.class, normalizer.normalize(input)).url().value();
    }

    private static String urlOfLength(int length) {
        String prefix = "https://example.com/";
        return prefix + "a".repeat(length - prefix.length());
    }
}
