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
