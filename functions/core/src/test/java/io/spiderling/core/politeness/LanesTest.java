package io.spiderling.core.politeness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

class LanesTest {

    private static final SiteKey SITE = NormalizedUrl.parse("https://site.example/").siteKey();

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/politeness/lanes-cases.csv", numLinesToSkip = 1)
    void groups_whenOverrideTableCase_followsThePlacesInFlightOnePerTwoBeyondTheUsual(String name, int cap, String rate,
            int groups, int depthCap, int partitions) {
        RateLimiter limiter = RateLimiter.create(RateLimiter.Settings.DEFAULTS.withMaxInFlightCap(cap));
        RateOverrides overrides = rate.equals("none") ? RateOverrides.none()
                : RateOverrides.parse("site.example " + rate);
        Lanes lanes = Lanes.of(limiter, overrides);

        assertEquals(groups, lanes.groups(SITE));
        assertEquals(depthCap, lanes.depthCap(SITE, 10));
        assertEquals(partitions, lanes.partitions(SITE));
        int places = limiter.maxInFlight(limiter.baseInterval(SITE.value(), overrides, java.util.Optional.empty()));
        assertEquals(places <= 2 ? places : Math.max(2, (places + 1) / 2), lanes.groups(SITE),
                "a group per place up to the usual 2, a group per two places beyond");
    }

    @Test
    void messageGroupId_whenSiteHasFiftyPlaces_spreadsItsJobsOverTwentyFiveGroupsAndOthersOverTwo() {
        Lanes lanes = Lanes.of(RateLimiter.create(), RateOverrides.parse("site.example 50"));
        Set<String> fast = new HashSet<>();
        Set<String> other = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            fast.add(lanes.messageGroupId(new FetchJob("b", NormalizedUrl.parse("https://site.example/p/" + i), 1)));
            other.add(lanes.messageGroupId(new FetchJob("b", NormalizedUrl.parse("https://other.example/p/" + i), 1)));
        }
        assertEquals(25, fast.size());
        assertEquals(Set.of("other.example#0", "other.example#1"), other);
    }

    @Test
    void fixed_whenOneGroup_keepsTheSiteKeyAsGroupAndTheDepthCap() {
        FetchJob job = new FetchJob("b", NormalizedUrl.parse("https://site.example/p/1"), 1);
        assertEquals("site.example", Lanes.fixed(1).messageGroupId(job));
        assertEquals(10, Lanes.fixed(1).depthCap(SITE, 10));
        assertEquals(1, Lanes.fixed(4).partitions(SITE));
        assertThrows(IllegalArgumentException.class, () -> Lanes.fixed(0));
    }
}
