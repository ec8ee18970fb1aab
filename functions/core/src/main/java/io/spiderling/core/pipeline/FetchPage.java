package io.spiderling.core.pipeline;

import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.ContentKey;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.politeness.RetryDecision;
import io.spiderling.core.politeness.RetryPolicy;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.FetchSwitch;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.recrawl.Freshness;
import io.spiderling.core.recrawl.RecrawlPolicy;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.core.url.UrlNormalizer;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * Handles one fetch job: decides whether the site may be asked now, asks it, and stores what came back.
 *
 * <p>In order: the kill switch, the batch's cancellation, the opt-out list, the stored copy's freshness (another
 * batch may have fetched the URL since it was planned), robots.txt and the rate slot ({@link SitePoliteness}), then the
 * GET. Whatever must wait (the switch, a rate refusal, a robots.txt outage, a retry after an error) goes back to the
 * frontier with its due time, never to the queue's visibility timeout. Redirects are followed here, one hop at a time:
 * a hop within the site passes the same gate inline; a hop to another site becomes a job in that site's group.
 *
 * <p>Storing keeps Secor's order: the body under its deterministic content key first, then the metadata row, then the
 * batch item's terminal state, so a crash in between leaves a retry that overwrites rather than a row pointing at
 * nothing. Only the stores failing is an infrastructure failure; it propagates so the message is retried.
 */
public final class FetchPage {

    /** S3 user metadata on stored bodies; the extract stage reads them back. */
    public static final String META_URL = "url";
    public static final String META_URL_HASH = "url-hash";
    public static final String META_FETCHED_AT = "fetched-at";
    public static final String META_CONTENT_SHA256 = "content-sha256";
    public static final String META_HTTP_STATUS = "http-status";

    /** The response headers kept on the metadata row. */
    public static final Set<String> KEPT_HEADERS = Set.of("content-type", "content-length", "etag", "last-modified",
            "cache-control", "expires", "retry-after");

    private static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    /** Told what the fetch stage stored, for what follows it. */
    public interface Listener {
        Listener NONE = new Listener() {};

        /**
         * A fetch stored no new object because identical bytes were already stored under their content key: no
         * object-created event will come for this URL, so its extraction happens here instead.
         */
        default void reused(NormalizedUrl url, byte[] body, String contentType, String sha256, Instant fetchedAt) {}

        /** A URL was fetched (or confirmed unchanged) and its items ended, in these batches. */
        default void fetched(FetchRecord record, List<String> batchIds) {}
    }

    /**
     * @param optOut sites that are never contacted; their URLs end as {@code disallowed} with detail {@code opt-out}
     * @param maxRedirects hops followed before a URL fails
     * @param pausedRecheck how long a job waits in the frontier while the kill switch is off
     * @param freshMin the shortest freshness caching headers can set
     * @param freshMax the longest freshness caching headers can set
     */
    public record Settings(Set<SiteKey> optOut, int maxRedirects, Duration pausedRecheck, Duration freshMin,
            Duration freshMax) {
        public static final Settings DEFAULTS = new Settings(Set.of(), 5, Duration.ofSeconds(30), Duration.ZERO,
                Duration.ofDays(30));

        public Settings {
            optOut = Set.copyOf(optOut);
        }
    }

    /** What happened to a job. */
    public sealed interface Outcome {
        /** The job's item ended (and the item of every batch that joined its claim). */
        record Ended(ItemState state, Optional<FetchRecord> record) implements Outcome {}

        /** The job waits in the frontier until {@code until}. */
        record Requeued(Instant until, String why) implements Outcome {}

        /** A redirect to another site: the job continues there as a new job. */
        record Redirected(NormalizedUrl target) implements Outcome {}
    }

    private final PageFetcher fetcher;
    private final BlobStore blobs;
    private final UrlStore urls;
    private final BatchTracker tracker;
    private final Frontier frontier;
    private final SitePoliteness politeness;
    private final RetryPolicy retry;
    private final FetchSwitch fetchSwitch;
    private final UrlNormalizer normalizer;
    private final Clock clock;
    private final DoubleSupplier jitter;
    private final Settings settings;
    private final Listener listener;

