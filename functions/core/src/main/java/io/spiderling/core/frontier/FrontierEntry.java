package io.spiderling.core.frontier;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.Objects;

/**
 * One URL of one batch waiting in its site's park.
 *
 * @param order release order within the site, lowest first (see {@link Frontier} for how it is chosen)
 * @param notBefore the entry is not released before this time (a backoff or retry delay; the park time otherwise)
 */
public record FrontierEntry(String batchId, NormalizedUrl url, int attempt, long order, Instant notBefore) {

    public FrontierEntry {
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(notBefore, "notBefore");
    }

    public SiteKey site() {
        return url.siteKey();
    }

    public String urlHash() {
        return url.urlHash();
    }

    public FetchJob job() {
        return new FetchJob(batchId, url, attempt);
    }
}
