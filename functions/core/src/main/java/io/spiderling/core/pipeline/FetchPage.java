package io.spiderling.core.pipeline;

import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.ContentKey;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.core.port.UrlStore;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fetches one job's URL and stores what came back: the body under its deterministic content key first, then the
 * metadata row, then the batch item's terminal state (Secor's order: data before metadata, so a crash in between
 * leaves a retry that overwrites rather than a row pointing at nothing).
 *
 * <p>Every answer from the site, an HTTP error or a refused connection included, is a handled outcome. Only the
 * stores throwing is an infrastructure failure, and that propagates so the message is retried.
 */
public final class FetchPage {

    /** S3 user metadata on stored bodies; the extract stage reads them back. */
    public static final String META_URL = "url";
    public static final String META_URL_HASH = "url-hash";
    public static final String META_FETCHED_AT = "fetched-at";
    public static final String META_CONTENT_SHA256 = "content-sha256";
    public static final String META_HTTP_STATUS = "http-status";

    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    private final PageFetcher fetcher;
    private final BlobStore blobs;
    private final UrlStore urls;
    private final BatchTracker tracker;
    private final Frontier frontier;
    private final Clock clock;

    public FetchPage(PageFetcher fetcher, BlobStore blobs, UrlStore urls, BatchTracker tracker, Frontier frontier,
            Clock clock) {
        this.fetcher = fetcher;
        this.blobs = blobs;
        this.urls = urls;
        this.tracker = tracker;
        this.frontier = frontier;
        this.clock = clock;
    }

    /**
     * Fetches the job's URL, records the outcome and ends the job's batch item, then every item of other batches
     * that joined this fetch (see {@link Canonicalize}) with the same outcome.
     *
     * <p>When the job's batch was cancelled its item ends as {@code cancelled}; the site is contacted only if other
     * batches are waiting on this fetch. Returns empty when nothing was fetched.
     *
     * <p>Once the job is handled its place in the site's frontier is freed and the next entries are released. A
     * failure before that propagates and leaves the place taken, so the message's retry still counts against the
     * site.
     */
    public Optional<FetchRecord> process(FetchJob job) {
        Optional<FetchRecord> record = handle(job);
        frontier.finished(job);
        return record;
    }

    private Optional<FetchRecord> handle(FetchJob job) {
        if (tracker.cancelled(job.batchId())) {
            tracker.finish(job.batchId(), job.urlHash(), ItemState.CANCELLED, "batch cancelled", clock.instant());
            List<String> waiters = urls.releaseClaim(job.urlHash());
            if (waiters.isEmpty()) {
                return Optional.empty();
            }
            FetchRecord record;
            try {
                record = fetchAndRecord(job);
            } catch (RuntimeException e) {
                rejoin(job, waiters);
                throw e;
            }
            handOver(job, record, waiters);
            return Optional.of(record);
        }
        FetchRecord record = fetchAndRecord(job);
        tracker.finish(job.batchId(), job.urlHash(), record.state(), record.error().orElse(null), record.fetchedAt());
        handOver(job, record, urls.releaseClaim(job.urlHash()));
        return Optional.of(record);
    }

    private FetchRecord fetchAndRecord(FetchJob job) {
        FetchResult result = fetcher.fetch(job.url().value());
        Instant fetchedAt = clock.instant();
        FetchRecord record = switch (result) {
            case FetchResult.Response r when r.success() -> store(job, r, fetchedAt);
            case FetchResult.Response r -> new FetchRecord(job.urlHash(), job.url().value(), ItemState.FAILED,
                    Optional.of(r.status()), Optional.ofNullable(r.contentType()), r.body().length, r.truncated(),
                    Optional.empty(), Optional.empty(), Optional.of(r.finalUrl()), fetchedAt,
                    r.timeToFirstByte().toMillis(), r.total().toMillis(), Optional.of("http " + r.status()));
            case FetchResult.Failure f -> new FetchRecord(job.urlHash(), job.url().value(), ItemState.FAILED,
                    Optional.empty(), Optional.empty(), 0, false, Optional.empty(), Optional.empty(), Optional.empty(),
                    fetchedAt, 0, f.total().toMillis(), Optional.of(f.kind() + ": " + f.message()));
        };
        urls.recordFetch(record);
        return record;
    }

    /** Ends the waiting batches' items with this fetch's outcome. */
    private void handOver(FetchJob job, FetchRecord record, List<String> waiters) {
        for (int i = 0; i < waiters.size(); i++) {
            String batchId = waiters.get(i);
            if (batchId.equals(job.batchId())) {
                continue;
            }
            try {
                tracker.finish(batchId, job.urlHash(), record.state(), record.error().orElse(null),
                        record.fetchedAt());
            } catch (RuntimeException e) {
                rejoin(job, waiters.subList(i, waiters.size()));
                throw e;
            }
        }
    }

    /**
     * Puts back a released claim, with the batches still waiting on it, before an infrastructure failure propagates:
     * the message's retry releases it again and serves them. Without this they would wait for a claim nobody holds.
     */
    private void rejoin(FetchJob job, List<String> waiters) {
        Instant now = clock.instant();
        urls.claim(job.urlHash(), job.url().value(), job.batchId(), now, now);
        for (String batchId : waiters) {
            urls.claim(job.urlHash(), job.url().value(), batchId, now, now.minus(Canonicalize.CLAIM_TIMEOUT));
        }
    }

    private FetchRecord store(FetchJob job, FetchResult.Response r, Instant fetchedAt) {
        String key = ContentKey.forUrlHash(job.urlHash());
        String sha = Hashing.sha256Hex(r.body());
        Map<String, String> meta = new HashMap<>();
        meta.put(META_URL, job.url().value());
        meta.put(META_URL_HASH, job.urlHash());
        meta.put(META_FETCHED_AT, fetchedAt.toString());
        meta.put(META_CONTENT_SHA256, sha);
        meta.put(META_HTTP_STATUS, Integer.toString(r.status()));
        String contentType = Optional.ofNullable(r.contentType()).orElse(DEFAULT_CONTENT_TYPE);
        blobs.put(key, r.body(), contentType, meta);
        return new FetchRecord(job.urlHash(), job.url().value(), ItemState.FETCHED, Optional.of(r.status()),
                Optional.of(contentType), r.body().length, r.truncated(), Optional.of(key), Optional.of(sha),
                Optional.of(r.finalUrl()), fetchedAt, r.timeToFirstByte().toMillis(), r.total().toMillis(),
                Optional.empty());
    }
}
