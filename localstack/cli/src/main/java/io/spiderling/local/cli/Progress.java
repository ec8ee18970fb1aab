package io.spiderling.local.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.ZoneId;
import java.util.OptionalInt;
import me.tongfei.progressbar.InteractiveConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * How a waiting batch shows its progress: a live bar on a terminal, one plain line every few seconds otherwise (a log
 * file or CI should not fill with redraws), or nothing.
 */
sealed interface Progress extends AutoCloseable {

    /** Which display: {@code auto} picks the bar on a terminal and lines elsewhere. */
    enum Mode { AUTO, BAR, LINES, NONE }

    /** How often the plain display prints a line. */
    Duration LINE_EVERY = Duration.ofSeconds(5);

    void update(BatchSnapshot snapshot, Duration elapsed);

    @Override
    void close();

    static Progress of(Mode mode, PrintStream err, ZoneId zone) {
        Mode chosen = mode == Mode.AUTO ? (Terminal.interactive() ? Mode.BAR : Mode.LINES) : mode;
        return switch (chosen) {
            case BAR -> new Bar(err, zone);
            case LINES -> new Lines(err, zone);
            case NONE, AUTO -> new Silent();
        };
    }

    /**
     * The live bar: counts by state, rate and ETA on one redrawn line, what it waits on after it, laid out for the
     * terminal's width by {@link ProgressLine#live} (the waiting text is cut first, never the counts). The progressbar
     * library redraws it; the line is ours.
     */
    final class Bar implements Progress {
        private final PrintStream err;
        private final ZoneId zone;
        /** The terminal's width when a test sets it; otherwise the library reads the terminal's. */
        private final OptionalInt columns;
        private ProgressBar bar;
        private volatile BatchSnapshot last;
        private volatile Duration lastElapsed = Duration.ZERO;

        Bar(PrintStream err, ZoneId zone) {
            this(err, zone, OptionalInt.empty());
        }

        Bar(PrintStream err, ZoneId zone, OptionalInt columns) {
            this.err = err;
            this.zone = zone;
            this.columns = columns;
        }

        @Override
        public void update(BatchSnapshot s, Duration elapsed) {
            last = s;
            lastElapsed = elapsed;
            if (bar == null) {
                ProgressBarBuilder builder = new ProgressBarBuilder().setTaskName("fetch")
                        .setInitialMax(Math.max(1, s.total())).setUpdateIntervalMillis(500)
                        .setRenderer((state, width) -> ProgressLine.live(last, lastElapsed,
                                ProgressLine.waiting(last, zone), width));
                columns.ifPresent(width -> builder.setConsumer(new InteractiveConsoleProgressBarConsumer(err, width)));
                bar = builder.build();
            }
            bar.maxHint(Math.max(1, s.total()));
            bar.stepTo(s.ended());
        }

        @Override
        public void close() {
            if (bar != null) {
                bar.close();
            }
            err.flush();
        }
    }

    /** A plain line at most every {@link #LINE_EVERY}, and one at the end. */
    final class Lines implements Progress {
        private final PrintStream err;
        private final ZoneId zone;
        private Duration lastPrinted;
        private String lastLine = "";

        Lines(PrintStream err, ZoneId zone) {
            this.err = err;
            this.zone = zone;
        }

        @Override
        public void update(BatchSnapshot s, Duration elapsed) {
            String line = "[" + Durations.brief(elapsed) + "] " + ProgressLine.counts(s, elapsed)
                    + ProgressLine.waiting(s, zone).map(w -> " · " + w).orElse("");
            boolean due = lastPrinted == null || elapsed.minus(lastPrinted).compareTo(LINE_EVERY) >= 0;
            if ((due || s.done()) && !line.equals(lastLine)) {
                err.println(line);
                lastPrinted = elapsed;
                lastLine = line;
            }
        }

        @Override
        public void close() {
            err.flush();
        }
    }

    /** {@code --progress none}. */
    final class Silent implements Progress {
        @Override
        public void update(BatchSnapshot s, Duration elapsed) {}

        @Override
        public void close() {}
    }
}
