package io.spiderling.core.sitemap;

import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.robots.RobotsPolicy;
import io.spiderling.core.url.RequestUrl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The sitemaps a site's robots.txt names in its {@code Sitemap:} lines, for a batch that asks for the sites' own
 * ({@code "sitemapsFromRobots": true}, ADR 19). No I/O: the caller fetches robots.txt like any sitemap and passes the
 * body here.
 *
 * <p>crawler-commons' {@link SimpleRobotRulesParser} reads the lines, as it reads the rules for the politeness gate:
 * a {@code Sitemap:} line belongs to no group, so the agent does not matter. It resolves a relative URL against the
 * robots.txt URL (the protocol asks for a full URL; crawler-commons and the large crawlers are lenient), drops one it
 * cannot resolve, and lists each URL once. Each listed sitemap may list the URLs of the sites whose robots.txt this is,
 * wherever it is hosted: the protocol's cross-submit rule ({@link SitemapLocation}). A robots.txt names sitemaps on
 * any site, so only a URL Spiderling cannot fetch is refused.
 */
public final class RobotsTxtSitemaps {

    /** How much of the body is read: RFC 9309's parsing minimum, which the gate reads for the rules too. */
    public static final int MAX_BYTES = RobotsPolicy.MIN_PARSE_LIMIT;

    /** Any token: {@code Sitemap:} lines are outside the agents' groups. */
    private static final List<String> AGENTS = List.of("spiderling");

    /**
     * What a robots.txt names.
     *
     * @param sitemaps the sitemaps to read, in the order of their lines, each at index depth 0 and named by the sites
     * @param refused the lines' URLs that cannot be fetched, in order, each with its reason
     * @param limit the limit that cut the list short, if one did
     */
    public record Listed(List<SitemapSource> sitemaps, List<RefusedEntry> refused, Optional<LimitHit> limit) {
        public Listed {
            sitemaps = List.copyOf(sitemaps);
            refused = List.copyOf(refused);
            Objects.requireNonNull(limit, "limit");
        }
    }

    private RobotsTxtSitemaps() {}

    /**
     * The sitemaps named by the robots.txt that {@code requested} answered with {@code body}.
     *
     * @param requested the URL that answered, against which a relative {@code Sitemap:} URL is resolved
     * @param sites the origins this robots.txt speaks for: its own, and the one whose robots.txt redirected here
     * @param contentType the response's Content-Type, or null: an HTML page served for robots.txt names nothing
     * @param maxSitemaps how many sitemaps are taken; the rest are left out ({@link SitemapLimit#SITEMAPS_PER_BATCH})
     */
    public static Listed read(RequestUrl requested, Set<RobotsOrigin> sites, byte[] body, String contentType,
            int maxSitemaps) {
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(body, "body");
        String type = contentType == null || contentType.isBlank() ? "text/plain"
                : contentType.toLowerCase(Locale.ROOT);
        SimpleRobotRules rules = new SimpleRobotRulesParser().parseContent(requested.value(), kept(body), type,
                AGENTS);
        List<SitemapSource> sitemaps = new ArrayList<>();
        List<RefusedEntry> refused = new ArrayList<>();
        List<String> named = rules.getSitemaps();
        for (int i = 0; i < named.size(); i++) {
            String url = named.get(i);
            // An empty Sitemap: line resolves to the robots.txt itself, which is not a sitemap.
            if (SitemapLocation.requestUrl(url).isEmpty() || url.equals(requested.value())) {
                refused.add(new RefusedEntry(url, SitemapRefusal.INVALID_URL));
            } else if (sitemaps.size() < maxSitemaps) {
                sitemaps.add(SitemapSource.fromRobots(url, sites));
            } else {
                return new Listed(sitemaps, refused,
                        Optional.of(new LimitHit(SitemapLimit.SITEMAPS_PER_BATCH, named.size() - i)));
            }
        }
        return new Listed(sitemaps, refused, Optional.empty());
    }

    /** The first {@link #MAX_BYTES}, cut at a line end so that no URL is cut in two. */
    private static byte[] kept(byte[] body) {
        if (body.length <= MAX_BYTES) {
            return body;
        }
        int end = MAX_BYTES;
        while (end > 0 && body[end - 1] != '\n' && body[end - 1] != '\r') {
            end--;
        }
        return Arrays.copyOf(body, end);
    }

    /**
     * Whether an answer of {@code status} means the site has no robots.txt, so it names no sitemap: a 4xx other than
     * 429, RFC 9309's "unavailable" (section 2.3.1.3), as the politeness gate reads it.
     */
    public static boolean unavailable(int status) {
        return status >= 400 && status < 500 && status != 429;
    }
}
