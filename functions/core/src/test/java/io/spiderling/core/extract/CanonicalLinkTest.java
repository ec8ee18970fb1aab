package io.spiderling.core.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class CanonicalLinkTest {

    private static final UrlNormalizer NORMALIZER = UrlNormalizer.create();

    @ParameterizedTest(name = "{0} with {1} ({2}) -> {3}")
    @CsvFileSource(resources = "/extract/canonical-link-cases.csv", commentCharacter = '#')
    void decide_whenCase_returnsExpectedCanonical(String page, String href, CanonicalLink.Scope scope,
            String expected) {
        CanonicalLink link = new CanonicalLink(NORMALIZER, scope);

        Optional<String> canonical = link.decide(NormalizedUrl.parse(page), href).map(NormalizedUrl::value);

        assertEquals(Optional.ofNullable(expected), canonical);
    }
}
