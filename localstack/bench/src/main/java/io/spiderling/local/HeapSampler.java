package io.spiderling.local;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.Consumer;

/**
 * The soak's memory over time: the live heap, sampled every {@code every} by forcing a full collection
 * ({@link System#gc()}, a stop-the-world full GC under G1 unless the JVM was told otherwise) and reading the heap's
 * used bytes right after it. Of the ways to read "live heap after GC", this is the honest one for a minute-by-minute
 * series: the old generation's collection usage ({@code MemoryPoolMXBean#getCollectionUsage}) changes only when an
 * old or mixed collection happens to run, which may be never in a run with a large heap, and the usage after a young
 * collection still holds every dead old object. The price is one full pause a minute, measured and reported.
 *
 * <p>Each sample also holds the committed heap, the live threads and open file descriptors (the other things a leak
 * grows), and the run's progress when it was taken.
 */
final class HeapSampler implements AutoCloseable {

    private static final long MIB = 1024 * 1024;

    /**
     * The run's progress when a sample is taken.
     *
     * @param ended URLs ended
     * @param requests requests the sites had received
     * @param eventsWaiting S3 notifications raised and not yet handled: a backlog of the functions they invoke, held
     *     in the heap (as Lambda's own queue holds them on AWS), which a heap series must be read against
     */
    record Progress(int ended, int requests, int eventsWaiting) {}

    /**
     * @param at since the sampler started
     * @param liveHeap used heap bytes right after the forced full GC
     * @param gcMillis how long the forced GC took
     * @param openFiles open file descriptors of the process; -1 where the OS does not say
     */
    record Sample(Duration at, long liveHeap, long committedHeap, long gcMillis, int threads, long openFiles,
            Progress progress) {

        static String csvHeader() {
            return "minute,elapsed_s,live_heap_mib,committed_heap_mib,gc_ms,threads,open_fds,urls_ended,site_requests,"
                    + "s3_events_waiting";
        }

        String csv() {
            return String.format(Locale.ROOT, "%.2f,%d,%.1f,%.1f,%d,%d,%d,%d,%d,%d", at.toMillis() / 60_000.0,
                    at.toSeconds(), liveHeap / (double) MIB, committedHeap / (double) MIB, gcMillis, threads,
                    openFiles, progress.ended(), progress.requests(), progress.eventsWaiting());
        }

        String line() {
            return String.format(Locale.ROOT, "[%5.1f min] live heap %,.0f MiB (committed %,.0f MiB, GC %d ms),"
                    + " %,d threads, %,d open files; %,d URLs ended, %,d site requests, %,d S3 events waiting",
                    at.toMillis() / 60_000.0, liveHeap / (double) MIB, committedHeap / (double) MIB, gcMillis, threads,
                    openFiles, progress.ended(), progress.requests(), progress.eventsWaiting());
        }
    }

    /** Whether the live heap stayed flat after the warm-up. */
    sealed interface Judgement permits Flat, NotFlat, TooShort {
        /** How the table shows it. */
        String verdict();

        String detail();
    }

    /**
     * The samples after the warm-up, against the first of them.
     *
     * @param baseline the live heap of the first sample at or after the warm-up
     */
    record Range(int samples, Duration at, long baseline, long min, long max, double tolerance) {

        boolean within() {
            return max <= baseline * (1 + tolerance) && min >= baseline * (1 - tolerance);
        }

        String detail() {
            return String.format(Locale.ROOT, "%d samples from %.0f min: %,.0f MiB then, %,.0f to %,.0f MiB after"
                    + " (%.2f to %.2f of it, limit %.2f to %.2f); max/min %.2f", samples, at.toSeconds() / 60.0,
                    baseline / (double) MIB, min / (double) MIB, max / (double) MIB, min / (double) baseline,
                    max / (double) baseline, 1 - tolerance, 1 + tolerance, max / (double) min);
        }
    }

    /** Every sample after the warm-up is within the tolerance of the first. */
    record Flat(Range range) implements Judgement {
        @Override
        public String verdict() {
            return "flat";
        }

        @Override
        public String detail() {
            return range.detail();
        }
    }

    /** A sample after the warm-up is beyond the tolerance of the first: a leak, or a working set growing with the data. */
    record NotFlat(Range range) implements Judgement {
        @Override
        public String verdict() {
            return "NOT FLAT";
        }

        @Override
        public String detail() {
            return range.detail();
        }
    }

    /** Fewer than two samples after the warm-up. */
    record TooShort(int samples, Duration warmup) implements Judgement {
        @Override
        public String verdict() {
            return "not judged";
        }

        @Override
        public String detail() {
            return samples + " sample(s) after the first " + warmup.toSeconds() / 60.0
                    + " min: too short a run to judge";
        }
    }


    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("heap-sampler").daemon().factory());
    private final long start = System.nanoTime();
    private final Supplier<Progress> progress;
    private final Consumer<Sample> onSample;
    private final List<Sample> samples = new ArrayList<>();

    private HeapSampler(Supplier<Progress> progress, Consumer<Sample> onSample) {
        this.progress = progress;
        this.onSample = onSample;
    }

    /** Takes a first sample now, then one every {@code every}, handing each to {@code onSample} too. */
    static HeapSampler start(Duration every, Supplier<Progress> progress, Consumer<Sample> onSample) {
        HeapSampler sampler = new HeapSampler(progress, onSample);
        sampler.timer.scheduleAtFixedRate(sampler::sample, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        return sampler;
    }

    /** Takes a sample now (the last one, at the end of a run). */
    void sampleNow() throws Exception {
        timer.submit(this::sample).get();
    }

    synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    private void sample() {
        long before = System.nanoTime();
        System.gc();
        long gcMillis = (System.nanoTime() - before) / 1_000_000;
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long files = ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                ? unix.getOpenFileDescriptorCount() : -1;
        Sample sample = new Sample(Duration.ofNanos(before - start), heap.getUsed(), heap.getCommitted(), gcMillis,
                ManagementFactory.getThreadMXBean().getThreadCount(), files, progress.get());
        synchronized (this) {
            samples.add(sample);
        }
        onSample.accept(sample);
    }

    /**
     * Judges the samples taken at or after {@code warmup}: flat when each is within {@code tolerance} of the first of
     * them, up or down. A leak shows as a climb from it. The first reading (max/min of the samples within
     * {@code 1 + tolerance}) also failed a run whose heap only fell, when its load drained at the end (the fetch
     * queue's released jobs, about 20 MiB); max/min is still shown.
     */
    static Judgement judge(List<Sample> samples, Duration warmup, double tolerance) {
        List<Sample> after = samples.stream().filter(s -> s.at().compareTo(warmup) >= 0).toList();
        if (after.size() < 2) {
            return new TooShort(after.size(), warmup);
        }
        long min = after.stream().mapToLong(Sample::liveHeap).min().orElseThrow();
        long max = after.stream().mapToLong(Sample::liveHeap).max().orElseThrow();
        Range range = new Range(after.size(), after.getFirst().at(), after.getFirst().liveHeap(), min, max,
                tolerance);
        return range.within() ? new Flat(range) : new NotFlat(range);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
