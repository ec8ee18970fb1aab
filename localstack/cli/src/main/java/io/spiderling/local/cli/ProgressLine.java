package io.spiderling.local.cli;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What the progress display says about a batch, as a pure function of its snapshot and the time waited so far. */
final class ProgressLine {

    /** Waiting reasons shown on one line; the rest are counted. */
    static final int WAITING_SHOWN = 2;

    private ProgressLine() {}

    /** {@code 45/444 ended (fetched 40, failed 5) · 3.6 URLs/s · ETA 1m50s}. */
    static String counts(BatchSnapshot s, Duration elapsed) {
        StringBuilder line = new StringBuilder().append(s.ended()).append('/').append(s.total()).append(" ended");
        String states = states(s);
        if (!states.isEmpty()) {
            line.append(" (").append(states).append(')');
        }
        rate(s, elapsed).ifPresent(rate -> line.append(String.format(" · %.1f URLs/s", rate)));
        eta(s, elapsed).ifPresent(eta -> line.append(" · ETA ").append(Durations.brief(eta)));
        s.uploadState().filter(state -> !state.equals("planned")).ifPresent(state -> line.append(" · ").append(state));
        return line.toString();
    }

    /** The terminal states reached so far with their counts: {@code fetched 40, failed 5}. */
    static String states(BatchSnapshot s) {
        List<String> states = new ArrayList<>();
        s.counts().forEach((state, n) -> {
            if (n > 0 && !state.equals("queued")) {
                states.add(state + " " + n);
            }
        });
        return String.join(", ", states);
    }

    /** {@code waiting on 127.0.0.4: robots.txt unreachable (503), next try 22:41:07 (and 3 more sites)}, or empty. */
    static Optional<String> waiting(BatchSnapshot s, ZoneId zone) {
        if (s.waiting().isEmpty() || s.done()) {
            return Optional.empty();
        }
        List<String> shown = s.waiting().stream().limit(WAITING_SHOWN).map(w -> w.describe(zone)).toList();
        String text = "waiting on " + String.join("; ", shown);
        int more = s.waiting().size() - shown.size() + s.waitingMore();
        return Optional.of(more > 0 ? text + " (and " + more + " more)" : text);
    }

    /** The live bar's narrowest and widest: narrower is unreadable, wider only takes room from the waiting text. */
    static final int MIN_BAR = 10;
    static final int MAX_BAR = 30;
    /** A waiting text cut shorter than this says nothing, so it is left out instead. */
    static final int MIN_WAITING = 16;

    /**
     * The live line of a terminal {@code columns} wide, kept one column short of it so that it never wraps:
     * {@code fetch │██████▌   │ 27/61 ended (fetched 26, failed 1) · 2.5 URLs/s · ETA 13s · waiting on …}. The counts
     * are never cut. The bar takes {@link #MIN_BAR} columns at least; what the waiting text needs comes next, cut
     * (with {@code …}) when it does not fit, or left out when less than {@link #MIN_WAITING} columns remain; the bar
     * grows into what is left, up to {@link #MAX_BAR}. On a terminal too narrow for the counts, the line is the bar at
     * its narrowest and the counts, whole.
     */
    static String live(BatchSnapshot s, Duration elapsed, Optional<String> waiting, int columns) {
        String counts = counts(s, elapsed);
        String head = "fetch ";
        int room = columns - 1 - head.length() - 3 - counts.length(); // 3: the bar's two edges and a space
        String tail = "";
        if (waiting.isPresent() && room - MIN_BAR >= MIN_WAITING) {
            tail = UrlText.cut(" · " + waiting.get(), room - MIN_BAR);
        }
        int width = Math.max(MIN_BAR, Math.min(MAX_BAR, room - tail.length()));
        return head + bar(s, width) + " " + counts + tail;
    }

    /** {@code │███▌  │}: {@code width} cells between the edges, each filled in eighths. */
    static String bar(BatchSnapshot s, int width) {
        double done = s.total() == 0 ? 0 : Math.min(1, (double) s.ended() / s.total());
        int eighths = (int) Math.round(done * width * 8);
        StringBuilder bar = new StringBuilder("\u2502");
        for (int cell = 0; cell < width; cell++) {
            int filled = Math.max(0, Math.min(8, eighths - cell * 8));
            bar.append(filled == 0 ? ' ' : (char) ('\u2590' - filled)); // U+2588 full .. U+258F one eighth
        }
        return bar.append('\u2502').toString();
    }

    /** Ended URLs per second since the wait began; empty before the first one or the first second. */
    static Optional<Double> rate(BatchSnapshot s, Duration elapsed) {
        double seconds = elapsed.toMillis() / 1000.0;
        return s.ended() == 0 || seconds < 1 ? Optional.empty() : Optional.of(s.ended() / seconds);
    }

    /** The time left at the rate so far; empty until there is a rate, and once done. */
    static Optional<Duration> eta(BatchSnapshot s, Duration elapsed) {
        if (s.done()) {
            return Optional.empty();
        }
        return rate(s, elapsed).map(rate -> Duration.ofMillis((long) ((s.total() - s.ended()) / rate * 1000)));
    }
}
