package io.spiderling.benchmarks;

import crawlercommons.filters.basic.BasicURLNormalizer;
import crawlercommons.filters.basic.BasicURLNormalizer.IdnNormalization;
import io.spiderling.core.url.UrlNormalizer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * URLs per second through {@link UrlNormalizer#normalize} and through crawler-commons' {@link BasicURLNormalizer}
 * alone, built as UrlNormalizer builds it. The difference is what UrlNormalizer does around the library call: the
 * scheme, userinfo, length and surrogate checks and the path re-encoding before it, the IPv6 form, the removal of
 * tracking parameters and the re-parse with {@link java.net.URI} after it.
 *
 * <p>Each invocation normalizes the whole corpus; {@link OperationsPerInvocation} makes JMH report per URL. The
 * library alone also normalizes the inputs that UrlNormalizer rejects before calling it (no scheme, ftp, userinfo),
 * so the two do not see exactly the same work on those 5%.
 *
 * <p>The corpus is fixed by {@link UrlCorpus#SEED}: 4,096 URLs over 200 hosts, of which about 5% are meant to be
 * rejected.
 *
 * <p>The defaults below are the documented short configuration for a 2-core machine; flags on the command line
 * override them. Five warm-up iterations, not three: the normalizer was still speeding up in the third. The heap is
 * fixed so that GC sizing does not vary between runs. No log output is wanted here, so SLF4J's "no provider"
 * notice is turned off.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dslf4j.internal.verbosity=ERROR"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class NormalizerBenchmark {

    static final int CORPUS_SIZE = 4096;

    private String[] urls;
    private UrlNormalizer normalizer;
    private BasicURLNormalizer basic;

    @Setup
    public void setUp() {
        urls = UrlCorpus.mixed(CORPUS_SIZE).toArray(String[]::new);
        normalizer = UrlNormalizer.create();
        basic = BasicURLNormalizer.newBuilder().idnNormalization(IdnNormalization.PUNYCODE).build();
    }

    @Benchmark
    @OperationsPerInvocation(CORPUS_SIZE)
    public void urlNormalizer(Blackhole blackhole) {
        for (String url : urls) {
            blackhole.consume(normalizer.normalize(url));
        }
    }

    @Benchmark
    @OperationsPerInvocation(CORPUS_SIZE)
    public void basicUrlNormalizer(Blackhole blackhole) {
        for (String url : urls) {
            try {
                blackhole.consume(basic.filter(url));
            } catch (RuntimeException e) {
                // crawler-commons 1.5 can throw on a path with escapes followed by a query (its issue 559);
                // UrlNormalizer catches whatever it throws, so the library alone must too
                blackhole.consume(e);
            }
        }
    }
}
