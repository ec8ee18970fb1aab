package io.spiderling.benchmarks;

import io.spiderling.core.extract.HtmlExtractor;
import io.spiderling.core.extract.PageMetadata;
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
 * Microseconds to extract the metadata of one page: the extract stage's work per stored body, from bytes to
 * {@link PageMetadata}. That is sniffing the encoding (the page declares it only in a meta charset, so the prescan
 * runs), decoding, parsing with jsoup, and reading the meta tags, JSON-LD and outlinks; with about one link per 200
 * bytes, normalizing the links is a large share. The page is {@link PageCorpus#page}: 10 KiB is a small article,
 * 100 KiB a typical page, 1 MiB a large one.
 *
 * <p>The defaults below are the short configuration of the other benchmarks here, for a 2-core machine; flags on the
 * command line override them. The heap is fixed so that GC sizing does not vary between runs. No log output is
 * wanted here, so SLF4J's "no provider" notice is turned off.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dslf4j.internal.verbosity=ERROR"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public class ExtractBenchmark {

    static final String URL = "https://www.example.com/guides/polite-crawling";
    /** Without a charset, as many servers send it, so that the meta prescan decides. */
    static final String CONTENT_TYPE = "text/html";

    /** Page size in bytes. */
    @Param({"10240", "102400", "1048576"})
    public int size;

    private byte[] page;
    private HtmlExtractor extractor;

    @Setup
    public void setUp() {
        page = PageCorpus.page(size);
        extractor = HtmlExtractor.create();
        // Fail loudly rather than time a page that is not the one described (say, if the JSON-LD stops parsing).
        PageMetadata metadata = extractor.extract(page, CONTENT_TYPE, URL);
        int expectedLinks = size / PageCorpus.BYTES_PER_LINK / 2;
        if (!"UTF-8".equals(metadata.encoding()) || metadata.title() == null || metadata.image() == null
                || metadata.structuredData().size() != 3 || metadata.openGraph().size() != 6
                || metadata.outlinksFound() < expectedLinks) {
            throw new IllegalStateException("unexpected page of " + page.length + " bytes: " + metadata.encoding()
                    + ", " + metadata.structuredData().size() + " JSON-LD items, " + metadata.openGraph().size()
                    + " OpenGraph entries, " + metadata.outlinksFound() + " outlinks (at least " + expectedLinks
                    + " expected)");
        }
    }

    @Benchmark
    public PageMetadata extract() {
        return extractor.extract(page, CONTENT_TYPE, URL);
    }
}
