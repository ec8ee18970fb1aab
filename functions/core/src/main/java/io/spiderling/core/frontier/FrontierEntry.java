package io.spiderling.core.frontier;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One URL of one batch waiting in its site's park.
 *
 * @param hop what the entry's job asks: the URL's key and the spelling requested, and for a redirect chain where it
 *     stands ({@link Hop})
 * @param order release order within the site, lowest first (see {@link Frontier} for how it is chosen)
 * @param notBefore the entry is not released before this time (a backoff or retry delay; the park time otherwise)
 * @param send how many times the entry has been sent to the fetch queue; its next release sends {@code send + 1}
 * @param partition which of its site's frontier partitions holds it ({@link #partitionOf}); its jobs carry it
 */
public record FrontierEntry(String batchId, Hop hop, int attempt, long order, Instant notBefore, int send,
        int partition) {

    public FrontierEntry {
        Objects.requireNonNull(batchId, "batchId");
        Objects.requireNonNull(hop, "hop");
        Objects.requireNonNull(notBefore, "notBefore");
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, was " + partition);
        }
    }

    /** An entry in its site's first partition. */
    public FrontierEntry(String batchId, Hop hop, int attempt, long order, Instant notBefore, int send) {
        this(batchId, hop, attempt, order, notBefore, send, 0);
    }

    /** An entry not sent yet. */
    public FrontierEntry(String batchId, Hop hop, int attempt, long order, Instant notBefore) {
        this(batchId, hop, attempt, order, notBefore, 0);
    }

    /** An entry not sent yet for a URL the batch asked for, requested as its key reads. */
    public FrontierEntry(String batchId, NormalizedUrl url, int attempt, long order, Instant notBefore) {
        this(batchId, Hop.of(url), attempt, order, notBefore, 0);
    }

    /** The same entry with another attempt, due time and send count. */
    public FrontierEntry with(int attempt, Instant notBefore, int send) {
        return new FrontierEntry(batchId, hop, attempt, order, notBefore, send, partition);
    }

    /** The same entry at the job's hop of its redirect chain ({@link FetchJob#continuedAt}). */
    public FrontierEntry at(FetchJob job) {
        return new FrontierEntry(batchId, job.hop(), attempt, order, notBefore, send, partition);
    }

    /** The same entry in the partition its URL takes among {@code partitions} of its site ({@link #partitionOf}). */
    public FrontierEntry spreadOver(int partitions) {
        return new FrontierEntry(batchId, hop, attempt, order, notBefore, send, partitionOf(urlHash(), partitions));
    }

    /**
     * The partition, among a site's {@code partitions}, that holds the entry of the batch's URL whose hash is
     * {@code urlHash}: by the hash, so that a site's entries, and their writes, spread evenly. It is chosen when the
     * entry is parked, and its jobs carry it ({@link FetchJob#partition}).
     */
    public static int partitionOf(String urlHash, int partitions) {
        if (partitions <= 1) {
            return 0;
        }
        return Integer.parseInt(urlHash.substring(4, 8), 16) % partitions;
    }

    /** The URL's key. */
    public NormalizedUrl url() {
        return hop.url();
    }

    /** See {@link Hop#origin()}. */
    public Optional<NormalizedUrl> origin() {
        return hop.origin();
    }

    /** See {@link Hop#via()}. */
    public List<String> via() {
        return hop.via();
    }

    public SiteKey site() {
        return hop.siteKey();
    }

    /** The key of the entry in its site: the hash of the batch's URL this entry ends (see {@link FetchJob#itemHash}). */
    public String urlHash() {
        return hop.itemKey();
    }

    /** The job a release sends: this entry's next send. */
    public FetchJob job() {
        return new FetchJob(batchId, hop, Math.max(1, attempt), send + 1, partition);
    }

    /**
     * The job a released entry was sent as, with its deduplication id. A lost one is never sent again as this: SQS
     * FIFO forgets an id after 5 minutes, or drops the copy while it remembers.
     * {@link io.spiderling.core.port.FrontierStore#resend} counts a new send, and {@link #job} of the entry as read
     * is what goes.
     */
    public FetchJob sentJob() {
        return new FetchJob(batchId, hop, Math.max(1, attempt), Math.max(1, send), partition);
    }

    /** Names each of the 7 parts where the value is made. */
    public static Builder builder() {
        return new Builder();
    }

    /** The parts by name; {@link #build} checks them as the constructor does. */
    public static final class Builder {
        private String batchId;
        private Hop hop;
        private int attempt;
        private long order;
        private Instant notBefore;
        private int send;
        private int partition;

        private Builder() {}

        public Builder batchId(String value) {
            batchId = value;
            return this;
        }

        public Builder hop(Hop value) {
            hop = value;
            return this;
        }

        public Builder attempt(int value) {
            attempt = value;
            return this;
        }

        public Builder order(long value) {
            order = value;
            return this;
        }

        public Builder notBefore(Instant value) {
            notBefore = value;
            return this;
        }

        public Builder send(int value) {
            send = value;
            return this;
        }

        public Builder partition(int value) {
            partition = value;
            return this;
        }

        public FrontierEntry build() {
            return new FrontierEntry(batchId, hop, attempt, order, notBefore, send, partition);
        }
    }
}
