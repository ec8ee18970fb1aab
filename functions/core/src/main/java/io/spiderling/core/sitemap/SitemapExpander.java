package io.spiderling.core.sitemap;

import crawlercommons.sitemaps.SiteMapParser;
import io.spiderling.core.sitemap.SitemapOutcome.Index;
import io.spiderling.core.sitemap.SitemapOutcome.Urls;
import io.spiderling.core.sitemap.SitemapParsing.Candidate;
import io.spiderling.core.sitemap.SitemapParsing.Parsed;
import io.spiderling.core.url.RequestUrl;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns the body of a fetched sitemap into what the batch takes from it (ADR 19): the URLs to fetch, or the sitemaps
 * an index names, each entry accepted or refused by {@link SitemapLocation}, within the limits of the sitemap and of
 * the batch. No I/O: the caller fetches the sitemap like any page, then passes the body, and what the batch still
 * allows, here.
 *
 * <p>crawler-commons' {@link SiteMapParser} reads XML urlsets and indexes, text sitemaps and RSS and Atom feeds;
 * {@link SitemapBody} decompresses gzip first, within the byte limit, which crawler-commons does not enforce
 * ({@link SiteMapParser#MAX_BYTES_ALLOWED} is a constant it never reads).
 *
 * <p>Entries are taken in document order. The first {@link Settings#maxUrlsPerSitemap()} are read and the rest
 * counted; a batch limit stops the reading at the first entry that would have been accepted beyond it. Either way,
 * the entries from there on are left out, counted in the outcome's {@link LimitHit}, neither accepted nor refused.
 */
public final class SitemapExpander {

    /**
     * @param maxBytes the largest sitemap read, in bytes, before and after decompression
     * @param maxUrlsPerSitemap how many entries of one file are read: URLs of a urlset, text sitemap or feed, or
     *     sitemaps of an index
     * @param maxIndexDepth how many levels of index a batch follows: an index at this depth names no sitemaps
     * @param maxSitemapsPerIndex how many of an index's sitemaps are taken
     */
    public record Settings(int maxBytes, int maxUrlsPerSitemap, int maxIndexDepth, int maxSitemapsPerIndex) {

        /** The protocol's "no larger than 50MB (52,428,800 bytes)" per file, uncompressed. */
        public static final int PROTOCOL_MAX_BYTES = SiteMapParser.MAX_BYTES_ALLOWED;

        /** The protocol's "no more than 50,000 URLs" per sitemap, and 50,000 sitemaps per index. */
        public static final int PROTOCOL_MAX_URLS = 50_000;

        /**
         * The protocol's limits per file, and an index depth of 2: the protocol has an index list sitemaps only
         * (depth 1), but sites nest indexes, and one more level reads them without letting a chain of indexes run
         * on.
         */
        public static final Settings DEFAULTS = new Settings(PROTOCOL_MAX_BYTES, PROTOCOL_MAX_URLS, 2, 1_000);

        public Settings {
            if (maxBytes < 1 || maxBytes > PROTOCOL_MAX_BYTES) {
                throw new IllegalArgumentException("maxBytes must be 1 to the protocol's " + PROTOCOL_MAX_BYTES
                        + ", was " + maxBytes);
            }
            if (maxUrlsPerSitemap < 1 || maxUrlsPerSitemap > PROTOCOL_MAX_URLS) {
                // above it, crawler-commons would still stop reading a text sitemap at its 50,000th line
                throw new IllegalArgumentException("maxUrlsPerSitemap must be 1 to the protocol's "
                        + PROTOCOL_MAX_URLS + ", was " + maxUrlsPerSitemap);
            }
            if (maxIndexDepth < 0) {
                throw new IllegalArgumentException("maxIndexDepth must not be negative, was " + maxIndexDepth);
            }
            if (maxSitemapsPerIndex < 1) {
                throw new IllegalArgumentException("maxSitemapsPerIndex must be at least 1, was " + maxSitemapsPerIndex);
            }
        }

        public static Builder builder() {
            return DEFAULTS.toBuilder();
        }

        public Builder toBuilder() {
            return new Builder().maxBytes(maxBytes).maxUrlsPerSitemap(maxUrlsPerSitemap).maxIndexDepth(maxIndexDepth)
                    .maxSitemapsPerIndex(maxSitemapsPerIndex);
        }

        /** The parts by name, starting from the values they were taken from; {@link #build} checks them. */
        public static final class Builder {
            private int maxBytes;
            private int maxUrlsPerSitemap;
            private int maxIndexDepth;
            private int maxSitemapsPerIndex;

            private Builder() {}

            public Builder maxSitemapsPerIndex(int value) {
                maxSitemapsPerIndex = value;
                return this;
            }

            public Builder maxBytes(int value) {
                maxBytes = value;
                return this;
            }

            public Builder maxUrlsPerSitemap(int value) {
                maxUrlsPerSitemap = value;
                return this;
            }

            public Builder maxIndexDepth(int value) {
                maxIndexDepth = value;
                return this;
            }

            public Settings build() {
                return new Settings(maxBytes, maxUrlsPerSitemap, maxIndexDepth, maxSitemapsPerIndex);
            }
        }
    }

    /**
     * What the batch still allows, after the sitemaps read so far.
     *
     * @param urlsLeft how many more URLs it may take
     * @param sitemapsLeft how many more sitemaps it may read
     */
    public record Budget(long urlsLeft, long sitemapsLeft) {

        public Budget {
            if (urlsLeft < 0 || sitemapsLeft < 0) {
                throw new IllegalArgumentException("a budget is not negative: " + urlsLeft + " URLs, " + sitemapsLeft
                        + " sitemaps");
            }
        }
    }

    /** How many more entries may be accepted, and the limit that says so. */
    private record Allowance(long left, SitemapLimit limit) {}

    /** The entries taken and refused, and the limit that stopped the reading. */
    private record Selection(List<Candidate> accepted, List<RefusedEntry> refused, Optional<LimitHit> limit) {}

    private final Settings settings;

    private SitemapExpander(Settings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public static SitemapExpander create() {
        return create(Settings.DEFAULTS);
    }

    public static SitemapExpander create(Settings settings) {
        return new SitemapExpander(settings);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * What the sitemap of {@code source} lists, read from {@code body}.
     *
     * @param body the response body as received (gzip or not), after any Content-Encoding was undone
     * @param contentType the response's Content-Type, or null; used only when the bytes do not show what they are
     * @param budget what the batch still allows
     */
    public SitemapOutcome expand(SitemapSource source, byte[] body, String contentType, Budget budget) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(budget, "budget");
        try {
            byte[] bytes = SitemapBody.decode(body, settings.maxBytes());
            String mediaType = SitemapBody.mediaType(bytes, contentType);
            Parsed parsed = SitemapParsing.parse(source, bytes, mediaType, settings.maxUrlsPerSitemap());
            return parsed.index() ? index(source, parsed, budget) : urls(source, parsed, budget);
        } catch (UnreadableSitemap e) {
            return e.outcome();
        }
    }

    private static Urls urls(SitemapSource source, Parsed parsed, Budget budget) {
        Selection s = select(source, parsed, new Allowance(budget.urlsLeft(), SitemapLimit.URLS_PER_BATCH));
        return new Urls(s.accepted().stream().map(c -> new SitemapEntry(c.url(), c.lastmod())).toList(),
                s.refused(), s.limit());
    }

    private Index index(SitemapSource source, Parsed parsed, Budget budget) {
        Allowance allowance = source.indexDepth() >= settings.maxIndexDepth()
                ? new Allowance(0, SitemapLimit.INDEX_DEPTH)
                : budget.sitemapsLeft() < settings.maxSitemapsPerIndex()
                        ? new Allowance(budget.sitemapsLeft(), SitemapLimit.SITEMAPS_PER_BATCH)
                        : new Allowance(settings.maxSitemapsPerIndex(), SitemapLimit.SITEMAPS_PER_INDEX);
        Selection s = select(source, parsed, allowance);
        return new Index(s.accepted().stream().map(c -> source.child(RequestUrl.from(c.url()))).toList(),
                s.refused(), s.limit());
    }

    private static Selection select(SitemapSource source, Parsed parsed, Allowance allowance) {
        List<Candidate> accepted = new ArrayList<>();
        List<RefusedEntry> refused = new ArrayList<>();
        List<Candidate> entries = parsed.entries();
        for (int i = 0; i < entries.size(); i++) {
            Candidate entry = entries.get(i);
            Optional<SitemapRefusal> refusal = SitemapLocation.refusal(source, entry.url());
            if (refusal.isPresent()) {
                refused.add(new RefusedEntry(entry.url(), refusal.get()));
            } else if (accepted.size() < allowance.left()) {
                accepted.add(entry);
            } else {
                long leftOut = entries.size() - i + parsed.leftOut();
                return new Selection(accepted, refused, Optional.of(new LimitHit(allowance.limit(), leftOut)));
            }
        }
        Optional<LimitHit> limit = parsed.leftOut() > 0
                ? Optional.of(new LimitHit(SitemapLimit.URLS_PER_SITEMAP, parsed.leftOut()))
                : Optional.empty();
        return new Selection(accepted, refused, limit);
    }
}
