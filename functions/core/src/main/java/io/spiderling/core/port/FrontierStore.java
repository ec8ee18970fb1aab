package io.spiderling.core.port;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The frontier: per site, the entries parked until they may go to the fetch queue, and the count of those released
 * and not yet done. Entries are identified by (site, batch, URL); each is pending, released, or gone. A site's entries
 * may be spread over several partitions ({@link FrontierEntry#partition}, chosen when parked), so that a site allowed
 * many requests a second spreads their writes over as many keys; its jobs carry their entry's partition, and the
 * counter knows how many partitions to read ({@link SiteState#spread}).
 *
 * <p>A site with entries has a counter ({@link #state}); it is deleted when both counts are back to zero
 * ({@link #forget}). The sweep finds sites through marks kept by the time it should next look at each
 * ({@link #schedule}, {@link #sweepDue}), never by listing every site.
 */
public interface FrontierStore {

    /**
     * Parks an entry unless the same (batch, URL) is already pending or released in its site. Returns true when
     * parked now.
     */
    boolean park(FrontierEntry entry);

    /**
     * {@link #park} for many entries (of any sites, each (batch, URL) once); an adapter may park them in fewer writes.
     * Returns how many were parked now.
     */
    default int parkAll(List<FrontierEntry> entries) {
        int parked = 0;
        for (FrontierEntry entry : entries) {
            parked += park(entry) ? 1 : 0;
        }
        return parked;
    }

    /**
     * Parks entries already released, as a {@link #parkAll} followed at once by a {@link #releaseAll} of them would
     * leave them: each released for its first send ({@code send() + 1}) at {@code now}, its site's released count
     * raised by their number. Site by site, only on condition that the site has no pending entry (so none comes before
     * them in release order, and none of them is parked), room for all of its entries here below
     * {@code cap.applyAsInt(site)}, and none of them released yet; a site refused changes nothing. An adapter may
     * write several sites at once, and may refuse a site with more entries than it writes at once. {@code entries}
     * holds each (batch, URL) once, each site's in release order.
     *
     * @return the sites whose entries were all parked released; the caller parks the others' as usual
     */
    java.util.Set<SiteKey> parkReleased(List<FrontierEntry> entries, Instant now,
            java.util.function.ToIntFunction<SiteKey> cap);

    /**
     * Pending entries of the site whose notBefore has passed, lowest order first, at most {@code limit}, from its
     * partitions below {@code spread} (its counter's {@link SiteState#spread}, as the caller read it).
     */
    List<FrontierEntry> due(SiteKey site, int spread, Instant now, int limit);

    /** {@link #due(SiteKey, int, Instant, int)} over the partitions its counter names now. */
    default List<FrontierEntry> due(SiteKey site, Instant now, int limit) {
        return due(site, state(site).map(SiteState::spread).orElse(1), now, limit);
    }

    /**
     * Up to {@code limit} of one batch's pending entries in the site, in no particular order: what the batch still has
     * parked there (its status reads them to say what they wait for).
     */
    List<FrontierEntry> pendingOfBatch(SiteKey site, String batchId, int limit);

    /** How many of the site's entries are released and not yet done. */
    default int released(SiteKey site) {
        return state(site).map(SiteState::released).orElse(0);
    }

    /**
     * A site's counter, as read (strongly consistent).
     *
     * @param pending entries parked and not released
     * @param released entries released and not done
     * @param progressAt when an entry of the site was last done or put back to wait (empty: never): while a site's
     *     jobs are in the fetch queue, this moves at least every visibility timeout × maxReceiveCount
     * @param checkAt when the sweep is to look at the site next (empty: not scheduled yet)
     * @param spread how many partitions the site's entries may be in: one more than the highest partition an entry
     *     was parked in since the counter was made (1 when all are in the first)
     */
    record SiteState(int pending, int released, Optional<Instant> progressAt, Optional<Instant> checkAt,
            int spread) {

        public SiteState {
            if (spread < 1) {
                throw new IllegalArgumentException("spread must be at least 1, was " + spread);
            }
        }

        /** A site whose entries are all in its first partition. */
        public SiteState(int pending, int released, Optional<Instant> progressAt, Optional<Instant> checkAt) {
            this(pending, released, progressAt, checkAt, 1);
        }

        /** Nothing parked and nothing released: the counter can go. */
        public boolean empty() {
            return pending == 0 && released == 0;
        }
    }

    /** The site's counter; empty when the site has no entries (or its counter was just deleted). */
    Optional<SiteState> state(SiteKey site);

    /**
     * Deletes the site's counter, with its sweep mark at {@code seen.checkAt()}, if both counts are still zero and
     * its mark is still {@code seen.checkAt()}. Returns false, changing nothing, otherwise: a park that raced it
     * keeps its counter. A park after the delete starts a new counter, which the next release schedules.
     */
    boolean forget(SiteKey site, SiteState seen);

    /** A site to be looked at by the sweep at {@code at}. */
    record SweepMark(SiteKey site, Instant at) {}

    /** How many shards the sweep's marks are spread over; the sweep reads each with {@link #sweepDue}. */
    int sweepShards();

    /**
     * Up to {@code limit} marks of the shard due by {@code now}, oldest first. Marks stay until {@link #schedule}
     * moves them or {@link #unmark} removes them, so what is left for another call is read first by the next one.
     * Marks are for the future: one set in an hour before the hour of the latest {@code now} its shard was read at
     * may never be read (an adapter may stop looking at hours past that it found empty).
     */
    List<SweepMark> sweepDue(int shard, Instant now, int limit);

    /**
     * Moves the site's sweep mark from {@code from} to {@code to}, atomically with the counter's {@code checkAt}, on
     * condition that the counter exists and its {@code checkAt} is still {@code from} (empty: none yet). Returns false,
     * changing nothing, otherwise.
     */
    boolean schedule(SiteKey site, Optional<Instant> from, Instant to);

    /** Removes a sweep mark that no counter points at (its site emptied, or it was moved since it was read). */
    void unmark(SweepMark mark);

    /**
     * Moves a pending entry to released, recording the send it is released for ({@code entry.send() + 1}),
     * atomically with the site's released count, and only while that count is below {@code cap}. Returns false, changing
     * nothing, when the entry is no longer pending as it was read (another releaser sent it since, whether or not it
     * has come back to pending with a later send number) or the site is at cap. Releasing a stale copy would re-send
     * a deduplication id the fetch queue has just seen, which SQS FIFO drops silently.
     */
    boolean release(FrontierEntry entry, Instant now, int cap);

    /**
     * Puts the released entry of {@code at}'s item ({@link FetchJob#itemHash()}, in {@code at}'s site and batch) back
     * to pending, atomically with the site's counts, to be sent again from {@code notBefore} with the given attempt
     * number (the same after a refusal or a wait, one more for a retry). It keeps its order and send count, and takes
     * {@code at}'s hop ({@link FrontierEntry#at}): a redirect chain that waits part-way resumes where it stopped,
     * without asking its answered hops again. Returns false, changing nothing, when the entry is not released (a
     * duplicate delivery). The site's progress time becomes {@code now}.
     */
    boolean requeue(FetchJob at, int attempt, Instant notBefore, Instant now);

    /**
     * Removes a released entry once its job has been handled, and sets the site's progress time to {@code now};
     * nothing happens if it is not released.
     */
    void done(SiteKey site, EntryKey entry, Instant now);

    /**
     * {@link #release} for several pending entries of one site, each only while the site stays below {@code cap};
     * an adapter may release them in one write. Returns the entries released now, in order.
     */
    default List<FrontierEntry> releaseAll(SiteKey site, List<FrontierEntry> entries, Instant now, int cap) {
        List<FrontierEntry> released = new ArrayList<>();
        for (FrontierEntry entry : entries) {
            if (release(entry, now, cap)) {
                released.add(entry);
            }
        }
        return released;
    }

    /** One entry of a site, by batch and URL, in the partition that holds it. */
    record EntryKey(String batchId, String urlHash, int partition) {

        /** The key of the entry a job was sent for. */
        public static EntryKey of(FetchJob job) {
            return new EntryKey(job.batchId(), job.itemHash(), job.partition());
        }

        /** The key of an entry. */
        public static EntryKey of(FrontierEntry entry) {
            return new EntryKey(entry.batchId(), entry.urlHash(), entry.partition());
        }
    }

    /** {@link #done} for several entries of one site; an adapter may remove them in one write. */
    default void doneAll(SiteKey site, List<EntryKey> entries, Instant now) {
        entries.forEach(e -> done(site, e, now));
    }

    /**
     * {@link #doneAll} for a site's handled entries, then {@link #releaseAll} for its due ones: the places the first
     * free count for the second. An adapter may do both in one write, with one update of the site's counts; the
     * result is the same as the two calls in turn. Returns the entries released now, in order.
     */
    default List<FrontierEntry> doneAndRelease(SiteKey site, List<EntryKey> done, List<FrontierEntry> due,
            Instant now, int cap) {
        doneAll(site, done, now);
        return releaseAll(site, due, now, cap);
    }

    /**
     * Every site with a counter. It reads the whole store: for a restart of the local stack, never for the sweep.
     */
    List<SiteKey> activeSites();

    /** Released entries released before {@code cutoff}, each as released ({@link FrontierEntry#sentJob}). */
    List<FrontierEntry> releasedBefore(SiteKey site, Instant cutoff);

    /**
     * A released entry presumed lost is sent again under a new send number: its send count goes up by one (so
     * {@link FrontierEntry#job} of the entry as read is the job to send) and its release time becomes {@code now}, on
     * condition that it is still released with the send read. Returns false, changing nothing, otherwise (it was done
     * or sent again meanwhile). A re-send under the old send number would reuse a deduplication id that SQS FIFO
     * forgets after 5 minutes, or still remembers and drops.
     */
    boolean resend(FrontierEntry released, Instant now);
}
