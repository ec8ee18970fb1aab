package io.spiderling.core.pipeline.ingest;

import io.spiderling.core.batch.BatchHeader;
import io.spiderling.core.batch.BatchOptions;
import io.spiderling.core.batch.BatchPlan;
import io.spiderling.core.batch.BatchPlanner;
import io.spiderling.core.batch.BatchSource;
import io.spiderling.core.batch.PlannedManifest;
import io.spiderling.core.batch.BatchStatus;
import io.spiderling.core.batch.PlanProgress;
import io.spiderling.core.batch.Rejection;
import io.spiderling.core.notify.CallbackPolicy;
import io.spiderling.core.notify.ProgressSchedule;
import io.spiderling.core.port.BlobStore;
import io.spiderling.core.port.NotifyQueue;
import io.spiderling.core.pipeline.Quotas;
import io.spiderling.core.quota.Quota;
import io.spiderling.core.port.BatchHeaderStore;
import io.spiderling.core.port.PendingPlans;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.UrlNormalizer;
import io.spiderling.core.batch.UploadFormat;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Accepts a batch: validates and deduplicates it at the syntax level, records the header and writes the manifest that
 * the canonicalize stage plans from. No per-URL I/O happens here, so a 10,000-URL request stays fast.
 */
public final class Ingest {

    public static final Duration DEFAULT_UPLOAD_URL_TTL = Duration.ofMinutes(15);
    private static final Pattern BATCH_ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    private final UrlNormalizer normalizer;
    private final BatchPlanner planner;
    private final BatchHeaderStore batches;
    private final BlobStore blobs;
    private final Clock clock;
    private final Duration uploadUrlTtl;
    private final Optional<CallbackPolicy> callbacks;
    private final Optional<NotifyQueue> notifyQueue;
    private final PendingPlans pendingPlans;
    private final Quotas quotas;

