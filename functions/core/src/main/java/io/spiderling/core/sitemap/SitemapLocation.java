package io.spiderling.core.sitemap;

import io.spiderling.core.robots.RobotsOrigin;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.WhatwgUrl;
import io.spiderling.core.url.WhatwgUrl.Result;
import java.util.Optional;

/**
 * Which URLs a sitemap may list, by the sitemaps protocol (https://www.sitemaps.org/protocol.html):
 *
 * <ul>
 *   <li>"Sitemap file location": "The location of a Sitemap file determines the set of URLs that can be included in
 *   that Sitemap. A Sitemap file located at http://example.com/catalog/sitemap.xml can include any URLs starting with
 *   http://example.com/catalog/ but can not include URLs starting with http://example.com/images/", and the URLs
 *   "must use the same protocol […] and reside on the same host as the Sitemap"; a sitemap with a port in its URL
 *   lists URLs with that port. So an entry needs the sitemap's scheme, host and port, and a path that starts with
 *   the sitemap's directory ({@link SitemapSource#directory()}), else it is {@link SitemapRefusal#OTHER_SITE} or
 *   {@link SitemapRefusal#OUTSIDE_PATH}.</li>
 *   <li>"Sitemaps &amp; Cross Submits": a host proves it owns the URLs of a sitemap hosted elsewhere by naming that
 *   sitemap in its own robots.txt. So an entry whose origin is one of {@link SitemapSource#namedBy()} is accepted
 *   whatever its path. That includes the sitemap's own origin when its own robots.txt named it: the site then vouches
 *   for the sitemap, wherever in the site it lives.</li>
 * </ul>
 *
 * <p>The child sitemaps of an index follow the same rules, against the index's location. URLs are compared as the
 * URL Standard parses them, as the fetcher will send them: scheme and host lower-cased, default ports dropped, dot
 * segments resolved (so {@code /catalog/../admin/} is outside {@code /catalog/}). crawler-commons' own check
 * ({@code SiteMapParser.urlIsValid}) compares strings, and its strict mode drops what fails without saying so.
 */
public final class SitemapLocation {

    private SitemapLocation() {}

    /** Why {@code entry} may not be taken from the sitemap of {@code source}; empty when it may. */
    public static Optional<SitemapRefusal> refusal(SitemapSource source, String entry) {
        Optional<RequestUrl> url = requestUrl(entry);
        if (url.isEmpty()) {
            return Optional.of(SitemapRefusal.INVALID_URL);
        }
        RobotsOrigin origin = RobotsOrigin.of(url.get());
        if (source.namedBy().contains(origin)) {
            return Optional.empty();
        }
        if (!origin.equals(source.origin())) {
            return Optional.of(SitemapRefusal.OTHER_SITE);
        }
        return url.get().target().startsWith(source.directory()) ? Optional.empty()
                : Optional.of(SitemapRefusal.OUTSIDE_PATH);
    }

    /** The URL the fetcher would request for an entry: absolute, http(s), without user info. */
    static Optional<RequestUrl> requestUrl(String entry) {
        if (!(WhatwgUrl.parse(entry) instanceof Result.Parsed(WhatwgUrl url)) || url.hasCredentials()) {
            return Optional.empty();
        }
        return Optional.of(RequestUrl.from(entry));
    }
}