    public FetchPage(PageFetcher fetcher, BlobStore blobs, UrlStore urls, BatchTracker tracker, Frontier frontier,
            SitePoliteness politeness, RetryPolicy retry, FetchSwitch fetchSwitch, UrlNormalizer normalizer,
            Clock clock, DoubleSupplier jitter, Settings settings, Listener listener) {
        this.listener = listener;
        this.fetcher = fetcher;
        this.blobs = blobs;
        this.urls = urls;
        this.tracker = tracker;
        this.frontier = frontier;
        this.politeness = politeness;
        this.retry = retry;
        this.fetchSwitch = fetchSwitch;
        this.normalizer = normalizer;
        this.clock = clock;
        this.jitter = jitter;
        this.settings = settings;
    }

    /**
     * Handles the job and reports it to the frontier: a requeued job is already back in its park; any other frees its
     * place and releases the site's next entries. A failure before that propagates and leaves the place taken, so
     * the message's retry still counts against the site.
     */
    public Outcome process(FetchJob job) {
        Outcome outcome = handle(job);
        if (!(outcome instanceof Outcome.Requeued)) {
            frontier.finished(job);
        }
        return outcome;
    }

    /**
     * The invocation holds {@code jobs}, which may include several of one site: their rate slots are taken in one
     * write per site (see {@link SitePoliteness#reserve}). Call {@link #invocationDone} at the end.
     */
    public void invocationHolds(List<FetchJob> jobs) {
        Map<SiteKey, List<FetchJob>> bySite = new HashMap<>();
        jobs.forEach(job -> bySite.computeIfAbsent(job.siteKey(), s -> new ArrayList<>()).add(job));
        bySite.values().forEach(siteJobs -> politeness.reserve(siteJobs.getFirst().url(), siteJobs.size()));
    }

    /** Returns the rate slots the invocation reserved and did not use. */
    public void invocationDone() {
        politeness.returnReserved();
    }

    /**
     * The invocation has too little time left to fetch: the job goes back to the frontier, due at once, as a handled
     * outcome, rather than being failed back to the queue, where it would block its site's group and count towards
     * the dead-letter limit.
     */
    public Outcome postpone(FetchJob job) {
        return requeue(job, job.attempt(), clock.instant(), "invocation out of time");
    }

    /**
     * The job's message arrived after being given up by the queue (the dead-letter queue): its item, and those
     * waiting on it, end as failed with detail {@code dlq}, and its frontier place is freed.
     */
    public Outcome deadLettered(FetchJob job) {
        Instant now = clock.instant();
        tracker.finish(job.batchId(), job.itemHash(), ItemState.FAILED, "dlq", now);
        List<String> waiters = urls.releaseClaim(job.itemHash());
        for (String batchId : waiters) {
            if (!batchId.equals(job.batchId())) {
                tracker.finish(batchId, job.itemHash(), ItemState.FAILED, "dlq", now);
            }
        }
        frontier.finished(job);
        return new Outcome.Ended(ItemState.FAILED, Optional.empty());
    }

    private Outcome handle(FetchJob job) {
        Instant now = clock.instant();
        if (fetchSwitch.paused()) {
            return requeue(job, job.attempt(), now.plus(settings.pausedRecheck()), "fetching paused");
        }
        Optional<BatchStatus> batch = tracker.status(job.batchId());
        boolean cancelled = batch.flatMap(BatchStatus::cancelledAt).isPresent();
        if (cancelled) {
            tracker.finish(job.batchId(), job.itemHash(), ItemState.CANCELLED, "batch cancelled", now);
            List<String> waiters = urls.releaseClaim(job.itemHash());
            if (waiters.stream().allMatch(job.batchId()::equals)) {
                return new Outcome.Ended(ItemState.CANCELLED, Optional.empty());
            }
            // Other batches joined this fetch: it goes on for them, under the claim it takes back.
            rejoin(job, waiters);
        }
        if (settings.optOut().contains(job.siteKey())) {
            return end(job, ItemState.DISALLOWED, "opt-out", Optional.empty());
        }
        Optional<Duration> window = batch.flatMap(b -> b.header().options().recrawlAfter());
        Optional<FetchRecord> stored = urls.find(job.urlHash()).flatMap(UrlStore.UrlRecord::fetch);
        if (job.origin().isEmpty() && RecrawlPolicy.fresh(stored, window, now)) {
            return end(job, ItemState.SKIPPED, "fresh copy fetched at " + stored.get().fetchedAt(), Optional.empty());
        }
        return fetch(job, stored);
    }

