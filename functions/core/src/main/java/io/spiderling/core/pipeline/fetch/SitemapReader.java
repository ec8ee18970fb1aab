package io.spiderling.core.pipeline.fetch;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.sitemap.SitemapExpander;
import java.util.Objects;

/**
 * What the fetch stage does with a sitemap it fetched (ADR 19): takes what it lists into the job's batch, and says how
 * the sitemap's item ends. The fetch stage asks for the sitemap as for any page (robots.txt, the rate, the SSRF guard,
 * the retries), with {@link #maxBodyBytes} as its body cap, and stores neither its body nor a URL row for it.
 */
public interface SitemapReader {

    /** A reader for a deployment that reads no sitemaps: their items fail, saying so. */
    SitemapReader NONE = new SitemapReader() {
        @Override
        public int maxBodyBytes() {
            return SitemapExpander.Settings.PROTOCOL_MAX_BYTES;
        }

        @Override
        public Answer read(FetchJob job, FetchJob at, FetchResult.Response response) {
            return new Ending(Reason.SITEMAP_UNREADABLE, "this deployment reads no sitemaps");
        }
    };

    /** The most decoded bytes of a sitemap kept. */
    int maxBodyBytes();

    /**
     * Takes what the sitemap that hop {@code at} of {@code job} fetched lists into the job's batch; for a site's
     * robots.txt ({@link io.spiderling.core.fetch.SitemapTask#robotsTxt()}), the sitemaps its {@code Sitemap:} lines
     * name.
     *
     * @param response a 2xx answer; for a robots.txt, also a 4xx other than 429, which says the site has none
     * @return how the sitemap's item ends, or that it ends once its list is planned
     */
    Answer read(FetchJob job, FetchJob at, FetchResult.Response response);

    /** What reading a sitemap came to. */
    sealed interface Answer permits Ending, Planning {}

    /**
     * The sitemap's list went to the planners, which end its item when they have planned it all (ADR 19): the fetch
     * is done, and the item not yet.
     */
    record Planning(String detail) implements Answer {
        public Planning {
            Objects.requireNonNull(detail, "detail");
        }
    }

    /** How a sitemap's item ends: read (its reason in state {@code fetched}) or not (in {@code failed}). */
    record Ending(Reason reason, String detail) implements Answer {
        public Ending {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
            if (reason.state() != ItemState.FETCHED && reason.state() != ItemState.FAILED) {
                throw new IllegalArgumentException("a read sitemap ends fetched or failed, not " + reason.code());
            }
        }
    }
}
