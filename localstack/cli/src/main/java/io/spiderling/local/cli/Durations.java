package io.spiderling.local.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** How the CLI writes times and durations for people. */
final class Durations {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private Durations() {}

    /** {@code 4s}, {@code 2m05s}, {@code 1h02m}. */
    static String brief(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format("%dm%02ds", s / 60, s % 60);
        }
        return String.format("%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    /** The wall-clock time of day in {@code zone}, as people read a "next try at". */
    static String clock(Instant at, ZoneId zone) {
        return CLOCK.format(at.atZone(zone));
    }
}
