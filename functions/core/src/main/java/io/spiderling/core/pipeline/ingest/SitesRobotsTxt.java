package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.url.NormalizationResult.Accepted;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The robots.txt files a batch that asks for its sites' own sitemaps ({@code "sitemapsFromRobots": true}, ADR 19)
 * reads: one per site (scheme, host and port, the unit a robots.txt speaks for: {@link RobotsOrigin}) of its
 * accepted URLs and of the sitemaps it names, in the order the sites first appear. Each becomes an item of the batch
 * of kind sitemap, read by {@link ReadRobotsTxt}.
 */
final class SitesRobotsTxt {

    /**
     * @param robots the sites' robots.txt files to read, each as its origin spells it ({@link RobotsOrigin#robotsUrl})
     * @param sitemaps the named sitemaps still to read as sitemaps: those that are not one of {@code robots}
     */
    record Planned(List<Accepted> robots, List<Accepted> sitemaps) {
        Planned {
            robots = List.copyOf(robots);
            sitemaps = List.copyOf(sitemaps);
        }

        /** Named sitemaps that are one of the sites' robots.txt, read as that and counted as duplicates. */
        int subsumed(List<Accepted> named) {
            return named.size() - sitemaps.size();
        }
    }

    private SitesRobotsTxt() {}

    /**
     * The robots.txt of each site of {@code urls} and {@code sitemaps}. A sitemap the batch names that is one of these
     * robots.txt files is read as robots.txt, not as a sitemap: one item with one reading.
     */
    static Planned of(List<Accepted> urls, List<Accepted> sitemaps) {
        Map<RobotsOrigin, Accepted> robots = new LinkedHashMap<>();
        Stream.concat(urls.stream(), sitemaps.stream()).map(a -> RobotsOrigin.of(a.url()))
                .forEach(origin -> robots.computeIfAbsent(origin, SitesRobotsTxt::robotsTxt));
        Set<NormalizedUrl> robotsUrls = robots.values().stream().map(Accepted::url).collect(Collectors.toSet());
        return new Planned(List.copyOf(robots.values()),
                sitemaps.stream().filter(s -> !robotsUrls.contains(s.url())).toList());
    }

    private static Accepted robotsTxt(RobotsOrigin origin) {
        String url = origin.robotsUrl();
        return new Accepted(NormalizedUrl.parse(url), RequestUrl.parse(url));
    }
}
