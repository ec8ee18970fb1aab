package io.spiderling.core.frontier;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * When to wake a site whose jobs went back to wait: a release sends only what is due when it runs, so every due time
 * needs a wake-up at or after it, or its job sits until the sweep's next look at the site (a period, 10 minutes by
 * default). Waking only at the earliest leaves the later ones behind when the job released first does not come back.
 *
 * <p>Due times close together share one wake-up, at the last of them: a group starts at its earliest time and takes
 * every time up to {@link #GROUPING} later, so no job waits more than that past its due time for its wake-up, and a
 * site gets at most one wake-up per {@code GROUPING} of due times.
 */
public final class WakeUps {

    /** How far apart two due times may be and still share a wake-up. */
    public static final Duration GROUPING = Duration.ofSeconds(1);

    private WakeUps() {}

    /**
     * The wake-ups for these due times, in order, leaving out the times not after {@code released} (the release that
     * ran at that time sent what was due by then).
     */
    public static List<Instant> times(Collection<Instant> due, Instant released) {
        List<Instant> later = due.stream().filter(at -> at.isAfter(released)).sorted().distinct().toList();
        List<Instant> wakeUps = new ArrayList<>();
        Instant groupStart = null;
        for (Instant at : later) {
            if (groupStart == null || at.isAfter(groupStart.plus(GROUPING))) {
                groupStart = at;
                wakeUps.add(at);
            } else {
                wakeUps.set(wakeUps.size() - 1, at);
            }
        }
        return List.copyOf(wakeUps);
    }
}