    /** Follows the URL hop by hop, each through the site's gate. */
    private Outcome fetch(FetchJob job, Optional<FetchRecord> stored) {
        NormalizedUrl url = job.url();
        List<String> via = new ArrayList<>(job.via());
        while (true) {
            SitePoliteness.Gate gate = politeness.admit(url);
            switch (gate) {
                case SitePoliteness.Gate.Wait wait -> {
                    return requeue(job, job.attempt(), wait.until(), wait.why());
                }
                case SitePoliteness.Gate.Disallowed d -> {
                    return end(job, ItemState.DISALLOWED, "robots.txt" + (via.isEmpty() ? "" : " (" + url.value()
                            + ")"), Optional.of(record(job, url, via, ItemState.DISALLOWED, "robots.txt")));
                }
                case SitePoliteness.Gate.Unreachable u -> {
                    return end(job, ItemState.FAILED, u.reason(),
                            Optional.of(record(job, url, via, ItemState.FAILED, u.reason())));
                }
                case SitePoliteness.Gate.Go go -> {
                    boolean first = url.equals(job.url());
                    Optional<Map<String, String>> cached = first ? stored.map(FetchRecord::headers) : Optional.empty();
                    FetchResult result = fetcher.fetch(new FetchRequest(url.value(), 0,
                            cached.map(h -> h.get("etag")), cached.map(h -> h.get("last-modified"))));
                    politeness.done(go, result);
                    if (!(result instanceof FetchResult.Response r) || !r.redirect()) {
                        return settle(job, url, via, result, stored);
                    }
                    Optional<NormalizedUrl> target = resolve(url, r.headers().get("location"));
                    if (target.isEmpty()) {
                        return fail(job, url, via, r, "redirect to an invalid URL: " + r.headers().get("location"));
                    }
                    if (via.size() + 1 > settings.maxRedirects()) {
                        return fail(job, url, via, r, "more than " + settings.maxRedirects() + " redirects");
                    }
                    if (target.get().equals(job.itemUrl()) || via.contains(target.get().value())
                            || target.get().equals(url)) {
                        return fail(job, url, via, r, "redirect loop at " + target.get().value());
                    }
                    via.add(url.value());
                    if (!target.get().siteKey().equals(url.siteKey())) {
                        frontier.follow(job, target.get(), via);
                        return new Outcome.Redirected(target.get());
                    }
                    url = target.get();
                }
            }
        }
    }

