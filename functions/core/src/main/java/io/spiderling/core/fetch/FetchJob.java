package io.spiderling.core.fetch;

import io.spiderling.core.content.Hashing;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.util.Objects;

/**
 * One attempt at fetching one URL for one batch.
 *
 * @param attempt 1 for the first attempt; every new attempt must use a new number, see {@link #deduplicationId()}
 */
public record FetchJob(String batchId, NormalizedUrl url, int attempt) {

    public FetchJob {
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(url, "url");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
        }
    }

    public String urlHash() {
        return url.urlHash();
    }

    public SiteKey siteKey() {
        return url.siteKey();
    }

    /**
     * SQS FIFO drops a message whose deduplication id was seen in the last 5 minutes, silently. The id is therefore
     * the same for a re-sent copy of one attempt (a retried SendMessage must not fetch twice) and different for every
     * new attempt (a retry must never be dropped and strand its batch).
     */
    public String deduplicationId() {
        return Hashing.sha256Hex(batchId + "\n" + url.value()).substring(0, 40) + "-a" + attempt;
    }
}
