package io.spiderling.local.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.ZoneId;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

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

    /** The live bar: counts by state, rate and ETA on one redrawn line, what it waits on after it. */
    final class Bar implements Progress {
        private final PrintStream err;
        private final ZoneId zone;
        private ProgressBar bar;

        Bar(PrintStream err, ZoneId zone) {
            this.err = err;
            this.zone = zone;
        }

        @Override
        public void update(BatchSnapshot s, Duration elapsed) {
            if (bar == null) {
                bar = new ProgressBarBuilder().setTaskName("fetch").setInitialMax(Math.max(1, s.total()))
                        .setStyle(ProgressBarStyle.COLORFUL_UNICODE_BLOCK).setUnit(" URLs", 1).showSpeed()
                        .setUpdateIntervalMillis(500).build();
            }
            bar.maxHint(Math.max(1, s.total()));
            bar.stepTo(s.ended());
            String states = ProgressLine.states(s);
            bar.setExtraMessage(states + ProgressLine.waiting(s, zone).map(w -> " " + w).orElse(""));
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
