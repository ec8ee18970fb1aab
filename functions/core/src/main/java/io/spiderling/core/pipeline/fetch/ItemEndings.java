package io.spiderling.core.pipeline.fetch;

import io.spiderling.core.batch.Reason;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.port.UrlStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Ends a fetch job's item and the items of every batch that joined its URL's claim (ADR 5), with one outcome. The
 * batches' completion is checked later, once per batch and invocation ({@code checkLater}), not after every item.
 */
final class ItemEndings {

    private final BatchTracker tracker;
    private final UrlStore urls;

    ItemEndings(BatchTracker tracker, UrlStore urls) {
        this.tracker = tracker;
        this.urls = urls;
    }

    /**
     * Ends the job's item, releases the URL's claim, and ends the item of each batch that was waiting on it. Returns
     * every batch whose item ended, the job's own first. If ending a waiting batch's item fails, the claim is put back
     * with the batches not yet served before the failure propagates, so the message's retry serves them.
     *
     * @param checkLater collects the batches whose completion must be checked
     */
    List<String> end(FetchJob job, Reason reason, String detail, Instant at, Set<String> checkLater) {
        if (tracker.finishItem(job.batchId(), job.itemHash(), reason, detail, at).mayComplete()) {
            checkLater.add(job.batchId());
        }
        List<String> waiters = urls.releaseClaim(job.itemHash());
        List<String> batchIds = new ArrayList<>(List.of(job.batchId()));
        for (int i = 0; i < waiters.size(); i++) {
            String batchId = waiters.get(i);
            if (batchId.equals(job.batchId())) {
                continue;
            }
            try {
                if (tracker.finishItem(batchId, job.itemHash(), reason, detail, at).mayComplete()) {
                    checkLater.add(batchId);
                }
            } catch (RuntimeException e) {
                rejoin(job, waiters.subList(i, waiters.size()), at);
                throw e;
            }
            batchIds.add(batchId);
        }
        return batchIds;
    }

    /**
     * The job's own batch was cancelled: its item ends, and the claim is released. Returns the other batches that
     * were waiting on the URL, with the claim taken back for them (the fetch goes on for them); empty when none were.
     */
    List<String> cancel(FetchJob job, Instant at, Set<String> checkLater) {
        if (tracker.finishItem(job.batchId(), job.itemHash(), Reason.BATCH_CANCELLED, "batch cancelled", at)
                .mayComplete()) {
            checkLater.add(job.batchId());
        }
        List<String> waiters = urls.releaseClaim(job.itemHash()).stream()
                .filter(batchId -> !batchId.equals(job.batchId())).toList();
        if (!waiters.isEmpty()) {
            rejoin(job, waiters, at);
        }
        return waiters;
    }

    /**
     * Telling what the fetch found failed after the items ended (an event to the listeners, the change requests of
     * the batches): the batches that were waiting join the URL's claim again, held by the job's own batch, so that the
     * message's retry, which finds the outcome recorded, ends their items again (which changes nothing) and has them
     * to tell. Without this the retry would release no claim and know only the job's own batch.
     *
     * @param batchIds what {@link #end} returned: the job's own batch first, then the waiters
     */
    void keepWaiting(FetchJob job, List<String> batchIds, Instant at) {
        List<String> waiters = batchIds.stream().filter(batchId -> !batchId.equals(job.batchId())).toList();
        if (!waiters.isEmpty()) {
            rejoin(job, waiters, at);
        }
    }

    /**
     * Puts back a released claim, with the batches still waiting on it: the job's own batch holds it, the others
     * join it. Without this they would wait for a claim nobody holds.
     */
    private void rejoin(FetchJob job, List<String> waiters, Instant now) {
        urls.claim(job.itemHash(), job.itemUrl().value(), job.batchId(), now, now);
        for (String batchId : waiters) {
            // A claim made now is live for them: each joins the one just taken.
            urls.claim(job.itemHash(), job.itemUrl().value(), batchId, now, Instant.EPOCH);
        }
    }
}
