package io.spiderling.core.fetch;

import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.SiteKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a fetch job asks now: one URL in its two forms, and the redirect chain that led to it.
 *
 * <p>A URL is deduplicated, stored and rate-limited under its {@code url}, the normalized key, and requested as
 * {@code request}, the spelling the client (or a redirect's {@code Location}) gave, serialized as a browser does. The
 * two differ when the key sorts or drops query parameters; robots.txt is decided on what is requested.
 *
 * @param url the key: the normalized URL
 * @param request the URL requested, whose request-target robots.txt is decided on
 * @param origin when the job continues a redirect chain (to another site, or on its site after waiting part-way): the
 *     batch's URL it started from, whose item (and claim) the job ends; empty at a batch URL's first hop
 * @param via the URLs requested on the way, in order: the hops already answered, which a chain that resumes does not
 *     ask again
 * @param sitemap present when the job reads a sitemap rather than fetching a page (ADR 19); its redirects keep it
 */
public record Hop(NormalizedUrl url, RequestUrl request, Optional<NormalizedUrl> origin, List<String> via,
        Optional<SitemapTask> sitemap) {

    public Hop {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(origin, "origin");
        via = List.copyOf(via);
        Objects.requireNonNull(sitemap, "sitemap");
    }

    /** A hop of a page. */
    public Hop(NormalizedUrl url, RequestUrl request, Optional<NormalizedUrl> origin, List<String> via) {
        this(url, request, origin, via, Optional.empty());
    }

    /** The first hop of a sitemap a batch asked for, in the spelling it was submitted. */
    public static Hop sitemap(NormalizationResult.Accepted accepted, SitemapTask task) {
        return new Hop(accepted.url(), accepted.request(), Optional.empty(), List.of(), Optional.of(task));
    }

    /** The first hop of a URL a batch asked for, in the spelling it was submitted. */
    public static Hop of(NormalizationResult.Accepted accepted) {
        return new Hop(accepted.url(), accepted.request(), Optional.empty(), List.of());
    }

    /**
     * The first hop of a URL known only by its key, requested as the key reads: robots.txt itself, and URLs whose
     * submitted spelling is not at hand.
     */
    public static Hop of(NormalizedUrl url) {
        return new Hop(url, RequestUrl.parse(url.value()), Optional.empty(), List.of());
    }

    /** The hop a redirect leads to from this one, which answered: the chain so far ends with this hop's request. */
    public Hop next(NormalizationResult.Accepted target) {
        List<String> hops = new java.util.ArrayList<>(via);
        hops.add(request.value());
        return new Hop(target.url(), target.request(), Optional.of(itemUrl()), hops, sitemap);
    }

    /** The batch's URL whose item this hop ends: the chain's origin, else the URL itself. */
    public NormalizedUrl itemUrl() {
        return origin.orElse(url);
    }

    /**
     * The key of the item this hop ends, of its claim and of its frontier entry: the hash of {@link #itemUrl}, or
     * for a sitemap {@link SitemapTask#itemKey}.
     */
    public String itemKey() {
        return sitemap.isPresent() ? SitemapTask.itemKey(itemUrl()) : itemUrl().urlHash();
    }

    public SiteKey siteKey() {
        return url.siteKey();
    }
}
