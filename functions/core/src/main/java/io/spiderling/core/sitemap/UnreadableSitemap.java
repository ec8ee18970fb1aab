package io.spiderling.core.sitemap;

import io.spiderling.core.sitemap.SitemapOutcome.Unreadable;

/** Thrown inside this package where a body turns out unreadable, and caught by {@link SitemapExpander#expand}. */
final class UnreadableSitemap extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Unreadable outcome;

    UnreadableSitemap(Unreadable.Why why, String detail) {
        super(detail, null, false, false);
        this.outcome = new Unreadable(why, detail);
    }

    Unreadable outcome() {
        return outcome;
    }
}
