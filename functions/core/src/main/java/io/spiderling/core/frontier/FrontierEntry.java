package io.spiderling.core.frontier;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One URL of one batch waiting in its site's park.
 *
 * @param order release order within the site, lowest first (see {@link Frontier} for how it is chosen)
 * @param notBefore the entry is not released before this time (a backoff or retry delay; the park time otherwise)
 * @param send how many times the entry has been sent to the fetch queue; its next release sends {@code send + 1}
 * @param origin see {@link FetchJob#origin()}
 * @param via see {@link FetchJob#via()}
 */
public record FrontierEntry(String batchId, NormalizedUrl url, int attempt, long order, Instant notBefore, int send,
        Optional<NormalizedUrl> origin, List<String> via) {

    public FrontierEntry {
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(notBefore, "notBefore");
        Objects.requireNonNull(origin, "origin");
        via = List.copyOf(via);
    }

    /** An entry not sent yet. */
    public FrontierEntry(String batchId, NormalizedUrl url, int attempt, long order, Instant notBefore) {
        this(batchId, url, attempt, order, notBefore, 0);
    }

    /** An entry for a URL the batch asked for. */
    public FrontierEntry(String batchId, NormalizedUrl url, int attempt, long order, Instant notBefore, int send) {
        this(batchId, url, attempt, order, notBefore, send, Optional.empty(), List.of());
    }

    /** The same entry with another attempt, due time and send count. */
    public FrontierEntry with(int attempt, Instant notBefore, int send) {
        return new FrontierEntry(batchId, url, attempt, order, notBefore, send, origin, via);
    }

    /** The same entry at the job's hop of its redirect chain ({@link FetchJob#continuedAt}). */
    public FrontierEntry at(FetchJob job) {
        return new FrontierEntry(batchId, job.url(), attempt, order, notBefore, send, job.origin(), job.via());
    }

    public SiteKey site() {
        return url.siteKey();
    }

    /** The key of the entry in its site: the hash of the batch's URL this entry ends (see {@link FetchJob#itemHash}). */
    public String urlHash() {
        return origin.orElse(url).urlHash();
    }

    /** The job a release sends: this entry's next send. */
    public FetchJob job() {
        return new FetchJob(batchId, url, Math.max(1, attempt), send + 1, origin, via);
    }

    /** The job a released entry already sent, for re-sending a lost one with the same deduplication id. */
    public FetchJob sentJob() {
        return new FetchJob(batchId, url, Math.max(1, attempt), Math.max(1, send), origin, via);
    }
}
