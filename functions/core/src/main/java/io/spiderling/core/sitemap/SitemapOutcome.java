package io.spiderling.core.sitemap;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What a sitemap's body gave: URLs to fetch, sitemaps to read, or nothing usable. */
public sealed interface SitemapOutcome {

    /**
     * A list of URLs (a urlset, a text sitemap, an RSS or Atom feed).
     *
     * @param accepted the URLs to fetch, in document order
     * @param refused the entries not taken, in document order, each with its reason
     * @param limit the limit that stopped the reading, if one did
     */
    record Urls(List<SitemapEntry> accepted, List<RefusedEntry> refused, Optional<LimitHit> limit)
            implements SitemapOutcome {

        public Urls {
            accepted = List.copyOf(accepted);
            refused = List.copyOf(refused);
            Objects.requireNonNull(limit, "limit");
        }
    }

    /**
     * A sitemap index.
     *
     * @param sitemaps the child sitemaps to read, in document order, one index level deeper than this one
     * @param refused the children not taken, in document order, each with its reason
     * @param limit the limit that stopped the reading, if one did
     */
    record Index(List<SitemapSource> sitemaps, List<RefusedEntry> refused, Optional<LimitHit> limit)
            implements SitemapOutcome {

        public Index {
            sitemaps = List.copyOf(sitemaps);
            refused = List.copyOf(refused);
            Objects.requireNonNull(limit, "limit");
        }
    }

    /**
     * A body that gave no list.
     *
     * @param why what was wrong with it
     * @param detail for people: the size, or the parser's message with its line and column
     */
    record Unreadable(Why why, String detail) implements SitemapOutcome {

        public Unreadable {
            Objects.requireNonNull(why, "why");
            Objects.requireNonNull(detail, "detail");
        }

        /** What was wrong with a body. */
        public enum Why {
            /** Well-formed, but no urlset, index, feed or text list; or of a content type that is none of them. */
            NOT_A_SITEMAP("sitemap-not-a-sitemap"),
            /** XML that does not parse, or that has a DOCTYPE (refused, so no entity can be expanded). */
            BROKEN_XML("sitemap-broken-xml"),
            /** Above the byte limit, before or after decompression. */
            TOO_LARGE("sitemap-too-large"),
            /** Gzip that does not decompress, gzip inside gzip, or a gzip content type over a body that is not. */
            BAD_GZIP("sitemap-bad-gzip");

            private final String wireName;

            Why(String wireName) {
                this.wireName = wireName;
            }

            /** The code clients see. */
            public String wireName() {
                return wireName;
            }
        }
    }
}