    private Optional<NormalizedUrl> resolve(NormalizedUrl base, String location) {
        if (location == null || location.isBlank()) {
            return Optional.empty();
        }
        try {
            String absolute = URI.create(base.value()).resolve(location.strip()).toString();
            return normalizer.normalize(absolute) instanceof NormalizationResult.Accepted a
                    ? Optional.of(a.url()) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The site answered (or did not): a stored page, a confirmed copy, a retry later, or a failure. */
    private Outcome settle(FetchJob job, NormalizedUrl url, List<String> via, FetchResult result,
            Optional<FetchRecord> stored) {
        Instant now = clock.instant();
        if (result instanceof FetchResult.Response r && r.success()) {
            Stored body = store(job, url, via, r, now);
            recordFetch(body.record(), via);
            if (!body.created()) {
                listener.reused(url, r.body(), body.record().contentType().orElseThrow(),
                        body.record().contentSha256().orElseThrow(), now);
            }
            return end(job, ItemState.FETCHED, null, Optional.of(body.record()));
        }
        if (result instanceof FetchResult.Response r && r.status() == 304 && stored.isPresent()) {
            FetchRecord before = stored.get();
            FetchRecord record = new FetchRecord(before.urlHash(), before.url(), ItemState.NOT_MODIFIED,
                    Optional.of(304), before.contentType(), before.size(), before.truncated(), before.contentKey(),
                    before.contentSha256(), before.finalUrl(), now, r.timeToFirstByte().toMillis(),
                    r.total().toMillis(), Optional.empty(), merged(before.headers(), r.headers()), via,
                    r.connect().toMillis(), job.attempt(), Optional.of(freshUntil(merged(before.headers(),
                            r.headers()), now)));
            recordFetch(record, via);
            return end(job, ItemState.NOT_MODIFIED, null, Optional.of(record));
        }
        if (result instanceof FetchResult.Failure f && "blocked".equals(f.kind())) {
            return fail(job, url, via, result, "blocked: " + f.message());
        }
        return switch (retry.decide(result, job.attempt(), now, jitter.getAsDouble())) {
            case RetryDecision.Retry again -> requeue(job, again.nextAttempt(), again.notBefore(),
                    "retry after " + describe(result));
            case RetryDecision.GiveUp giveUp -> fail(job, url, via, result, giveUp.reason());
            case RetryDecision.Done done -> fail(job, url, via, result, describe(result));
        };
    }

    private static String describe(FetchResult result) {
        return switch (result) {
            case FetchResult.Response r -> "http " + r.status();
            case FetchResult.Failure f -> f.kind() + ": " + f.message();
        };
    }

    private static Map<String, String> merged(Map<String, String> before, Map<String, String> now) {
        Map<String, String> m = new HashMap<>(before);
        m.putAll(kept(now));
        return m;
    }

    private static Map<String, String> kept(Map<String, String> headers) {
        Map<String, String> kept = new HashMap<>();
        headers.forEach((name, value) -> {
            if (KEPT_HEADERS.contains(name)) {
                kept.put(name, value);
            }
        });
        return kept;
    }

    private Instant freshUntil(Map<String, String> headers, Instant fetchedAt) {
        return Freshness.freshUntil(headers, fetchedAt, RecrawlPolicy.DEFAULT_WINDOW, settings.freshMin(),
                settings.freshMax());
    }

    private Outcome fail(FetchJob job, NormalizedUrl url, List<String> via, FetchResult result, String error) {
        Instant now = clock.instant();
        FetchRecord record = switch (result) {
            case FetchResult.Response r -> new FetchRecord(url.urlHash(), url.value(), ItemState.FAILED,
                    Optional.of(r.status()), Optional.ofNullable(r.contentType()), r.body().length, r.truncated(),
                    Optional.empty(), Optional.empty(), Optional.of(r.finalUrl()), now, r.timeToFirstByte().toMillis(),
                    r.total().toMillis(), Optional.of(error), kept(r.headers()), via, r.connect().toMillis(),
                    job.attempt(), Optional.empty());
            case FetchResult.Failure f -> new FetchRecord(url.urlHash(), url.value(), ItemState.FAILED,
                    Optional.empty(), Optional.empty(), 0, false, Optional.empty(), Optional.empty(), Optional.empty(),
                    now, 0, f.total().toMillis(), Optional.of(error), Map.of(), via, 0, job.attempt(),
                    Optional.empty());
        };
        recordFetch(record, via);
        return end(job, ItemState.FAILED, error, Optional.of(record));
    }

    private FetchRecord record(FetchJob job, NormalizedUrl url, List<String> via, ItemState state, String error) {
        FetchRecord record = new FetchRecord(url.urlHash(), url.value(), state, Optional.empty(), Optional.empty(), 0,
                false, Optional.empty(), Optional.empty(), Optional.empty(), clock.instant(), 0, 0,
                Optional.of(error), Map.of(), via, 0, job.attempt(), Optional.empty());
        recordFetch(record, via);
        return record;
    }

    /**
     * The row of the URL that answered, then an alias on each URL of the chain that led to it, so that reading any
     * of them finds this record (the batch's item, keyed by the URL it asked for, ended with this fetch).
     */
    private void recordFetch(FetchRecord record, List<String> via) {
        urls.recordFetch(record);
        for (String hop : via) {
            NormalizedUrl from = NormalizedUrl.parse(hop);
            if (!from.urlHash().equals(record.urlHash())) {
                urls.recordRedirect(from.urlHash(), from.value(), record.url(), record.fetchedAt());
            }
        }
    }

    private Outcome requeue(FetchJob job, int attempt, Instant until, String why) {
        frontier.requeue(job, attempt, until);
        return new Outcome.Requeued(until, why);
    }

    /**
     * Ends the job's item and the items of every batch that joined the URL's claim with the same state. When a
     * redirect chain led here from another site, the record is also the answer for the batch's own URL.
     */
    private Outcome end(FetchJob job, ItemState state, String detail, Optional<FetchRecord> record) {
        Instant at = record.map(FetchRecord::fetchedAt).orElse(clock.instant());
        String itemDetail = detail == null && job.origin().isPresent() ? "via " + job.url().value() : detail;
        tracker.finish(job.batchId(), job.itemHash(), state, itemDetail, at);
        List<String> waiters = urls.releaseClaim(job.itemHash());
        List<String> batchIds = new ArrayList<>(List.of(job.batchId()));
        for (int i = 0; i < waiters.size(); i++) {
            String batchId = waiters.get(i);
            if (batchId.equals(job.batchId())) {
                continue;
            }
            try {
                tracker.finish(batchId, job.itemHash(), state, itemDetail, at);
            } catch (RuntimeException e) {
                rejoin(job, waiters.subList(i, waiters.size()));
                throw e;
            }
            batchIds.add(batchId);
        }
        if (state == ItemState.FETCHED || state == ItemState.NOT_MODIFIED) {
            record.ifPresent(r -> listener.fetched(r, batchIds));
        }
        return new Outcome.Ended(state, record);
    }

    /**
     * Puts back a released claim, with the batches still waiting on it, before an infrastructure failure propagates:
     * the message's retry releases it again and serves them. Without this they would wait for a claim nobody holds.
     */
    private void rejoin(FetchJob job, List<String> waiters) {
        Instant now = clock.instant();
        urls.claim(job.itemHash(), job.itemUrl().value(), job.batchId(), now, now);
        for (String batchId : waiters) {
            urls.claim(job.itemHash(), job.itemUrl().value(), batchId, now, now.minus(Canonicalize.CLAIM_TIMEOUT));
        }
    }

    /** @param created false when identical bytes were already stored under the content key */
    private record Stored(FetchRecord record, boolean created) {}

    /**
     * The body goes under its content key only if no object holds it yet: a conditional PUT, so that of two URLs
     * with the same bytes exactly one creates the object (and gets its object-created event) and the other is told.
     */
    private Stored store(FetchJob job, NormalizedUrl url, List<String> via, FetchResult.Response r,
            Instant fetchedAt) {
        String sha = Hashing.sha256Hex(r.body());
        String key = ContentKey.forSha256(sha);
        Map<String, String> meta = new HashMap<>();
        meta.put(META_URL, url.value());
        meta.put(META_URL_HASH, url.urlHash());
        meta.put(META_FETCHED_AT, fetchedAt.toString());
        meta.put(META_CONTENT_SHA256, sha);
        meta.put(META_HTTP_STATUS, Integer.toString(r.status()));
        String contentType = Optional.ofNullable(r.contentType()).orElse(DEFAULT_CONTENT_TYPE);
        boolean created = blobs.putIfAbsent(key, r.body(), contentType, meta);
        Map<String, String> headers = kept(r.headers());
        return new Stored(new FetchRecord(url.urlHash(), url.value(), ItemState.FETCHED, Optional.of(r.status()),
                Optional.of(contentType), r.body().length, r.truncated(), Optional.of(key), Optional.of(sha),
                Optional.of(r.finalUrl()), fetchedAt, r.timeToFirstByte().toMillis(), r.total().toMillis(),
                Optional.empty(), headers, via, r.connect().toMillis(), job.attempt(),
                Optional.of(freshUntil(headers, fetchedAt))), created);
    }
}
