package io.spiderling.core.robots;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** Whether robots.txt lets one URL be fetched now, from {@link RobotsPolicy#decide}. */
public sealed interface RobotsVerdict {

    /**
     * Fetch it, waiting at least {@code crawlDelay} between requests to the origin.
     *
     * @param crawlDelay the rules' Crawl-delay for our agent, capped; zero when they name none
     */
    record Allowed(Duration crawlDelay) implements RobotsVerdict {
        public Allowed {
            Objects.requireNonNull(crawlDelay, "crawlDelay");
        }
    }

    /** The rules forbid it: the URL ends as {@code disallowed}, by the rule {@code refusal} names. */
    record Disallowed(RobotsRefusal refusal) implements RobotsVerdict {
        public Disallowed {
            Objects.requireNonNull(refusal, "refusal");
        }
    }

    /** The rules are undefined for now: park the URL until {@code until}, when robots.txt will be fetched again. */
    record Wait(Instant until) implements RobotsVerdict {
        public Wait {
            Objects.requireNonNull(until, "until");
        }
    }

    /**
     * The rules stayed undefined past the deadline with no good copy: the URL ends as {@code failed}, distinct from a
     * disallow, so that clients can tell "no" from "could not ask".
     */
    record Unreachable(RobotsOutage outage) implements RobotsVerdict {
        public Unreachable {
            Objects.requireNonNull(outage, "outage");
        }
    }

    /**
     * Nothing usable is known (no entry, an expired one, a stale copy, or a retry that is due): fetch robots.txt, pass
     * the outcome to {@link RobotsPolicy#onFetched}, and decide again.
     */
    record FetchFirst() implements RobotsVerdict {}
}
