package io.spiderling.core.fetch;

import io.spiderling.core.content.Hashing;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One attempt at fetching one URL for one batch.
 *
 * @param attempt 1 for the first attempt at the URL; a retry after an error counts up (the retry policy's count)
 * @param send 1 the first time the frontier sends this entry; every later send (after a rate refusal, a robots wait or
 *     a retry) counts up, so each send has its own deduplication id, see {@link #deduplicationId()}
 * @param origin when this job continues a redirect chain (to another site, or on the same site after it waited
 *     part-way): the batch's URL that redirected here, whose item (and claim) this job ends; empty for a URL the
 *     batch asked for, at its first hop
 * @param via the URLs that redirected on the way to {@code url}, in order, for the record and for loop detection:
 *     the hops already answered, which a chain that resumes does not ask again
 */
public record FetchJob(String batchId, NormalizedUrl url, int attempt, int send, Optional<NormalizedUrl> origin,
        List<String> via) {

    public FetchJob {
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(origin, "origin");
        via = List.copyOf(via);
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
        }
        if (send < 1) {
            throw new IllegalArgumentException("send must be >= 1, was " + send);
        }
    }

    /** A first send. */
    public FetchJob(String batchId, NormalizedUrl url, int attempt) {
        this(batchId, url, attempt, 1);
    }

    /** A URL the batch asked for. */
    public FetchJob(String batchId, NormalizedUrl url, int attempt, int send) {
        this(batchId, url, attempt, send, Optional.empty(), List.of());
    }

    /**
     * The rest of this job from a later hop of its redirect chain: {@code url}, reached through {@code via}. The same
     * item, attempt and send; the job the frontier keeps when the chain must wait, so that it resumes there.
     */
    public FetchJob continuedAt(NormalizedUrl next, List<String> hops) {
        return next.equals(url) ? this : new FetchJob(batchId, next, attempt, send, Optional.of(itemUrl()), hops);
    }

    /** The hash of the URL fetched. */
    public String urlHash() {
        return url.urlHash();
    }

    /** The batch's URL whose item this job ends: the origin of a cross-site redirect, else the URL itself. */
    public NormalizedUrl itemUrl() {
        return origin.orElse(url);
    }

    /** The hash of {@link #itemUrl()}: the key of the batch item, the claim and the frontier entry. */
    public String itemHash() {
        return itemUrl().urlHash();
    }

    public SiteKey siteKey() {
        return url.siteKey();
    }

    /**
     * The job's FIFO message group: its site's, split into {@code groupsPerSite} groups by the hash of the URL fetched
     * (a {@code #k} suffix), so that up to that many invocations fetch from one site at once, each in order. The
     * site's rate item still decides every slot. One group per site when {@code groupsPerSite} is 1.
     *
     * <p>By the URL fetched, not the item: a redirect from another site to a page the batch also asked for makes two
     * jobs of one URL, and in one group they never run in two invocations at once, so the later one finds the page
     * fetched instead of asking the site for it again.
     */
    public String messageGroupId(int groupsPerSite) {
        String site = siteKey().messageGroupId();
        if (groupsPerSite <= 1) {
            return site;
        }
        return site + "#" + Integer.parseInt(urlHash().substring(0, 4), 16) % groupsPerSite;
    }

    /**
     * SQS FIFO drops a message whose deduplication id was seen in the last 5 minutes, silently. The id is therefore
     * the same for a re-sent copy of one send (a retried SendMessage must not fetch twice) and different for every
     * new send (a job sent again after a refusal or for a retry must never be dropped and strand its batch).
     */
    public String deduplicationId() {
        return Hashing.sha256Hex(batchId + "\n" + url.value() + "\n" + origin.map(NormalizedUrl::value).orElse(""))
                .substring(0, 40) + "-a" + attempt + "-s" + send;
    }
}
