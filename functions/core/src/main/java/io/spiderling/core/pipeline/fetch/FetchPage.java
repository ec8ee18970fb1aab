package io.spiderling.core.pipeline.fetch;

import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchOutline;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.batch.Reason;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.content.ObjectMetadata;
import io.spiderling.core.fetch.Capture;
import io.spiderling.core.fetch.CaptureFormat;
import io.spiderling.core.fetch.FailureKind;
import io.spiderling.core.fetch.FetchJob;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.fetch.FetchRequest;
import io.spiderling.core.fetch.FetchResult;
import io.spiderling.core.fetch.Hop;
import io.spiderling.core.fetch.SitemapTask;
import io.spiderling.core.fetch.WireExchange;
import io.spiderling.core.frontier.Frontier;
import io.spiderling.core.frontier.WakeUps;
import io.spiderling.core.pipeline.BatchTracker;
import io.spiderling.core.pipeline.ChangeNotices;
import io.spiderling.core.politeness.FetchOutcome;
import io.spiderling.core.politeness.Lanes;
import io.spiderling.core.politeness.RetryDecision;
import io.spiderling.core.politeness.RetryPolicy;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.pipeline.OptOutList;
import io.spiderling.core.port.FetchSwitch;
import io.spiderling.core.port.FetchTelemetry;
import io.spiderling.core.port.PageFetcher;
import io.spiderling.core.port.UrlStore;
import io.spiderling.core.port.WakeQueue;
import io.spiderling.core.recrawl.RecrawlPolicy;
import io.spiderling.core.sitemap.LastmodSkip;
import io.spiderling.core.sitemap.RobotsTxtSitemaps;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.SiteKey;
import io.spiderling.core.url.UrlNormalizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Handles fetch jobs: decides whether the site may be asked now, asks it, and stores what came back.
 *
 * <p>In order: the kill switch, the batch's cancellation, the opt-out list, the stored copy's freshness (another
 * batch may have fetched the URL since it was planned), robots.txt and the rate slot ({@link SitePoliteness}), then the
 * GET. Whatever must wait (the switch, a rate refusal, a robots.txt outage, a retry after an error) goes back to the
 * frontier with its due time, never to the queue's visibility timeout. Redirects are followed here, one hop at a time:
 * a hop in the job's own message group passes the same gate inline; a hop to another of the site's groups goes back
 * to the frontier, due at once, to be sent to that group; a hop to another site becomes a job in that site's park. A
 * URL is thus only ever asked from its own group, where its jobs run one at a time, and a redirect target that the
 * batch also asked for is never requested by two invocations at once.
 *
 * <p>Storing keeps Secor's order: the body under its deterministic content key first, then the metadata row, then the
 * batch item's terminal state, so a crash in between leaves a retry that overwrites rather than a row pointing at
 * nothing. Only the stores failing is an infrastructure failure; it propagates so the message is retried.
 *
 * <p><b>Invocations.</b> Jobs are handled inside an {@link Invocation}, which reads each stored row, robots.txt entry
 * and rate item once (the batch header is read per job, so a cancellation is seen at once), fetches a message
 * group's jobs {@code lanesPerSite} at a time and different groups and sites side by side (each request still taking
 * its slot from the shared rate item), and at its end writes the sites' rate answers, releases the sites' next jobs and checks the
 * batches' completion once each.
 */
public final class FetchPage {

    /** One DEBUG line per job's outcome; off at the functions' INFO level, so it costs no log bytes on Lambda. */
    private static final System.Logger LOG = System.getLogger(FetchPage.class.getName());

    /**
     * How long an invocation trusts its read of a batch's header: a cancellation stops the batch's next pages within
     * this (plus the store's own lag, about a second on an eventually consistent read), and the header, one item per
     * batch, is read at most this often per invocation.
     */
    static final Duration OUTLINE_MAX_AGE = Duration.ofSeconds(1);

    /** Told what the fetch stage stored, for what follows it. */
    public interface Listener {
        Listener NONE = new Listener() {};

        /**
         * A fetch stored no new object because identical bytes were already stored under their content key: no
         * object-created event will come for this URL, so its extraction happens here instead.
         *
         * @param markdown the fetch's batch asked for the Markdown of the page's main content
         */
        default void reused(NormalizedUrl url, byte[] body, String contentType, String sha256, Instant fetchedAt,
                boolean markdown) {}

        /**
         * A batch that asked for Markdown ({@code "markdown": true}) was answered by content stored without it: a fresh
         * copy, a 304, or a fetch made for another batch. Its row should get the Markdown of that content, unless it
         * has it already.
         */
        default void markdownWanted(FetchRecord record) {}

        /** A URL was fetched (or confirmed unchanged) and its items ended, in these batches. */
        default void fetched(FetchRecord record, List<String> batchIds) {}

        /**
         * A job found its outcome recorded by an earlier attempt (its invocation died after recording it): what that
         * attempt told its listeners after the record may be lost, such as the {@code url.changed} of a body it
         * extracted here ({@link #reused}), so it is told again, under the same ids.
         */
        default void recordedBefore(FetchRecord record) {}
    }

