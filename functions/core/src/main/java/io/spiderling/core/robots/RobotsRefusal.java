package io.spiderling.core.robots;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a robots.txt refusal rests on, for the item's detail: the rule that decided, the line it is on, and the copy
 * of the file it was read from.
 *
 * @param robotsUrl the robots.txt the rules came from
 * @param rule the deciding rule as a line writes it ({@code Disallow: /private}); empty when no single rule decided
 *     (the file's rules refuse everything)
 * @param line the rule's line in the file, from 1; empty when it could not be found
 * @param copy the copy of the file the rules came from
 */
public record RobotsRefusal(String robotsUrl, Optional<String> rule, OptionalInt line, Copy copy) {

    public RobotsRefusal {
        Objects.requireNonNull(robotsUrl, "robotsUrl");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(copy, "copy");
    }

    /**
     * The copy of robots.txt a refusal was read from.
     *
     * @param status the HTTP status of the latest attempt to fetch the file (the copy's own when it is fresh)
     * @param fetchedAt when the copy was fetched
     * @param standingIn the copy is an older good one standing in while robots.txt cannot be read
     */
    public record Copy(Optional<Integer> status, Instant fetchedAt, boolean standingIn) {
        public Copy {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(fetchedAt, "fetchedAt");
        }
    }

    /**
     * For a person: {@code Disallow: /private (line 4 of https://example.com/robots.txt, HTTP 200, copy fetched 42 s
     * before)}.
     */
    public String describe(Instant now) {
        StringBuilder text = new StringBuilder(rule.orElse("all URLs refused")).append(" (");
        line.ifPresent(n -> text.append("line ").append(n).append(" of "));
        text.append(robotsUrl);
        copy.status().ifPresent(code -> text.append(copy.standingIn() ? ", latest attempt HTTP " : ", HTTP ")
                .append(code));
        text.append(copy.standingIn() ? ", last good copy fetched " : ", copy fetched ")
                .append(Ages.before(copy.fetchedAt(), now)).append(')');
        return text.toString();
    }

    /** How long before a moment something happened, in whole units a person reads at a glance. */
    static final class Ages {
        private Ages() {}

        static String before(Instant then, Instant now) {
            Duration age = Duration.between(then, now);
            if (age.isNegative()) {
                age = Duration.ZERO;
            }
            long seconds = age.toSeconds();
            if (seconds < 120) {
                return seconds + " s before";
            }
            if (seconds < 2 * 3600) {
                return seconds / 60 + " min before";
            }
            return seconds / 3600 + " h before";
        }
    }
}
