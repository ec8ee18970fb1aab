package io.spiderling.benchmarks;

import io.spiderling.core.batch.BatchPlan;
import io.spiderling.core.batch.BatchPlanner;
import io.spiderling.core.url.UrlNormalizer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Milliseconds to plan one submitted batch: what the ingest API does synchronously before it answers. The batch has
 * 30% duplicates in other spellings of earlier entries and spreads over 200 hosts.
 *
 * <p>The defaults below are the documented short configuration for a 2-core machine; flags on the command line
 * override them. Five warm-up iterations, not three: the normalizer was still speeding up in the third. The heap is
 * fixed so that GC sizing does not vary between runs. No log output is wanted here, so SLF4J's "no provider"
 * notice is turned off.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dslf4j.internal.verbosity=ERROR"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class BatchPlannerBenchmark {

    static final double DUPLICATE_SHARE = 0.30;
    static final int HOSTS = 200;

    /** 10,000 is BatchPlanner.MAX_URLS, the largest batch the API accepts. */
    @Param({"1000", "10000"})
    public int batchSize;

    private List<String> batch;
    private BatchPlanner planner;

    @Setup
    public void setUp() {
        batch = List.copyOf(UrlCorpus.batch(batchSize, DUPLICATE_SHARE, HOSTS));
        planner = BatchPlanner.create(UrlNormalizer.create());
        // Fail loudly rather than time a batch that is not the one described (say, if respellings stop matching).
        BatchPlan plan = planner.plan(batch);
        int distinct = UrlCorpus.distinct(batchSize, DUPLICATE_SHARE);
        if (plan.accepted().size() != distinct || plan.duplicates() != batchSize - distinct
                || !plan.rejected().isEmpty()) {
            throw new IllegalStateException("unexpected batch: " + plan.accepted().size() + " accepted, "
                    + plan.duplicates() + " duplicates, " + plan.rejected().size() + " rejected; expected "
                    + distinct + ", " + (batchSize - distinct) + ", 0");
        }
    }

    @Benchmark
    public BatchPlan plan() {
        return planner.plan(batch);
    }
}
