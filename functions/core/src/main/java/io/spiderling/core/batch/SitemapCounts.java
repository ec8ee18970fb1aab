package io.spiderling.core.batch;

/**
 * Where a batch's sitemaps stand (ADR 19).
 *
 * @param reading sitemaps whose lists are being taken into the batch: its total is not final while any is, since
 *     their items are counted as they are added
 * @param read sitemaps whose lists were taken in: the batch's limit of sitemaps counts these
 */
public record SitemapCounts(int reading, int read) {

    public static final SitemapCounts NONE = new SitemapCounts(0, 0);

    public SitemapCounts {
        if (reading < 0 || read < 0) {
            throw new IllegalArgumentException("sitemap counts must not be negative, were " + reading + ", " + read);
        }
    }
}