    /**
     * @param maxRedirects hops followed before a URL fails
     * @param pausedRecheck how long a job waits in the frontier while the kill switch is off
     * @param freshMin the shortest freshness caching headers can set
     * @param freshMax the longest freshness caching headers can set
     * @param lanesPerSite a message group's jobs fetched at once within an invocation; 1 when the fetch queue already
     *     splits each site into as many message groups as it may have requests in flight
     * @param lanes the fetch queue's message groups of each site ({@link Lanes})
     * @param capture store every page fetch's exchange as it went over the wire ({@link CaptureFormat}), for WARC;
     *     a batch may ask for it where this is off
     */
    public record Settings(int maxRedirects, Duration pausedRecheck, Duration freshMin,
            Duration freshMax, int lanesPerSite, Lanes lanes, boolean capture) {
        public static final Settings DEFAULTS = new Settings(5, Duration.ofSeconds(30), Duration.ZERO,
                Duration.ofDays(30), 1, Lanes.fixed(1), false);

        public Settings {
            if (lanesPerSite < 1) {
                throw new IllegalArgumentException("lanesPerSite must be at least 1, was " + lanesPerSite);
            }
            Objects.requireNonNull(lanes, "lanes");
        }

        public Settings withMaxRedirects(int hops) {
            return new Settings(hops, pausedRecheck, freshMin, freshMax, lanesPerSite, lanes, capture);
        }

        public Settings withLanesPerSite(int count) {
            return new Settings(maxRedirects, pausedRecheck, freshMin, freshMax, count, lanes, capture);
        }

        /**
         * The fetch queue's message groups of each site ({@link Lanes#messageGroupId}). A URL is requested only from
         * its own group, where its jobs run one at a time: the job of a redirect to a URL of another group goes back
         * to the frontier at that hop, due at once, and is sent to that group, instead of racing that URL's own job in
         * another invocation.
         */
        public Settings withLanes(Lanes value) {
            return new Settings(maxRedirects, pausedRecheck, freshMin, freshMax, lanesPerSite, value, capture);
        }

        /** {@link #withLanes} with every site in {@code groups} message groups. */
        public Settings withGroupsPerSite(int groups) {
            return withLanes(Lanes.fixed(groups));
        }

        public Settings withCapture(boolean on) {
            return new Settings(maxRedirects, pausedRecheck, freshMin, freshMax, lanesPerSite, lanes, on);
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

        /**
         * The job's work is done and its item ends elsewhere: a sitemap whose list went to the planners, which end
         * its item when they have planned it (ADR 19).
         */
        record HandedOn(String why) implements Outcome {}
    }

    /** A job's result in {@link Invocation#processAll}: handled, failed, or not started after its site failed. */
    public sealed interface Result {
        FetchJob job();

        record Handled(FetchJob job, Outcome outcome) implements Result {}

        /** An infrastructure failure: the job's message must be retried. */
        record Failed(FetchJob job, RuntimeException error) implements Result {}

        /** An earlier job of the same site failed, so this one was left for the retry, in order. */
        record NotStarted(FetchJob job) implements Result {}
    }

    private final PageFetcher fetcher;
    private final BlobStore blobs;
    private final UrlStore urls;
    private final BatchTracker tracker;
    private final Frontier frontier;
    private final SitePoliteness politeness;
    private final RetryPolicy retry;
    private final FetchSwitch fetchSwitch;
    private final OptOutList optOut;
    private final UrlNormalizer normalizer;
    private final Clock clock;
    private final DoubleSupplier jitter;
    private final Settings settings;
    private final Listener listener;
    private final SitemapReader sitemaps;
    private final WakeQueue wake;
    private final FetchRecords records;
    private final ItemEndings endings;
    private final RedirectFollower redirects;
    private final Optional<ChangeNotices> notices;

    private FetchPage(Builder b) {
        this.fetcher = Objects.requireNonNull(b.fetcher, "fetcher");
        this.blobs = Objects.requireNonNull(b.blobs, "blobs");
        this.urls = Objects.requireNonNull(b.urls, "urls");
        this.tracker = Objects.requireNonNull(b.tracker, "tracker");
        this.frontier = Objects.requireNonNull(b.frontier, "frontier");
        this.politeness = Objects.requireNonNull(b.politeness, "politeness");
        this.retry = Objects.requireNonNull(b.retry, "retry");
        this.fetchSwitch = Objects.requireNonNull(b.fetchSwitch, "fetchSwitch");
        this.optOut = Objects.requireNonNull(b.optOut, "optOut");
        this.normalizer = Objects.requireNonNull(b.normalizer, "normalizer");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.jitter = Objects.requireNonNull(b.jitter, "jitter");
        this.settings = Objects.requireNonNull(b.settings, "settings");
        this.listener = Objects.requireNonNull(b.listener, "listener");
        this.sitemaps = Objects.requireNonNull(b.sitemaps, "sitemaps");
        this.wake = Objects.requireNonNull(b.wake, "wake");
        this.notices = Objects.requireNonNull(b.notices, "notices");
        this.records = new FetchRecords(new FetchRecords.Bounds(settings.freshMin(), settings.freshMax()));
        this.endings = new ItemEndings(tracker, urls);
        this.redirects = new RedirectFollower(normalizer, fetcher);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Names each collaborator; settings default to {@link Settings#DEFAULTS}, the listener to none. */
    public static final class Builder {
        private PageFetcher fetcher;
        private BlobStore blobs;
        private UrlStore urls;
        private BatchTracker tracker;
        private Frontier frontier;
        private SitePoliteness politeness;
        private RetryPolicy retry = RetryPolicy.create();
        private FetchSwitch fetchSwitch = FetchSwitch.ALWAYS_ON;
        private OptOutList optOut = OptOutList.of(Set.of());
        private UrlNormalizer normalizer = UrlNormalizer.create();
        private Clock clock = Clock.systemUTC();
        private DoubleSupplier jitter = Math::random;
        private Settings settings = Settings.DEFAULTS;
        private Listener listener = Listener.NONE;
        private SitemapReader sitemaps = SitemapReader.NONE;
        private WakeQueue wake = WakeQueue.NONE;
        private Optional<ChangeNotices> notices = Optional.empty();

        private Builder() {}

        /**
         * Where the batches of a fetch that asked for changes ({@code "notify"}) are recorded, for the extraction to
         * tell them, or told at once when the extraction came first; by default nowhere.
         */
        public Builder notices(ChangeNotices v) {
            notices = Optional.of(v);
            return this;
        }

        /** Where a site whose jobs wait until a due time asks to be woken then. */
        public Builder wake(WakeQueue v) {
            wake = v;
            return this;
        }

        public Builder fetcher(PageFetcher v) {
            fetcher = v;
            return this;
        }

        public Builder blobs(BlobStore v) {
            blobs = v;
            return this;
        }

        public Builder urls(UrlStore v) {
            urls = v;
            return this;
        }

        public Builder tracker(BatchTracker v) {
            tracker = v;
            return this;
        }

        public Builder frontier(Frontier v) {
            frontier = v;
            return this;
        }

        public Builder politeness(SitePoliteness v) {
            politeness = v;
            return this;
        }

        public Builder retry(RetryPolicy v) {
            retry = v;
            return this;
        }

        /**
         * The sites never contacted (the operator's file and the API's list); their URLs end as {@code disallowed}
         * with reason {@code opt-out}, jobs already queued included. None by default.
         */
        public Builder optOut(OptOutList v) {
            optOut = v;
            return this;
        }

        public Builder fetchSwitch(FetchSwitch v) {
            fetchSwitch = v;
            return this;
        }

        public Builder normalizer(UrlNormalizer v) {
            normalizer = v;
            return this;
        }

        public Builder clock(Clock v) {
            clock = v;
            return this;
        }

        public Builder jitter(DoubleSupplier v) {
            jitter = v;
            return this;
        }

        public Builder settings(Settings v) {
            settings = v;
            return this;
        }

        public Builder listener(Listener v) {
            listener = v;
            return this;
        }

        /** What a fetched sitemap's entries become; by default, none: its item fails. */
        public Builder sitemaps(SitemapReader v) {
            sitemaps = v;
            return this;
        }

        public FetchPage build() {
            return new FetchPage(this);
        }
    }

    /** A new invocation; close it when its jobs are handled. */
    public Invocation invocation() {
        return invocation(FetchTelemetry.NONE);
    }

    /**
     * A new invocation that reports to {@code telemetry}: each job runs inside its {@link FetchTelemetry#job} scope,
     * on whichever lane runs it, and each GET, refusal, retry and stored body is counted.
     */
    public Invocation invocation(FetchTelemetry telemetry) {
        return new Invocation(telemetry);
    }

    /** Handles one job in an invocation of its own. */
    public Outcome process(FetchJob job) {
        try (Invocation invocation = invocation()) {
            return invocation.process(job);
        }
    }

    /**
     * The job's message arrived after being given up by the queue (the dead-letter queue): its item, and those
     * waiting on it, end as failed ({@link Reason#DEAD_LETTER}), and its frontier place is freed.
     */
    public Outcome deadLettered(FetchJob job) {
        Set<String> checkLater = new java.util.HashSet<>();
        endings.end(job, Reason.DEAD_LETTER, "the fetch message failed too many times", clock.instant(),
                checkLater);
        checkLater.forEach(batchId -> tracker.checkCompletion(batchId, clock.instant()));
        frontier.finished(job);
        return new Outcome.Ended(ItemState.FAILED, Optional.empty());
    }

    /**
     * One invocation's jobs, with what they share: the stored rows read once, the sites' politeness
     * session, the frontier places to release once per site, and the batches whose completion to check once each.
     * Safe for its own concurrent lanes; {@link #close} it once.
     */
    public final class Invocation implements AutoCloseable {

        /** A value read at a time. */
        private record Read<T>(T value, Instant at) {}

        private final FetchTelemetry telemetry;
        private final SitePoliteness.Session session;
        private final Frontier.Releases releases = frontier.releases();
        private final Map<String, Optional<UrlStore.UrlRecord>> rows = new ConcurrentHashMap<>();
        private final Set<String> checkLater = ConcurrentHashMap.newKeySet();
        /** The due times of the jobs that went back to wait, per site: each gets a wake-up ({@link WakeUps}). */
        private final Map<SiteKey, Set<Instant>> dueLater = new ConcurrentHashMap<>();
        /** The batches' headers as last read, with when: read again once {@link #OUTLINE_MAX_AGE} old. */
        private final Map<String, Read<Optional<BatchOutline>>> outlines = new ConcurrentHashMap<>();
        /**
         * The bodies (URL hash and SHA-256) this invocation stored or extracted for a batch that asked for Markdown: the
         * extraction renders it, so the batches their fetch ended need not ask again ({@link Listener#markdownWanted}).
         */
        private final Set<String> markdownAsked = ConcurrentHashMap.newKeySet();
        /** URLs a lane of this invocation is fetching now: another lane reaching one by a redirect waits for it. */
        private final Map<String, CompletableFuture<Void>> fetching = new ConcurrentHashMap<>();

        private Invocation(FetchTelemetry telemetry) {
            this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
            this.session = politeness.session(telemetry);
        }

        /**
         * Handles the jobs: each message group's {@code lanesPerSite} at a time, in their order, and groups side by
         * side (a receive may hand out several groups of one site, each a lane of its own). A job whose store fails
         * is {@link Result.Failed}, and its group's jobs not yet started are left ({@link Result.NotStarted}) for the
         * retry. Once {@code outOfTime} says so, jobs not yet started are {@link #postpone}d. Results come in the
         * order of {@code jobs}.
         */
        public List<Result> processAll(List<FetchJob> jobs, BooleanSupplier outOfTime) {
            prefetchRows(jobs);
            Map<String, ConcurrentLinkedQueue<Integer>> byGroup = new LinkedHashMap<>();
            for (int i = 0; i < jobs.size(); i++) {
                byGroup.computeIfAbsent(settings.lanes().messageGroupId(jobs.get(i)),
                        g -> new ConcurrentLinkedQueue<>()).add(i);
            }
            Result[] results = new Result[jobs.size()];
            List<Runnable> lanes = new ArrayList<>();
            byGroup.values().forEach(queue -> {
                AtomicBoolean failed = new AtomicBoolean();
                int count = Math.min(settings.lanesPerSite(), queue.size());
                for (int lane = 0; lane < count; lane++) {
                    lanes.add(() -> {
                        for (Integer i = queue.poll(); i != null; i = queue.poll()) {
                            FetchJob job = jobs.get(i);
                            if (failed.get()) {
                                results[i] = new Result.NotStarted(job);
                                continue;
                            }
                            try (FetchTelemetry.Scope scope = telemetry.job(job)) {
                                results[i] = new Result.Handled(job, outOfTime.getAsBoolean() ? postpone(job)
                                        : handled(job));
                            } catch (RuntimeException e) {
                                failed.set(true);
                                results[i] = new Result.Failed(job, e);
                            }
                        }
                    });
                }
            });
            runAll(lanes);
            return List.of(results);
        }

        /**
         * Handles the job and reports it to the frontier: a requeued job is already back in its park; any other frees
         * its place. A failure before that propagates and leaves the place taken, so the message's retry still counts
         * against the site.
         */
        public Outcome process(FetchJob job) {
            try (FetchTelemetry.Scope scope = telemetry.job(job)) {
                return handled(job);
            }
        }

        private Outcome handled(FetchJob job) {
            Outcome outcome = handle(job);
            if (!(outcome instanceof Outcome.Requeued)) {
                releases.finished(job);
            }
            LOG.log(System.Logger.Level.DEBUG, () -> job.url().value() + " (attempt " + job.attempt() + "): "
                    + describe(outcome));
            return outcome;
        }

        /**
         * The invocation has too little time left to fetch: the job goes back to the frontier, due at once, as a
         * handled outcome, rather than being failed back to the queue, where it would block its site's group and
         * count towards the dead-letter limit.
         */
        public Outcome postpone(FetchJob job) {
            return requeue(job, job.attempt(), clock.instant(), "invocation out of time");
        }

        /**
         * Writes the sites' rate answers, checks the completion of every batch an item of which ended, releases the
         * sites' next jobs, and asks to wake each site whose jobs went back to wait at their due times (on AWS nothing
         * else would release them before the sweep's next look at the site).
         */
        @Override
        public void close() {
            session.close();
            Instant now = clock.instant();
            checkLater.forEach(batchId -> tracker.checkCompletion(batchId, now));
            // Released up to the time the release began: a wait that fell due while it ran was not released, so it
            // gets a wake-up too (at once); otherwise it would wait for the sweep's next look at its site.
            Instant releasing = clock.instant();
            releases.close();
            dueLater.forEach((site, times) -> WakeUps.times(times, releasing).forEach(at -> wake.wake(site, at)));
        }

        /**
         * The job's batch, read once per invocation and batch, and again when the last read is
         * {@link #OUTLINE_MAX_AGE} old: a batch cancelled while earlier jobs of the invocation were fetched has no
         * page requested a second or two after, and a batch's header is read at most once a second per invocation,
         * not per URL (ADR 5).
         */
        private Optional<BatchOutline> outline(String batchId, Instant now) {
            return outlines.compute(batchId, (id, last) -> last != null
                    && now.isBefore(last.at().plus(OUTLINE_MAX_AGE)) ? last
                    : new Read<>(tracker.outline(id), now)).value();
        }

        private void prefetchRows(List<FetchJob> jobs) {
            List<String> hashes = jobs.stream().map(FetchJob::urlHash).distinct()
                    .filter(hash -> !rows.containsKey(hash)).toList();
            if (hashes.size() > 1) {
                Map<String, UrlStore.UrlRecord> found = urls.findAll(hashes);
                hashes.forEach(hash -> rows.put(hash, Optional.ofNullable(found.get(hash))));
            }
        }

        private Outcome handle(FetchJob job) {
            Instant now = clock.instant();
            if (fetchSwitch.paused()) {
                return requeue(job, job.attempt(), now.plus(settings.pausedRecheck()), "fetching paused");
            }
            Optional<BatchOutline> batch = outline(job.batchId(), now);
            if (batch.flatMap(BatchOutline::cancelledAt).isPresent()
                    && endings.cancel(job, now, checkLater).isEmpty()) {
                return new Outcome.Ended(ItemState.CANCELLED, Optional.empty());
            }
            if (optOut.contains(job.siteKey())) {
                return end(job, Reason.OPT_OUT, "the site opted out of crawling", Optional.empty());
            }
            if (job.hop().sitemap().isPresent()) {
                // A sitemap is read afresh for its batch: the page rows of its URL neither answer nor keep it.
                return walk(job, Optional.empty(), Optional.empty(), false);
            }
            Optional<Duration> window = batch.flatMap(b -> b.header().options().recrawlAfter());
            Optional<FetchRecord> stored = rows.computeIfAbsent(job.urlHash(), urls::find)
                    .flatMap(UrlStore.UrlRecord::fetch);
            Optional<FetchRecord> already = recordedSince(job, stored, batch);
            if (already.isPresent()) {
                listener.recordedBefore(already.get());
                return end(job, already.get().reason(), "recorded at " + already.get().fetchedAt(), already);
            }
            Optional<Outcome> fresh = freshCopy(job, stored, window, now);
            if (fresh.isPresent()) {
                return fresh.get();
            }
            boolean capture = settings.capture() || batch.map(b -> b.header().options().capture()).orElse(false);
            return walk(job, stored, window, capture);
        }

        /**
         * A fresh copy answers a batch's URL at its first hop, unless a sitemap of the batch dated the page after the
         * copy was fetched: the site says it changed since, so it is fetched again (ADR 19).
         */
        private Optional<Outcome> freshCopy(FetchJob job, Optional<FetchRecord> stored, Optional<Duration> window,
                Instant now) {
            if (job.origin().isPresent() || !RecrawlPolicy.fresh(stored, window, now)) {
                return Optional.empty();
            }
            Optional<Instant> lastmod = job.hop().lastmod();
            String copy = "fresh copy fetched at " + stored.get().fetchedAt();
            if (lastmod.isEmpty()) {
                return Optional.of(answeredByCopy(job, Reason.FRESH_COPY, copy, stored.get()));
            }
            return LastmodSkip.skip(lastmod, stored, window, now) ? Optional.of(answeredByCopy(job,
                    Reason.SITEMAP_LASTMOD, copy + ", not before the sitemap's lastmod " + lastmod.get(),
                    stored.get())) : Optional.empty();
        }

        /** Ends the job's item with the stored copy as its answer, which gets Markdown if the batch asked for it. */
        private Outcome answeredByCopy(FetchJob job, Reason reason, String detail, FetchRecord copy) {
            if (!rowHasMarkdown(copy) && wantsMarkdown(job.batchId())) {
                listener.markdownWanted(copy);
            }
            return end(job, reason, detail, Optional.empty());
        }

        /** Whether the URL's row, as this invocation read it, has the Markdown of the record's body already. */
        private boolean rowHasMarkdown(FetchRecord record) {
            return record.contentSha256().isPresent()
                    && rowHasMarkdown(record.urlHash(), record.contentSha256().get());
        }

        private boolean rowHasMarkdown(String urlHash, String contentSha256) {
            return rows.getOrDefault(urlHash, Optional.empty()).flatMap(row -> row.markdownOf(contentSha256))
                    .isPresent();
        }

        private boolean wantsMarkdown(String batchId) {
            return outline(batchId, clock.instant()).map(b -> b.header().options().markdown()).orElse(false);
        }

        /**
         * The job's URL already has an outcome recorded since its batch was created: the job's own, from an invocation
         * that died after recording it and before its message was deleted, or (rarely) a fetch for another batch that
         * ended just before this batch claimed the URL. Either way it answers the job, whatever its state: asking the
         * site again would repeat a request whose answer is known (a 404 as much as a page), and a fresh-copy check
         * alone would ask again after a failure, or with a batch's window of zero. Ending the item again is a no-op
         * when it already ended; the claim is released and its waiters served, as the dead invocation would have.
         */
        private Optional<FetchRecord> recordedSince(FetchJob job, Optional<FetchRecord> stored,
                Optional<BatchOutline> batch) {
            if (job.origin().isPresent() || stored.isEmpty() || batch.isEmpty()) {
                return Optional.empty();
            }
            return RecrawlPolicy.recordedSince(stored, batch.get().header().createdAt());
        }

        /**
         * Follows the URL hop by hop, each through the site's gate. A redirect's target that has a fresh copy is not
         * fetched again: the chain is recorded as leading to it, and the item ends as that copy did (fetched, or
         * not-modified). A target another lane is fetching right now is waited for. Each hop is the job continued at
         * it ({@link FetchJob#continuedAt}), which is what goes back to the frontier when the hop must wait, so that
         * the chain resumes there instead of asking its answered hops again.
         */
        private Outcome walk(FetchJob job, Optional<FetchRecord> stored, Optional<Duration> window,
                boolean capture) {
            FetchJob at = job;
            while (true) {
                NormalizedUrl url = at.url();
                if ((at != job || job.origin().isPresent()) && job.hop().sitemap().isEmpty()) {
                    Optional<FetchRecord> target = rows.computeIfAbsent(url.urlHash(), urls::find)
                            .flatMap(UrlStore.UrlRecord::fetch);
                    if (RecrawlPolicy.fresh(target, window, clock.instant())) {
                        // The item's URL was asked and led here; what it leads to was fetched moments ago.
                        recordAliases(at.via(), target.get(), clock.instant());
                        return end(job, target.get().reason(), "via " + url.value() + ", fetched at "
                                + target.get().fetchedAt(), target);
                    }
                }
                CompletableFuture<Void> mine = new CompletableFuture<>();
                CompletableFuture<Void> other = fetching.putIfAbsent(url.urlHash(), mine);
                if (other != null) {
                    // Another lane is fetching this URL: wait for it, then look again (it is probably fresh now).
                    // A lane waits only while it holds no URL of its own, so two lanes never wait on each other.
                    other.join();
                    continue;
                }
                Step step;
                try {
                    step = hop(job, at, stored, capture);
                } finally {
                    fetching.remove(url.urlHash());
                    mine.complete(null);
                }
                switch (step) {
                    case Step.Done done -> {
                        return done.outcome();
                    }
                    case Step.Next next -> at = next.at();
                }
            }
        }

        /**
         * One hop, {@code at}: through the gate, the GET, and what it led to. A wait sends {@code at} back to the
         * frontier; a redirect within the site is the next hop. robots.txt is decided, and the request sent, on the
         * hop's request URL, the spelling asked for; everything else keys on its normalized URL.
         */
        private Step hop(FetchJob job, FetchJob at, Optional<FetchRecord> stored, boolean capture) {
            NormalizedUrl url = at.url();
            Optional<Map<String, String>> cached = url.equals(job.url())
                    ? stored.map(FetchRecord::headers) : Optional.empty();
            FetchRequest request = FetchRequest.conditional(at.request().value(), cached.map(h -> h.get("etag")),
                    cached.map(h -> h.get("last-modified"))).withCapture(capture);
            if (at.hop().sitemap().filter(task -> !task.robotsTxt()).isPresent()) {
                // A robots.txt keeps the page cap: only its first 500 KiB are read (RobotsTxtSitemaps).
                request = request.withMaxBodyBytes(sitemaps.maxBodyBytes());
            }
            SitePoliteness.Sent sent = redirects.send(session, at.hop(), () -> session.admit(at.hop()), request);
            return switch (sent) {
                case SitePoliteness.Sent.Refused(SitePoliteness.Gate.Wait wait) ->
                        new Step.Done(requeue(at, at.attempt(), wait.until(), wait.why()));
                case SitePoliteness.Sent.Refused(SitePoliteness.Gate.Disallowed d) ->
                        new Step.Done(refused(job, at, Reason.ROBOTS_DISALLOWED, d.refusal().describe(clock.instant())
                                + (at.via().isEmpty() ? "" : " for " + at.request().value())));
                case SitePoliteness.Sent.Refused(SitePoliteness.Gate.Unreachable u) ->
                        new Step.Done(refused(job, at, u.reason(), u.detail()));
                case SitePoliteness.Sent.Answered answered -> answered(job, at, answered, stored, capture);
            };
        }

        /** What the site's answer to hop {@code at} leads to: an outcome, or the next hop of a redirect. */
        private Step answered(FetchJob job, FetchJob at, SitePoliteness.Sent.Answered answered,
                Optional<FetchRecord> stored, boolean capture) {
            FetchResult result = answered.result();
            telemetry.fetched(FetchOutcome.of(result), result.total());
            Hop next;
            switch (redirects.next(at.hop(), result)) {
                case RedirectFollower.Next.Final last -> {
                    return new Step.Done(settle(job, at, result, stored,
                            capture ? Optional.of(answered.at()) : Optional.empty()));
                }
                case RedirectFollower.Next.Invalid invalid -> {
                    return new Step.Done(fail(job, at, invalid.response(), Reason.REDIRECT_INVALID,
                            "redirect to an invalid URL: " + invalid.location()));
                }
                case RedirectFollower.Next.Redirect redirect -> next = redirect.hop();
            }
            if (at.via().size() + 1 > settings.maxRedirects()) {
                return new Step.Done(fail(job, at, result, Reason.REDIRECT_LIMIT,
                        "more than " + settings.maxRedirects() + " redirects"));
            }
            if (visited(at, next.url())) {
                return new Step.Done(fail(job, at, result, Reason.REDIRECT_LOOP,
                        "redirect loop at " + next.request().value()));
            }
            if (!next.siteKey().equals(at.siteKey())) {
                frontier.follow(job, next);
                return new Step.Done(new Outcome.Redirected(next.url()));
            }
            if (!inGroup(job, next)) {
                // The job's own entry, due now at the next hop: released, it is sent to that hop's group.
                return new Step.Done(requeue(job.continuedAt(next), at.attempt(), clock.instant(),
                        "continues at " + next.url().value() + " in its message group"));
            }
            return new Step.Next(job.continuedAt(next));
        }

        /** Whether {@code next} is fetched in the message group {@code job} was received from. */
        private boolean inGroup(FetchJob job, Hop next) {
            Lanes lanes = settings.lanes();
            return lanes.messageGroupId(job).equals(lanes.messageGroupId(job.continuedAt(next)));
        }

        /** Whether the chain has been at {@code target} already: its item's URL, a hop answered, or this hop. */
        private boolean visited(FetchJob at, NormalizedUrl target) {
            return target.equals(at.itemUrl()) || target.equals(at.url())
                    || at.via().stream().anyMatch(hop -> key(hop).equals(target));
        }

        /**
         * The site answered hop {@code at} (or did not): a stored page, a confirmed copy, a retry later (of that hop),
         * or a failure.
         *
         * @param captureFrom when the request was started, if it asked for a capture
         */
        private Outcome settle(FetchJob job, FetchJob at, FetchResult result, Optional<FetchRecord> stored,
                Optional<Instant> captureFrom) {
            NormalizedUrl url = at.url();
            Instant now = clock.instant();
            if (result instanceof FetchResult.Response r && at.hop().sitemap().isPresent()
                    && (r.success() || robotsTxtUnavailable(at, r))) {
                return switch (sitemaps.read(job, at, r)) {
                    case SitemapReader.Ending ending -> end(job, ending.reason(), ending.detail(), Optional.empty());
                    case SitemapReader.Planning planning -> new Outcome.HandedOn(planning.detail());
                };
            }
            if (result instanceof FetchResult.Response r && r.success()) {
                String sha = Hashing.sha256Hex(r.body());
                // The same bytes again (a recrawl of an unchanged page): the row has their Markdown already.
                boolean markdown = wantsMarkdown(job.batchId()) && !rowHasMarkdown(url.urlHash(), sha);
                boolean created = store(at, r, sha, now, markdown);
                if (markdown || rowHasMarkdown(url.urlHash(), sha)) {
                    markdownAsked.add(url.urlHash() + sha);
                }
                if (created) {
                    telemetry.stored(r.body().length);
                }
                Optional<Capture> capture = captureFrom.flatMap(from -> capture(at, r, from, stored));
                FetchRecord record = recorded(records.stored(at, r, sha, now).withCapture(capture));
                if (!created) {
                    listener.reused(url, r.body(), record.contentType().orElseThrow(), sha, now, markdown);
                }
                return end(job, Reason.FETCHED, null, Optional.of(record));
            }
            if (result instanceof FetchResult.Response r && r.status() == 304 && stored.isPresent()) {
                Optional<Capture> capture = captureFrom.flatMap(from -> capture(at, r, from, stored));
                FetchRecord record = recorded(records.notModified(at, stored.get(), r, now).withCapture(capture));
                return end(job, Reason.NOT_MODIFIED, null, Optional.of(record));
            }
            if (result instanceof FetchResult.Failure f && f.kind() == FailureKind.BLOCKED) {
                return fail(job, at, result, Reason.BLOCKED, "blocked: " + f.message());
            }
            return switch (retry.decide(result, job.attempt(), now, jitter.getAsDouble())) {
                case RetryDecision.Retry again -> {
                    telemetry.retried();
                    yield requeue(at, again.nextAttempt(), again.notBefore(), "retry after " + describe(result));
                }
                case RetryDecision.GiveUp giveUp -> fail(job, at, result, FetchRecords.reason(result),
                        giveUp.reason());
                case RetryDecision.Done done -> fail(job, at, result, FetchRecords.reason(result), describe(result));
            };
        }

        /** A robots.txt read for its sitemaps answered that the site has none: it names none, which is no failure. */
        private boolean robotsTxtUnavailable(FetchJob at, FetchResult.Response response) {
            return at.hop().sitemap().map(SitemapTask::robotsTxt).orElse(false)
                    && RobotsTxtSitemaps.unavailable(response.status());
        }

        private Outcome fail(FetchJob job, FetchJob at, FetchResult result, Reason reason, String error) {
            return end(job, reason, error, pageRecord(at, () -> records.failed(at, result, reason, error,
                    clock.instant())));
        }

        /** No request was made for hop {@code at}: the gate refused it, for {@code reason}. */
        private Outcome refused(FetchJob job, FetchJob at, Reason reason, String detail) {
            return end(job, reason, detail, pageRecord(at, () -> records.refused(at, reason, detail,
                    clock.instant())));
        }

        /** The record of a page's hop, written to its URL's row; a sitemap's hop keeps none there (ADR 19). */
        private Optional<FetchRecord> pageRecord(FetchJob at, Supplier<FetchRecord> record) {
            return at.hop().sitemap().isPresent() ? Optional.empty() : Optional.of(recorded(record.get()));
        }

        private Outcome requeue(FetchJob job, int attempt, Instant until, String why) {
            releases.requeue(job, attempt, until);
            dueLater.computeIfAbsent(job.siteKey(), site -> ConcurrentHashMap.newKeySet()).add(until);
            return new Outcome.Requeued(until, why);
        }

        /**
         * Ends the job's item and the items of every batch that joined its claim with the same state. When a
         * redirect chain led here from another site, the record is also the answer for the batch's own URL.
         */
        private Outcome end(FetchJob job, Reason reason, String detail, Optional<FetchRecord> record) {
            ItemState state = reason.state();
            Instant at = record.map(FetchRecord::fetchedAt).orElse(clock.instant());
            String itemDetail = detail == null && job.origin().isPresent() ? "via " + job.url().value() : detail;
            List<String> batchIds = endings.end(job, reason, itemDetail, at, checkLater);
            record.filter(r -> rowHasMarkdown(r)).ifPresent(r -> markdownAsked.add(r.urlHash()
                    + r.contentSha256().orElseThrow()));
            // What this invocation's other lanes read of the URL from now on, for the freshness of redirect targets.
            record.ifPresent(r -> rows.put(r.urlHash(), Optional.of(new UrlStore.UrlRecord(r.urlHash(),
                    Optional.of(r), Optional.empty()))));
            if (state == ItemState.FETCHED || state == ItemState.NOT_MODIFIED) {
                record.ifPresent(r -> tell(job, r, batchIds));
            }
            return new Outcome.Ended(state, record);
        }

        /**
         * Tells what follows of a fetch that ended items in {@code batchIds}: the listeners ({@code url.fetched}) and,
         * for content stored, the batches among them that asked for changes ({@link ChangeNotices}). A failure fails
         * the job, for its message's retry to tell them again, with the waiting batches back on the URL's claim so
         * that the retry knows them ({@link ItemEndings#keepWaiting}).
         */
        private void tell(FetchJob job, FetchRecord record, List<String> batchIds) {
            try {
                listener.fetched(record, batchIds);
                if (notices.isPresent() && record.state() == ItemState.FETCHED
                        && record.contentSha256().isPresent()) {
                    notices.get().requested(record, asking(batchIds, o -> o.wants(BatchOptions.Notice.CHANGES)));
                }
                if (record.contentSha256().filter(sha -> !markdownAsked.contains(record.urlHash() + sha)).isPresent()
                        && !asking(batchIds, BatchOptions::markdown).isEmpty()) {
                    listener.markdownWanted(record);
                }
            } catch (RuntimeException e) {
                try {
                    endings.keepWaiting(job, batchIds, clock.instant());
                } catch (RuntimeException alsoFailed) {
                    e.addSuppressed(alsoFailed); // the retry then knows only the job's own batch
                }
                throw e;
            }
        }

        /** The batches whose options ask for {@code what}, read from their headers as this invocation last read them. */
        private List<String> asking(List<String> batchIds, Predicate<BatchOptions> what) {
            Instant now = clock.instant();
            return batchIds.stream().filter(batchId -> outline(batchId, now)
                    .map(b -> what.test(b.header().options())).orElse(false)).toList();
        }
    }

    /** Where one hop of a redirect walk led: an outcome for the job, or its next hop on the same site. */
    private sealed interface Step {
        record Done(Outcome outcome) implements Step {}

        record Next(FetchJob at) implements Step {}
    }

    /** Runs the lanes, the last on the calling thread; returns when all have ended. */
    private static void runAll(List<Runnable> lanes) {
        if (lanes.isEmpty()) {
            return;
        }
        List<Thread> started = new ArrayList<>();
        for (Runnable lane : lanes.subList(0, lanes.size() - 1)) {
            started.add(Thread.ofVirtual().name("fetch-lane").start(lane));
        }
        lanes.getLast().run();
        for (Thread thread : started) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while fetch lanes ran", e);
            }
        }
    }

    private static String describe(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Ended ended -> ended.state().wireName();
            case Outcome.Requeued requeued -> "waits until " + requeued.until() + ": " + requeued.why();
            case Outcome.Redirected redirected -> "continues at " + redirected.target().value();
            case Outcome.HandedOn handedOn -> "handed on: " + handedOn.why();
        };
    }

