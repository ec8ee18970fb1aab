package io.spiderling.core.port;

import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.frontier.FrontierEntry;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The frontier: per site, the entries parked until they may go to the fetch queue, and the count of those released
 * and not yet done. Entries are identified by (site, batch, URL); each is pending, released, or gone.
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

    /** Pending entries of the site whose notBefore has passed, lowest order first, at most {@code limit}. */
    List<FrontierEntry> due(SiteKey site, Instant now, int limit);

    /**
     * Up to {@code limit} of one batch's pending entries in the site, in no particular order: what the batch still has
     * parked there (its status reads them to say what they wait for).
     */
    List<FrontierEntry> pendingOfBatch(SiteKey site, String batchId, int limit);

    /** How many of the site's entries are released and not yet done. */
    int released(SiteKey site);

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
     * duplicate delivery).
     */
    boolean requeue(FetchJob at, int attempt, Instant notBefore);

    /** Removes a released entry once its job has been handled; nothing happens if it is not released. */
    void done(SiteKey site, String batchId, String urlHash);

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

    /** One released entry of a site, by batch and URL. */
    record EntryKey(String batchId, String urlHash) {}

    /** {@link #done} for several entries of one site; an adapter may remove them in one write. */
    default void doneAll(SiteKey site, List<EntryKey> entries) {
        entries.forEach(e -> done(site, e.batchId(), e.urlHash()));
    }

    /** Sites with pending or released entries (and possibly a few that recently emptied). */
    List<SiteKey> activeSites();

    /** Released entries released before {@code cutoff}: their jobs were probably lost. */
    List<FrontierEntry> releasedBefore(SiteKey site, Instant cutoff);

    /** Marks a released entry as sent again at {@code now}. */
    void resent(FrontierEntry entry, Instant now);
}
