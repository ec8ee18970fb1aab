package io.spiderling.core.sitemap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.spiderling.core.robots.RobotsOrigin;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class SitemapLocationTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/sitemap/location-cases.csv", numLinesToSkip = 1)
    void refusal_whenEntryIsCheckedAgainstTheSitemapsLocation_isAsTheCaseSays(String name, String sitemap,
            String namedBy, String entry, String expected) {
        SitemapSource source = SitemapSource.fromRobots(sitemap, origins(namedBy));

        Optional<SitemapRefusal> refusal = SitemapLocation.refusal(source, entry);

        assertEquals(expected, refusal.map(Enum::name).orElse("ACCEPTED"), name);
    }

    private static Set<RobotsOrigin> origins(String spaceSeparated) {
        if (spaceSeparated == null) {
            return Set.of();
        }
        return Arrays.stream(spaceSeparated.split(" ")).map(RobotsOrigin::of).collect(Collectors.toSet());
    }
}