    private Ingest(Builder b) {
        this.normalizer = Objects.requireNonNull(b.normalizer, "normalizer");
        this.planner = BatchPlanner.create(normalizer);
        this.batches = Objects.requireNonNull(b.batches, "batches");
        this.blobs = Objects.requireNonNull(b.blobs, "blobs");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        this.uploadUrlTtl = Objects.requireNonNull(b.uploadUrlTtl, "uploadUrlTtl");
        this.callbacks = Objects.requireNonNull(b.callbacks, "callbacks");
        this.notifyQueue = Objects.requireNonNull(b.notifyQueue, "notifyQueue");
        this.pendingPlans = Objects.requireNonNull(b.pendingPlans, "pendingPlans");
        this.quotas = Objects.requireNonNull(b.quotas, "quotas");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Names each collaborator; the upload URL's lifetime, the callback check, the progress queue and the
     * watch on pending plans have defaults. */
    public static final class Builder {
        private UrlNormalizer normalizer;
        private BatchHeaderStore batches;
        private BlobStore blobs;
        private Clock clock;
        private Duration uploadUrlTtl = DEFAULT_UPLOAD_URL_TTL;
        private Optional<CallbackPolicy> callbacks = Optional.empty();
        private Optional<NotifyQueue> notifyQueue = Optional.empty();
        private PendingPlans pendingPlans = PendingPlans.NONE;
        private Quotas quotas = Quotas.UNLIMITED;

        private Builder() {}

        public Builder normalizer(UrlNormalizer value) {
            normalizer = value;
            return this;
        }

        public Builder batches(BatchHeaderStore value) {
            batches = value;
            return this;
        }

        public Builder blobs(BlobStore value) {
            blobs = value;
            return this;
        }

        public Builder clock(Clock value) {
            clock = value;
            return this;
        }

        /** How long an upload URL from {@link Ingest#startUpload} stays valid. */
        public Builder uploadUrlTtl(Duration value) {
            uploadUrlTtl = value;
            return this;
        }

        /** Checks a batch's callback URL at submit (the SSRF guard and the allowed hosts); empty to only
         * normalize it. */
        public Builder callbacks(Optional<CallbackPolicy> value) {
            callbacks = value;
            return this;
        }

        /** Where a batch that asks for progress reports gets its first one scheduled. */
        public Builder notifyQueue(Optional<NotifyQueue> value) {
            notifyQueue = value;
            return this;
        }

        /** Where each manifest written, and each upload announced, is watched until planning begins. */
        public Builder pendingPlans(PendingPlans value) {
            pendingPlans = value;
            return this;
        }

        /** The clients' quotas on URLs a day, charged once per new batch; none by default. */
        public Builder quotas(Quotas value) {
            quotas = value;
            return this;
        }

        public Ingest build() {
            return new Ingest(this);
        }
    }

    public sealed interface Result {
        record Accepted(BatchHeader header, BatchPlan plan) implements Result {}

        /** Nothing was stored. */
        record Refused(String reason, List<Rejection> rejected) implements Result {}

        /** The batch id is taken by a different request (an idempotency key reused); nothing was changed. */
        record Conflict(String reason) implements Result {}

        /** The client's quota for the day has no room for the batch's URLs; nothing was stored. */
        record OverQuota(Quota.Decision.OverQuota quota) implements Result {}
    }

    public Result submit(String batchId, List<String> rawUrls, BatchSource source) {
        return submit(batchId, rawUrls, source, BatchOptions.NONE);
    }

    public Result submit(String batchId, List<String> rawUrls, BatchSource source, BatchOptions options) {
        return submit(batchId, "", rawUrls, source, options);
    }

    /**
     * Accepts a batch under {@code batchId}. Submitting the same request again under the same id (a client retrying
     * with its idempotency key) returns the stored batch and changes nothing; a different request under a taken id
     * is a {@link Result.Conflict}.
     *
     * @param client who submits it; only they can see it afterwards
     * @throws IllegalArgumentException for a batch id that cannot name a manifest (see {@link BucketKeys#manifest})
     */
    public Result submit(String batchId, String client, List<String> rawUrls, BatchSource source,
            BatchOptions options) {
        return submit(batchId, client, new Submission(rawUrls, List.of(), options), source);
    }

    /**
     * What a client submits: pages to fetch, sitemaps to read (ADR 19), and the batch's options.
     *
     * @param sitemaps the sitemaps' URLs as written; each becomes an item of the batch, read when its site allows
     * @param sitemapsFromRobots also read the sitemaps that the robots.txt of each site of the batch names: each
     *     site's robots.txt becomes an item of the batch
     */
    public record Submission(List<String> urls, List<String> sitemaps, BatchOptions options,
            boolean sitemapsFromRobots) {
        public Submission {
            urls = List.copyOf(urls);
            sitemaps = List.copyOf(sitemaps);
            Objects.requireNonNull(options, "options");
        }

        /** A submission that reads no robots.txt for sitemaps. */
        public Submission(List<String> urls, List<String> sitemaps, BatchOptions options) {
            this(urls, sitemaps, options, false);
        }
    }

    /** The most sitemaps one request may name. */
    public static final int MAX_SITEMAPS = 1_000;

    /**
     * The most sites whose robots.txt one batch reads for sitemaps ({@code sitemapsFromRobots}): as many as the
     * sitemaps it may name. A batch of URLs on more sites is refused, to be split.
     */
    public static final int MAX_ROBOTS_TXT = MAX_SITEMAPS;

    /** As {@link #submit(String, String, List, BatchSource, BatchOptions)}, with sitemaps besides the URLs. */
    public Result submit(String batchId, String client, Submission submission, BatchSource source) {
        checkBatchId(batchId);
        List<String> rawUrls = submission.urls();
        BatchOptions options = submission.options();
        if (rawUrls.isEmpty() && submission.sitemaps().isEmpty()) {
            return new Result.Refused("urls must not be empty", List.of());
        }
        if (submission.sitemaps().size() > MAX_SITEMAPS) {
            return new Result.Refused("too many sitemaps: " + submission.sitemaps().size() + " (at most "
                    + MAX_SITEMAPS + " per batch)", List.of());
        }
        if (rawUrls.size() > BatchPlanner.MAX_URLS) {
            return new Result.Refused(
                    "too many urls: " + rawUrls.size() + " (at most " + BatchPlanner.MAX_URLS + " per batch)", List.of());
        }
        BatchOptions checked;
        try {
            checked = checkOptions(options);
        } catch (IllegalArgumentException e) {
            return new Result.Refused(e.getMessage(), List.of());
        }
        BatchPlan plan = planner.plan(rawUrls);
        BatchPlan sitemaps = planner.plan(submission.sitemaps());
        List<Rejection> rejected = new ArrayList<>(plan.rejected());
        sitemaps.rejected().forEach(r -> rejected.add(new Rejection(r.url(), "sitemap: " + r.reason())));
        if (plan.accepted().isEmpty() && sitemaps.accepted().isEmpty()) {
            return new Result.Refused("no acceptable URL in the batch", rejected);
        }
        SitesRobotsTxt.Planned robots = submission.sitemapsFromRobots()
                ? SitesRobotsTxt.of(plan.accepted(), sitemaps.accepted())
                : new SitesRobotsTxt.Planned(List.of(), sitemaps.accepted());
        if (robots.robots().size() > MAX_ROBOTS_TXT) {
            return new Result.Refused("sitemapsFromRobots: the batch's URLs are on " + robots.robots().size()
                    + " sites; the robots.txt of at most " + MAX_ROBOTS_TXT + " are read per batch", List.of());
        }
        BatchHeader header = BatchHeader.builder().batchId(batchId)
                .total(plan.accepted().size() + robots.sitemaps().size() + robots.robots().size())
                .duplicates(plan.duplicates() + sitemaps.duplicates() + robots.subsumed(sitemaps.accepted()))
                .rejected(rejected)
                .rejectedCount(rejected.size()).source(source).createdAt(clock.instant()).options(checked)
                .fingerprint(fingerprint(submission.sitemaps().isEmpty() && !submission.sitemapsFromRobots()
                        ? rawUrls : withSitemaps(submission), checked))
                .client(client).build();
        // Charged before the header is written, once per batch (never per URL); a replay gives its charge back.
        Quota.Decision quota = quotas.charge(client, header.total());
        if (quota instanceof Quota.Decision.OverQuota over) {
            // A retry of a batch accepted earlier in the day still finds it, whatever is left of the quota.
            return batches.status(batchId).map(BatchStatus::header)
                    .filter(h -> h.fingerprint().equals(header.fingerprint()) && h.ownedBy(client))
                    .<Result>map(h -> new Result.Accepted(h, plan)).orElse(new Result.OverQuota(over));
        }
        // The header goes first: canonicalize and fetch count against it, and the manifest's event may arrive at once.
        boolean replay;
        try {
            replay = !batches.createBatch(header);
        } catch (RuntimeException e) {
            refund(quota, client, header); // nothing was accepted; the client's retry is charged anew
            throw e;
        }
        if (replay) {
            refund(quota, client, header);
        }
        if (!replay) {
            scheduleProgress(header);
        }
        BatchHeader standing = replay ? batches.status(batchId).orElseThrow().header() : header;
        if (replay && (!standing.fingerprint().equals(header.fingerprint()) || !standing.ownedBy(client))) {
            return new Result.Conflict("batch " + batchId + " already exists for a different request");
        }
        String key = BucketKeys.manifest(batchId);
        // A replay rewrites the manifest only if the first attempt died before writing it: rewriting it would raise
        // another object-created event and re-plan a batch that is under way.
        if (!replay || !blobs.exists(key)) {
            // Watched before it is written: if its event is lost, the sweep plans it; if this attempt dies before
            // the write, the sweep finds no manifest and lets the watch lapse.
            pendingPlans.expect(key, clock.instant());
            blobs.put(key, PlannedManifest.write(plan.accepted(), robots.sitemaps(), robots.robots()),
                    "text/plain; charset=utf-8", Map.of("batch-id", batchId));
        }
        return new Result.Accepted(standing, plan);
    }

    private void refund(Quota.Decision quota, String client, BatchHeader header) {
        if (quota instanceof Quota.Decision.Allowed) {
            quotas.refund(client, header.total(), header.createdAt());
        }
    }

    public sealed interface UploadResult {
        /** The client PUTs its manifest to {@code uploadUrl} before {@code expiresAt}. */
        record Started(BatchHeader header, URI uploadUrl, Instant expiresAt) implements UploadResult {}

        /** Nothing was stored. */
        record Refused(String reason) implements UploadResult {}

        /** The batch id is taken by a different request; nothing was changed. */
        record Conflict(String reason) implements UploadResult {}

        /**
         * The client's quota for the day is used up; nothing was stored. (An upload's URLs are counted when it is
         * planned, since only then are they known.)
         */
        record OverQuota(Quota.Decision.OverQuota quota) implements UploadResult {}
    }

    /**
     * Opens a batch whose URLs the client uploads as a manifest, and returns where to upload it. The batch has no
     * items until the upload arrives (see {@link PlanUpload}). Asking again under the same id with the same request
     * returns the same batch with a fresh upload URL.
     */
    public UploadResult startUpload(String batchId, UploadFormat format, BatchSource source, BatchOptions options) {
        return startUpload(batchId, "", format, source, options);
    }

    /** {@link #startUpload(String, UploadFormat, BatchSource, BatchOptions)} for a client, who alone sees the batch. */
    public UploadResult startUpload(String batchId, String client, UploadFormat format, BatchSource source,
            BatchOptions options) {
        checkBatchId(batchId);
        BatchOptions checked;
        try {
            checked = checkOptions(options);
        } catch (IllegalArgumentException e) {
            return new UploadResult.Refused(e.getMessage());
        }
        Instant now = clock.instant();
        if (quotas.room(client) instanceof Quota.Decision.OverQuota over) {
            return new UploadResult.OverQuota(over);
        }
        BatchHeader header = BatchHeader.builder().batchId(batchId).total(0)
                .source(source).createdAt(now).options(checked)
                .fingerprint(fingerprint(List.of("upload:" + format.wireName()), checked)).upload(Optional.of(format))
                .client(client).build();
        boolean uploaded = false;
        if (batches.createBatch(header)) {
            scheduleProgress(header);
        } else {
            BatchStatus standing = batches.status(batchId).orElseThrow();
            if (!standing.header().fingerprint().equals(header.fingerprint()) || !standing.header().ownedBy(client)) {
                return new UploadResult.Conflict("batch " + batchId + " already exists for a different request");
            }
            header = standing.header();
            uploaded = standing.planning().map(PlanProgress::uploaded).orElse(false);
        }
        String uploadKey = BucketKeys.upload(batchId, format.extension());
        if (!uploaded) {
            // The upload's event starts its planning; watched so that a lost event is made up for by the sweep.
            pendingPlans.expect(uploadKey, now);
        }
        URI url = blobs.presignPut(uploadKey, format.contentType(), uploadUrlTtl);
        return new UploadResult.Started(header, url, now.plus(uploadUrlTtl));
    }

    /** The first progress report's message; each report schedules the next (see {@code NotifyBatch}). */
    private void scheduleProgress(BatchHeader header) {
        header.options().progressEvery().ifPresent(every -> notifyQueue.ifPresent(queue -> queue.send(
                NotifyQueue.Message.progress(header.batchId(), 1),
                new ProgressSchedule(every, header.createdAt()).delayUntil(1, header.createdAt()))));
    }

    private BatchOptions checkOptions(BatchOptions options) {
        Optional<String> callback = options.callbackUrl().map(raw -> switch (normalizer.normalize(raw)) {
            case NormalizationResult.Accepted a -> a.request().value();
            case NormalizationResult.Rejected r -> throw new IllegalArgumentException("callbackUrl: " + r.reason());
        });
        // A name that does not resolve now may later (it is checked again at each send); anything else refused now
        // would be refused then too.
        callback.ifPresent(url -> callbacks.ifPresent(policy -> {
            if (policy.check(url) instanceof CallbackPolicy.Verdict.Refused refused && !refused.retryable()) {
                throw new IllegalArgumentException("callbackUrl refused: " + refused.reason());
            }
        }));
        options.recrawlAfter().ifPresent(d -> {
            if (d.isNegative() || d.compareTo(BatchOptions.MAX_RECRAWL_AFTER) > 0) {
                throw new IllegalArgumentException("recrawlAfter must be between PT0S and "
                        + BatchOptions.MAX_RECRAWL_AFTER + ", was " + d);
            }
        });
        options.progressEvery().ifPresent(d -> {
            if (d.compareTo(BatchOptions.MIN_PROGRESS_EVERY) < 0 || d.compareTo(BatchOptions.MAX_PROGRESS_EVERY) > 0) {
                throw new IllegalArgumentException("progressEvery must be between " + BatchOptions.MIN_PROGRESS_EVERY
                        + " and " + BatchOptions.MAX_PROGRESS_EVERY + ", was " + d);
            }
        });
        if (options.progressEvery().isPresent() && callback.isEmpty()) {
            throw new IllegalArgumentException("progressEvery needs a callbackUrl to post progress to");
        }
        if (!options.notices().isEmpty() && callback.isEmpty()) {
            throw new IllegalArgumentException("notify needs a callbackUrl to post to");
        }
        return options.toBuilder().callbackUrl(callback).build();
    }

    /**
     * The URLs of a request that names sitemaps, or asks for the sites' own, as its fingerprint reads them: each
     * sitemap marked as one, and the ask as a line no URL can be.
     */
    private static List<String> withSitemaps(Submission submission) {
        List<String> all = new ArrayList<>(submission.urls());
        submission.sitemaps().forEach(sitemap -> all.add("sitemap\u0000" + sitemap));
        if (submission.sitemapsFromRobots()) {
            all.add("sitemapsFromRobots\u0000");
        }
        return all;
    }

    /** Identifies a request by what it asked for, so a retry matches and a different request does not. */
    static String fingerprint(List<String> rawUrls, BatchOptions options) {
        return Hashing.sha256Hex(String.join("\n", rawUrls) + "\n\u0000" + options.callbackUrl().orElse("")
                + "\u0000" + options.recrawlAfter().map(Duration::toString).orElse("")
                + options.progressEvery().map(d -> "\u0000" + d).orElse("") + (options.capture() ? "\u0000capture" : "")
                + (options.markdown() ? "\u0000markdown" : "")
                + options.notices().stream().map(n -> "\u0000notify:" + n.wireName()).collect(Collectors.joining()));
    }

    /**
     * Records a submission that could not be accepted (an unreadable queue message, or nothing valid in it) as a
     * batch that is complete at once, so the refusal is visible and the message is never retried.
     */
    public BatchHeader recordRefused(String batchId, BatchSource source, List<Rejection> rejected) {
        return recordRefused(batchId, "", source, rejected);
    }

    /** {@link #recordRefused(String, BatchSource, List)} on behalf of a client. */
    public BatchHeader recordRefused(String batchId, String client, BatchSource source, List<Rejection> rejected) {
        return recordRefused(batchId, client, source, rejected, BatchOptions.NONE);
    }

    /**
     * {@link #recordRefused(String, String, BatchSource, List)} with the options the submission asked for: a refused
     * batch with a callback URL (one over its client's quota) is completed with a completion callback like any other,
     * so its sender hears of the refusal. Options that are themselves refused are left out.
     */
    public BatchHeader recordRefused(String batchId, String client, BatchSource source, List<Rejection> rejected,
            BatchOptions options) {
        checkBatchId(batchId);
        Instant now = clock.instant();
        BatchOptions kept;
        try {
            kept = checkOptions(options);
        } catch (IllegalArgumentException e) {
            kept = BatchOptions.NONE;
        }
        BatchHeader header = BatchHeader.builder().batchId(batchId).total(0).rejected(rejected)
                .rejectedCount(rejected.size()).source(source).createdAt(now).options(kept).client(client).build();
        boolean created = batches.createBatch(header);
        batches.markCompleted(batchId, now);
        if (created && kept.callbackUrl().isPresent()) {
            notifyQueue.ifPresent(queue -> queue.send(NotifyQueue.Message.completed(batchId), Duration.ZERO));
        }
        return header;
    }

    /** Batch ids are 1 to 128 letters, digits, '-', '_' or '.', so they fit in an S3 key and a DynamoDB key. */
    static void checkBatchId(String batchId) {
        if (batchId == null || !BATCH_ID.matcher(batchId).matches()) {
            throw new IllegalArgumentException("invalid batch id: " + batchId);
        }
    }
}
