package io.spiderling.core.fetch;

import io.spiderling.core.content.Hashing;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.RequestUrl;
import io.spiderling.core.url.SiteKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One attempt at fetching one URL for one batch.
 *
 * @param hop what the job asks now: the URL's key and the spelling requested, and the redirect chain that led there
 * @param attempt 1 for the first attempt at the URL; a retry after an error counts up (the retry policy's count)
 * @param send 1 the first time the frontier sends this entry; every later send (after a rate refusal, a robots wait or
 *     a retry) counts up, so each send has its own deduplication id, see {@link #deduplicationId()}
 * @param partition the partition of its site's frontier that holds the job's entry ({@link
 *     io.spiderling.core.frontier.FrontierEntry#partition}): the job carries it so that its end finds the entry
 *     whatever the site's settings are by then
 */
public record FetchJob(String batchId, Hop hop, int attempt, int send, int partition) {

    public FetchJob {
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(hop, "hop");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
        }
        if (send < 1) {
            throw new IllegalArgumentException("send must be >= 1, was " + send);
        }
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, was " + partition);
        }
    }

    /** A job whose entry is in its site's first frontier partition. */
    public FetchJob(String batchId, Hop hop, int attempt, int send) {
        this(batchId, hop, attempt, send, 0);
    }

    /** A first send of a URL the batch asked for, requested as its key reads. */
    public FetchJob(String batchId, NormalizedUrl url, int attempt) {
        this(batchId, url, attempt, 1);
    }

    /** A URL the batch asked for, requested as its key reads. */
    public FetchJob(String batchId, NormalizedUrl url, int attempt, int send) {
        this(batchId, Hop.of(url), attempt, send);
    }

    /** The URL's key. */
    public NormalizedUrl url() {
        return hop.url();
    }

    /** The spelling requested. */
    public RequestUrl request() {
        return hop.request();
    }

    /** See {@link Hop#origin()}. */
    public Optional<NormalizedUrl> origin() {
        return hop.origin();
    }

    /** See {@link Hop#via()}. */
    public List<String> via() {
        return hop.via();
    }

    /**
     * The rest of this job from a later hop of its redirect chain ({@link Hop#next}). The same item, attempt and send;
     * the job the frontier keeps when the chain must wait, so that it resumes there.
     */
    public FetchJob continuedAt(Hop next) {
        return new FetchJob(batchId, next, attempt, send, partition);
    }

    /** The hash of the URL fetched. */
    public String urlHash() {
        return url().urlHash();
    }

    /** The batch's URL whose item this job ends: the origin of a redirect chain, else the URL itself. */
    public NormalizedUrl itemUrl() {
        return hop.itemUrl();
    }

    /** The key of the batch item, the claim and the frontier entry ({@link Hop#itemKey}). */
    public String itemHash() {
        return hop.itemKey();
    }

    public SiteKey siteKey() {
        return url().siteKey();
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
        // A sitemap's job differs from the job of the page at the same URL; a page's id is as it always was.
        String kind = hop.sitemap().isPresent() ? "\nsitemap" : "";
        return Hashing.sha256Hex(batchId + "\n" + url().value() + "\n" + origin().map(NormalizedUrl::value).orElse("")
                + kind).substring(0, 40) + "-a" + attempt + "-s" + send;
    }
}
