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
 */
public record Hop(NormalizedUrl url, RequestUrl request, Optional<NormalizedUrl> origin, List<String> via) {

    public Hop {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(origin, "origin");
        via = List.copyOf(via);
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
        return new Hop(target.url(), target.request(), Optional.of(itemUrl()), hops);
    }

    /** The batch's URL whose item this hop ends: the chain's origin, else the URL itself. */
    public NormalizedUrl itemUrl() {
        return origin.orElse(url);
    }

    public SiteKey siteKey() {
        return url.siteKey();
    }
}
