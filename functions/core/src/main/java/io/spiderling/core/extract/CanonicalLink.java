package io.spiderling.core.extract;

import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides whether a page's {@code <link rel=canonical>} names another page that should hold its record.
 *
 * <p>The link counts only when it is written absolute, is http(s), normalizes, names a page other than this one, and
 * (by default) lies on the same registrable domain, which is the site key. A relative or cross-site canonical link is
 * too often a template mistake or a hijack (a page claiming to be another site's), so it is kept as written in the
 * page metadata but changes nothing. Pure; instances are immutable.
 */
public final class CanonicalLink {

    /** Which canonical links may move a page's record. */
    public enum Scope {
        /** Only links on the page's own registrable domain. */
        SAME_SITE,
        /** Any http(s) link; for deployments that trust the pages they fetch. */
        ANY_SITE
    }

    private final UrlNormalizer normalizer;
    private final Scope scope;

    public CanonicalLink(UrlNormalizer normalizer, Scope scope) {
        this.normalizer = normalizer;
        this.scope = scope;
    }

    /** The canonical page, when the link counts and names a page other than {@code page}. */
    public Optional<NormalizedUrl> decide(NormalizedUrl page, String href) {
        if (href == null || href.isBlank()) {
            return Optional.empty();
        }
        String written = href.strip();
        try {
            URI uri = new URI(written);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
                return Optional.empty();
            }
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        if (!(normalizer.normalize(written) instanceof NormalizationResult.Accepted accepted)) {
            return Optional.empty();
        }
        NormalizedUrl canonical = accepted.url();
        if (canonical.equals(page)) {
            return Optional.empty();
        }
        if (scope == Scope.SAME_SITE && !canonical.siteKey().equals(page.siteKey())) {
            return Optional.empty();
        }
        return Optional.of(canonical);
    }
}
