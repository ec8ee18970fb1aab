package io.spiderling.local;

import io.spiderling.aws.DynamoDbBatchStore;
import io.spiderling.aws.DynamoDbUrlStore;
import io.spiderling.aws.S3BlobStore;
import io.spiderling.core.batch.ItemState;
import io.spiderling.core.content.BucketKeys;
import io.spiderling.core.content.Hashing;
import io.spiderling.core.extract.ExtractionRecord;
import io.spiderling.core.extract.PageMetadata;
import io.spiderling.core.fetch.FetchRecord;
import io.spiderling.core.pipeline.query.Queries;
import io.spiderling.core.pipeline.query.Queries.ContentLink;
import io.spiderling.core.pipeline.query.Queries.UrlLookup;
import io.spiderling.core.url.NormalizationResult;
import io.spiderling.core.url.NormalizedUrl;
import io.spiderling.core.url.UrlNormalizer;
import io.spiderling.local.cost.Metering;
import io.spiderling.local.cost.Usage;
import io.spiderling.testkit.EmbeddedAws;
import io.spiderling.testkit.StackResources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code ./spiderling bench-read}: the latency of the read side ({@link Queries}) on the embedded stack, DynamoDB
 * Local and s3proxy in the benchmark's own JVM, through the real adapters and AWS SDK clients.
 *
 * <p>The trial's setup seeds {@code records} URL rows over {@value #HOSTS} hosts through the store's own writes, as
 * the fetch and extract stages leave them: a fetch and an extraction on each page, and on one row in ten a redirect
 * alias to another page, as a followed redirect leaves it. Each read picks its URL at random and spells it
 * differently from the stored form (scheme and host upper-case, the default port written out), so normalizing is
 * part of every read.
 *
 * <ul>
 *   <li>{@code url}: any seeded URL; one BatchGetItem, two for the aliases among them;
 *   <li>{@code urlAlias}: an alias, followed one hop: always two BatchGetItems;
 *   <li>{@code urlUnknown}: a URL never written, on a seeded host: one BatchGetItem that finds nothing;
 *   <li>{@code batchGet100}: {@link Queries#urls} with 100 distinct seeded URLs, aliases included;
 *   <li>{@code contentLink}: {@link Queries#content}, which is {@code url} plus a presigned GET. Presigning is local
 *       signing with no request to S3, so no bodies are stored.
 * </ul>
 *
 * <p>The numbers are for the emulators on this machine, not for DynamoDB: DynamoDB Local answers from SQLite in the
 * same process, over loopback HTTP, and shares the cores with the client. They are useful for comparing changes to the
 * read path (normalizing, the number of calls, item size, decoding), not as service latencies. SampleTime records
 * every call, so the table has the percentiles. With the defaults a run took 7 minutes on two shared cores, about
 * 80 s a benchmark, of which seeding 10,000 rows was 23 to 34 s; flags on the command line override them.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Threads(1)
public class ReadLatencyBenchmark {

    static final int HOSTS = 100;
    /** One row in this many is a redirect alias. */
    static final int ALIAS_EVERY = 10;
    static final int BATCH = Queries.MAX_BATCH_GET;
    static final Duration LINK_TTL = Duration.ofMinutes(15);
    private static final long SEED = 20_261_122L;
    /**
     * Rows written at a time while seeding. One writer seeded about 50 rows a second here (two or three calls a row),
     * which made seeding most of each trial; four seeded 2,000 rows in 15 s.
     */
    private static final int SEED_WRITERS = 4;

    @Param("10000")
    public int records;

    private EmbeddedAws aws;
    /** Counts the reads' calls, for the check; the stores' clients carry it, as the pipeline's do when metered. */
    private Metering metering;
    private DynamoDbClient dynamoDb;
    private S3Client s3;
    private Queries queries;
    private final SplittableRandom seeds = new SplittableRandom(SEED);

    /** Every seeded URL, pages and aliases, each as a client might spell it. */
    private String[] seeded;
    /** The aliases among them. */
    private String[] aliases;
    /** URLs on the seeded hosts that were never written. */
    private String[] unknown;

    @Setup(Level.Trial)
    public void startStack() throws Exception {
        // The emulators log at WARN already (logging.properties); this keeps our own INFO lines out of the table too.
        Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        aws = EmbeddedAws.start();
        metering = Metering.counting();
        dynamoDb = aws.dynamoDb(metering.interceptor());
        s3 = aws.s3(metering.interceptor());
        StackResources r = aws.provision("bench-read");
        UrlNormalizer normalizer = UrlNormalizer.create();
        DynamoDbUrlStore urls = new DynamoDbUrlStore(dynamoDb, r.urlsTable());
        DynamoDbBatchStore batches = new DynamoDbBatchStore(dynamoDb, r.batchesTable());
        queries = Queries.builder().normalizer(normalizer).headers(batches).items(batches).urls(urls)
                .blobs(new S3BlobStore(s3, aws.s3Presigner(), r.bucket())).build();

        long start = System.nanoTime();
        Instant fetchedAt = Instant.parse("2026-11-01T00:00:00Z");
        List<String> all = new ArrayList<>(records);
        List<String> aliased = new ArrayList<>(records / ALIAS_EVERY);
        List<Callable<Void>> writes = new ArrayList<>(records);
        for (int i = 0; i < records; i++) {
            if (i % ALIAS_EVERY == ALIAS_EVERY - 1) {
                continue; // the alias of page i - 1, written with it
            }
            int n = i;
            NormalizedUrl page = normalized(normalizer, pageUrl(i));
            Optional<NormalizedUrl> alias = i + 1 < records && (i + 1) % ALIAS_EVERY == ALIAS_EVERY - 1
                    ? Optional.of(normalized(normalizer, aliasUrl(i))) : Optional.empty();
            writes.add(() -> {
                seed(urls, page, alias, n, fetchedAt.plusSeconds(n));
                return null;
            });
            all.add(respelled(page.value()));
            alias.ifPresent(a -> {
                all.add(respelled(a.value()));
                aliased.add(respelled(a.value()));
            });
        }
        try (ExecutorService writers = Executors.newFixedThreadPool(SEED_WRITERS)) {
            for (Future<Void> write : writers.invokeAll(writes)) {
                write.get();
            }
        }
        seeded = all.toArray(String[]::new);
        aliases = aliased.toArray(String[]::new);
        unknown = new String[records];
        for (int i = 0; i < records; i++) {
            unknown[i] = respelled(normalized(normalizer, unknownUrl(i)).value());
        }
        shuffle(seeded, new SplittableRandom(SEED));
        System.out.printf(Locale.ROOT, "%nseeded %,d rows (%,d aliases) over %d hosts in %.1f s%n", seeded.length,
                aliases.length, HOSTS, (System.nanoTime() - start) / 1e9);
        check();
    }

    /**
     * One page's row as the pipeline leaves it: its fetch (status, kept headers, content key), its extraction, and,
     * when another URL redirected to it, that URL's alias row. Change this when the records' shapes change.
     */
    static void seed(DynamoDbUrlStore urls, NormalizedUrl page, Optional<NormalizedUrl> alias, int i,
            Instant fetchedAt) {
        String sha = Hashing.sha256Hex("body of " + page.value());
        long size = 4_000 + (i * 7_919L) % 60_000;
        Map<String, String> headers = Map.of("content-type", "text/html; charset=utf-8",
                "content-length", Long.toString(size), "etag", "\"" + sha.substring(0, 16) + "\"",
                "last-modified", "Sat, 31 Oct 2026 12:00:00 GMT", "cache-control", "max-age=3600");
        urls.recordFetch(FetchRecord.builder(page.urlHash(), page.value(), ItemState.FETCHED, fetchedAt)
                .httpStatus(200).contentType("text/html; charset=utf-8").size(size)
                .contentKey(BucketKeys.content(sha)).contentSha256(sha).finalUrl(page.value())
                .requestUrl(page.value()).timeToFirstByteMs(40 + i % 200).totalMs(60 + i % 400).headers(headers)
                .redirects(alias.map(a -> List.of(a.value())).orElse(List.of())).connectMs(5 + i % 20)
                .freshUntil(fetchedAt.plus(Duration.ofDays(1))).build());
        urls.recordExtraction(ExtractionRecord.builder().urlHash(page.urlHash()).url(page.value())
                .page(PageMetadata.empty()).contentSha256(sha).contentFetchedAt(fetchedAt)
                .extractedAt(fetchedAt.plusMillis(250)).build());
        alias.ifPresent(a -> urls.recordRedirect(a.urlHash(), a.value(), page.value(), fetchedAt));
    }

    /** Fails the trial when the reads would not measure what their names say. */
    private void check() {
        Instant now = Instant.now();
        for (int from = 0; from < seeded.length; from += BATCH) {
            List<String> batch = List.of(seeded).subList(from, Math.min(seeded.length, from + BATCH));
            List<UrlLookup> found = queries.urls(batch);
            for (int k = 0; k < batch.size(); k++) {
                if (!(found.get(k) instanceof UrlLookup.Found)) {
                    throw new IllegalStateException("a seeded URL was not found: " + batch.get(k));
                }
            }
        }
        long before = batchGets();
        if (!(queries.url(aliases[0]) instanceof UrlLookup.Found f && f.alias().isPresent())) {
            throw new IllegalStateException("an alias was not followed: " + aliases[0]);
        }
        long calls = batchGets() - before;
        if (calls != 2) {
            throw new IllegalStateException("an alias read took " + calls + " BatchGetItem calls, not 2");
        }
        if (!(queries.url(unknown[0]) instanceof UrlLookup.NotFound)) {
            throw new IllegalStateException("an unknown URL was found: " + unknown[0]);
        }
        if (!(queries.content(aliases[0], LINK_TTL, now) instanceof ContentLink.Link)) {
            throw new IllegalStateException("no content link for " + aliases[0]);
        }
    }

    private long batchGets() {
        return metering.snapshot().byOperation().getOrDefault(new Usage.Operation("DynamoDB", "BatchGetItem"),
                Usage.Calls.NONE).calls();
    }

    @TearDown(Level.Trial)
    public void stopStack() {
        dynamoDb.close();
        s3.close();
        metering.close();
        aws.close();
    }

    /** Each thread its own random stream, split from one seed so that runs pick the same URLs. */
    @State(Scope.Thread)
    public static class Picks {
        SplittableRandom random;

        @Setup(Level.Trial)
        public void split(ReadLatencyBenchmark stack) {
            random = stack.split();
        }

        String from(String[] urls) {
            return urls[random.nextInt(urls.length)];
        }

        /** {@value #BATCH} distinct URLs: a window of the shuffled list at a random place. */
        List<String> batch(String[] urls) {
            int from = random.nextInt(urls.length);
            List<String> batch = new ArrayList<>(BATCH);
            for (int k = 0; k < BATCH; k++) {
                batch.add(urls[(from + k) % urls.length]);
            }
            return batch;
        }
    }

    private synchronized SplittableRandom split() {
        return seeds.split();
    }

    @Benchmark
    public UrlLookup url(Picks picks) {
        return queries.url(picks.from(seeded));
    }

    @Benchmark
    public UrlLookup urlAlias(Picks picks) {
        return queries.url(picks.from(aliases));
    }

    @Benchmark
    public UrlLookup urlUnknown(Picks picks) {
        return queries.url(picks.from(unknown));
    }

    @Benchmark
    public List<UrlLookup> batchGet100(Picks picks) {
        return queries.urls(picks.batch(seeded));
    }

    @Benchmark
    public ContentLink contentLink(Picks picks) {
        return queries.content(picks.from(seeded), LINK_TTL, Instant.now());
    }

    /** Page {@code i}: a few path shapes, some with a query, on host {@code i mod HOSTS}. */
    static String pageUrl(int i) {
        String host = "https://www." + String.format(Locale.ROOT, "site-%03d", i % HOSTS) + ".example";
        return switch (i % 3) {
            case 0 -> host + "/articles/" + (2000 + i % 27) + "/story-" + i;
            case 1 -> host + "/products/" + i + "?size=m&color=blue";
            default -> host + "/docs/guide/section-" + i + ".html";
        };
    }

    /** The URL that redirected to page {@code i}: its old http address on the bare host. */
    static String aliasUrl(int i) {
        return "http://" + String.format(Locale.ROOT, "site-%03d", i % HOSTS) + ".example/p/" + i;
    }

    /** A URL on the host of page {@code i} that was never written. */
    static String unknownUrl(int i) {
        return "https://www." + String.format(Locale.ROOT, "site-%03d", i % HOSTS) + ".example/missing/" + i;
    }

    /** The same URL as a client might send it: scheme and host upper-case, and the default port written out. */
    static String respelled(String normalized) {
        int hostStart = normalized.indexOf("://") + 3;
        int pathStart = normalized.indexOf('/', hostStart);
        String scheme = normalized.substring(0, hostStart - 3);
        return scheme.toUpperCase(Locale.ROOT) + "://" + normalized.substring(hostStart, pathStart)
                .toUpperCase(Locale.ROOT) + (scheme.equals("https") ? ":443" : ":80") + normalized.substring(pathStart);
    }

    private static NormalizedUrl normalized(UrlNormalizer normalizer, String raw) {
        return switch (normalizer.normalize(raw)) {
            case NormalizationResult.Accepted a -> a.url();
            case NormalizationResult.Rejected r -> throw new IllegalArgumentException(raw + ": " + r.reason());
        };
    }

    private static void shuffle(String[] a, SplittableRandom random) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            String t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