    private static String describe(FetchResult result) {
        return switch (result) {
            case FetchResult.Response r -> "http " + r.status();
            case FetchResult.Failure f -> f.describe();
        };
    }

    /**
     * The body goes under its content key only if no object holds it yet: a conditional PUT, so that of two URLs
     * with the same bytes exactly one creates the object (and gets its object-created event) and the other is told.
     * Returns false when identical bytes were already stored. {@code markdown} flags the body for the extract stage
     * to render its main content as Markdown ({@link ObjectMetadata#MARKDOWN}).
     */
    private boolean store(FetchJob at, FetchResult.Response r, String sha, Instant fetchedAt, boolean markdown) {
        NormalizedUrl url = at.url();
        Map<String, String> meta = new HashMap<>();
        meta.put(ObjectMetadata.URL, url.value());
        meta.put(ObjectMetadata.URL_HASH, url.urlHash());
        meta.put(ObjectMetadata.FETCHED_AT, fetchedAt.toString());
        meta.put(ObjectMetadata.CONTENT_SHA256, sha);
        meta.put(ObjectMetadata.HTTP_STATUS, Integer.toString(r.status()));
        if (markdown) {
            meta.put(ObjectMetadata.MARKDOWN, "true");
        }
        return blobs.putIfAbsent(BucketKeys.content(sha), r.body(), FetchRecords.contentType(r), meta);
    }

