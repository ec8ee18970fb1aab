package io.spiderling.local;

import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.politeness.SiteRate;
import io.spiderling.core.port.RateStore;
import io.spiderling.core.port.RobotsStore;
import io.spiderling.core.url.SiteKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Resumes the fetch work of a local stack whose process died, on its data folder, before the pollers start. The
 * folder's lock proves that no other process holds any of its jobs, so there is no need to wait for the frontier's
 * sweep to presume them lost ({@code lostAfter}, 15 minutes):
 *
 * <ol>
 *   <li>the fetch queue is emptied, by receiving and deleting (ElasticMQ's storage does not keep a purge), so that
 *       the frontier is the one source of fetch jobs: a job left in it and sent again would be fetched twice;</li>
 *   <li>every released frontier entry is sent again at once, under a new send ({@link Frontier#resendReleased}).</li>
 * </ol>
 *
 * The sites' rate slots the dead process held are released too, as its fetches ended with it, and so are its
 * robots.txt fetch claims, which would keep every other fetcher of their origins waiting until they lapse (45 s).
 *
 * <p>Messages of the other queues that were in flight are already visible again: the persistent stack makes them so at
 * start. A job whose outcome was recorded before the crash is not fetched again: the fetch stage ends it as recorded.
 */
public final class LocalResume {

    /**
     * @param drained fetch-queue messages deleted, as copies of jobs the frontier sends again
     * @param resent released frontier entries sent again
     * @param leases the dead process's rate slots that were still counted in flight, released
     * @param robotsClaims the dead process's robots.txt fetch claims that were still held, released
     */
    public record Resumed(int drained, int resent, int leases, int robotsClaims) {}

    private LocalResume() {}

    /**
     * The parts of the stack a resume touches.
     *
     * @param rates the sites' rate state: the slots the dead process held would count as in flight until their lease
     *     lapses (minutes), and a site at its in-flight limit would wait that long
     * @param robots the robots.txt cache, whose fetch claims held at the resume are the dead process's
     */
    public record Parts(SqsClient sqs, String fetchQueueUrl, Frontier frontier, RateStore rates, RobotsStore robots) {}

    public static Resumed resume(Parts parts, Instant now) {
        int drained = drain(parts.sqs(), parts.fetchQueueUrl());
        Frontier.Resent resent = parts.frontier().resendReleased();
        int leases = 0;
        for (SiteKey site : resent.sites()) {
            leases += releaseLeases(parts.rates(), site);
        }
        return new Resumed(drained, resent.entries(), leases, parts.robots().releaseFetchClaims(now));
    }

    /** Receives and deletes every message of the queue; returns how many there were. */
    private static int drain(SqsClient sqs, String queueUrl) {
        int drained = 0;
        while (true) {
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10)
                    .waitTimeSeconds(0)).messages();
            if (messages.isEmpty()) {
                return drained;
            }
            sqs.deleteMessageBatch(b -> b.queueUrl(queueUrl).entries(messages.stream()
                    .map(m -> DeleteMessageBatchRequestEntry.builder().id(m.messageId())
                            .receiptHandle(m.receiptHandle()).build())
                    .toList()));
            drained += messages.size();
        }
    }

    /** Ends every in-flight slot of the site: their fetchers died with the process. Returns how many there were. */
    private static int releaseLeases(RateStore rates, SiteKey site) {
        while (true) {
            Optional<SiteRate> state = rates.find(site);
            if (state.isEmpty() || state.get().inFlight().isEmpty()) {
                return 0;
            }
            SiteRate next = state.get().next(c -> c.inFlight(List.of()));
            if (rates.save(site, next, state.get().version()) instanceof RateStore.Written.Saved) {
                return state.get().inFlight().size();
            }
        }
    }
}
