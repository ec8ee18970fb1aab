package io.spiderling.core.robots;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Why robots.txt counts as unreachable, for the item's detail.
 *
 * @param robotsUrl the file that could not be read
 * @param status the HTTP status of the latest attempt; empty when no response arrived
 * @param failures attempts in a row that failed
 * @param since when the first of them was made
 * @param nextTry when robots.txt will be asked for again
 */
public record RobotsOutage(String robotsUrl, Optional<Integer> status, int failures, Instant since, Instant nextTry) {

    public RobotsOutage {
        Objects.requireNonNull(robotsUrl, "robotsUrl");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(nextTry, "nextTry");
    }

    /**
     * For a person: {@code https://example.com/robots.txt unreachable: HTTP 503 on 4 attempts since
     * 2026-11-28T06:00:00Z, next try at 2026-11-28T06:20:00Z}.
     */
    public String describe() {
        return robotsUrl + " unreachable: " + status.map(code -> "HTTP " + code).orElse("no answer") + " on "
                + failures + (failures == 1 ? " attempt" : " attempts") + " since " + since + ", next try at "
                + nextTry;
    }
}