    /**
     * Stores the response's wire capture, when it has one, under the hash of its bytes, and says where. Written
     * before the row that points at it. The capture is a revisit of the URL's previous one when the site answered 304
     * or sent the same payload again: {@code refersToAt} is then that capture's time (or the one it referred to).
     */
    private Optional<Capture> capture(FetchJob at, FetchResult.Response r, Instant requestedAt,
            Optional<FetchRecord> stored) {
        NormalizedUrl url = at.url();
        if (r.exchange().isEmpty()) {
            return Optional.empty();
        }
        WireExchange exchange = r.exchange().get();
        byte[] bytes = CaptureFormat.encode(exchange);
        String key = BucketKeys.capture(Hashing.sha256Hex(bytes));
        String payloadDigest = Hashing.warcSha1(exchange.payload());
        Map<String, String> meta = new HashMap<>();
        meta.put(ObjectMetadata.URL, url.value());
        meta.put(ObjectMetadata.URL_HASH, url.urlHash());
        meta.put(ObjectMetadata.REMOTE_IP, exchange.remoteIp());
        meta.put(ObjectMetadata.CAPTURED_AT, requestedAt.toString());
        blobs.put(key, bytes, CaptureFormat.CONTENT_TYPE, meta);
        Optional<Capture> previous = stored.filter(s -> s.url().equals(url.value())).flatMap(FetchRecord::capture);
        Optional<Instant> refersTo = previous.filter(p -> r.status() == 304
                || p.payloadDigest().equals(payloadDigest) && !exchange.payloadTruncated())
                .map(p -> p.refersToAt().orElse(p.capturedAt()));
        return Optional.of(Capture.builder().key(key).remoteIp(exchange.remoteIp()).capturedAt(requestedAt)
                .payloadDigest(payloadDigest).truncated(exchange.payloadTruncated()).refersToAt(refersTo).build());
    }

    /**
     * Writes the row of the URL that answered, then an alias on each URL of the chain that led to it
     * ({@link FetchRecord#redirects()}), so that reading any of them finds this record (the batch's item, keyed by
     * the URL it asked for, ended with this fetch).
     */
    private FetchRecord recorded(FetchRecord record) {
        urls.recordFetch(record);
        recordAliases(record.redirects(), record, record.fetchedAt());
        return record;
    }

    /** Every URL of {@code chain}, requested on the way to {@code target}, now reads as it, from {@code at}. */
    private void recordAliases(List<String> chain, FetchRecord target, Instant at) {
        for (String hop : chain) {
            NormalizedUrl from = key(hop);
            if (!from.urlHash().equals(target.urlHash())) {
                urls.recordRedirect(from.urlHash(), from.value(), target.url(), at);
            }
        }
    }

    /** The key of a URL the chain requested. */
    private NormalizedUrl key(String requested) {
        return switch (normalizer.normalize(requested)) {
            case NormalizationResult.Accepted accepted -> accepted.url();
            case NormalizationResult.Rejected rejected -> throw new IllegalStateException(
                    "a URL requested on a redirect chain does not normalize: " + requested + " (" + rejected.reason()
                            + ")");
        };
    }
}
