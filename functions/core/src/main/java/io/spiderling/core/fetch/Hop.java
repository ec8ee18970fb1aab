package io.spiderling.core.fetch;

import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
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
 * @param purpose a page to fetch, or a sitemap to read (ADR 19)
 */
public record Hop(NormalizedUrl url, RequestUrl request, Optional<NormalizedUrl> origin, List<String> via,
        Purpose purpose) {

    /** What the job is for. */
    public sealed interface Purpose {
        /** A page that no sitemap dated. */
        Page PAGE = new Page(Optional.empty());

        /**
         * A page to fetch.
         *
         * @param lastmod the {@code lastmod} a sitemap of the batch gave it: a copy fetched before it is not fresh
         *     for this job, however young ({@code LastmodSkip}); a redirect's target does not keep it
         */
        record Page(Optional<Instant> lastmod) implements Purpose {
            public Page {
                Objects.requireNonNull(lastmod, "lastmod");
            }
        }

        /** A sitemap to read; its redirects keep it. */
        record Sitemap(SitemapTask task) implements Purpose {
            public Sitemap {
                Objects.requireNonNull(task, "task");
            }
        }
    }

    public Hop {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(origin, "origin");
        via = List.copyOf(via);
        Objects.requireNonNull(purpose, "purpose");
    }

    /** A hop of a page, or of the sitemap {@code sitemap} names. */
    public Hop(NormalizedUrl url, RequestUrl request, Optional<NormalizedUrl> origin, List<String> via,
            Optional<SitemapTask> sitemap) {
        this(url, request, origin, via, sitemap.<Purpose>map(Purpose.Sitemap::new).orElse(Purpose.PAGE));
    }

    /** A hop of a page. */
    public Hop(NormalizedUrl url, RequestUrl request, Optional<NormalizedUrl> origin, List<String> via) {
        this(url, request, origin, via, Purpose.PAGE);
    }

    /** The first hop of a sitemap a batch asked for, in the spelling it was submitted. */
    public static Hop sitemap(NormalizationResult.Accepted accepted, SitemapTask task) {
        return new Hop(accepted.url(), accepted.request(), Optional.empty(), List.of(), new Purpose.Sitemap(task));
    }

    /** The first hop of a URL a sitemap listed with {@code lastmod}, in the spelling it was listed. */
    public static Hop listed(NormalizationResult.Accepted accepted, Optional<Instant> lastmod) {
        return new Hop(accepted.url(), accepted.request(), Optional.empty(), List.of(), new Purpose.Page(lastmod));
    }

    /**
     * This page's hop, dated by a sitemap's {@code lastmod}.
     *
     * @throws IllegalArgumentException for a sitemap's hop
     */
    public Hop withLastmod(Instant lastmod) {
        if (!(purpose instanceof Purpose.Page)) {
            throw new IllegalArgumentException("only a page is dated by a lastmod: " + url);
        }
        return new Hop(url, request, origin, via, new Purpose.Page(Optional.of(lastmod)));
    }

    /** The sitemap this hop reads; empty for a page. */
    public Optional<SitemapTask> sitemap() {
        return purpose instanceof Purpose.Sitemap s ? Optional.of(s.task()) : Optional.empty();
    }

    /** The {@code lastmod} a sitemap of the batch gave this page; empty for a sitemap, or a page not so dated. */
    public Optional<Instant> lastmod() {
        return purpose instanceof Purpose.Page p ? p.lastmod() : Optional.empty();
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
        return new Hop(target.url(), target.request(), Optional.of(itemUrl()), hops,
                purpose instanceof Purpose.Sitemap ? purpose : Purpose.PAGE);
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
        return purpose instanceof Purpose.Sitemap ? SitemapTask.itemKey(itemUrl()) : itemUrl().urlHash();
    }

    public SiteKey siteKey() {
        return url.siteKey();
    }
}
