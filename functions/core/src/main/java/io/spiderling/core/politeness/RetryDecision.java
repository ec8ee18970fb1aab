package io.spiderling.core.politeness;

import java.time.Instant;
import java.util.Objects;

/** What {@link RetryPolicy} decided about a fetch's outcome. */
public sealed interface RetryDecision {

    /** The fetch got an answer worth recording (2xx, 3xx, 304): nothing to retry. */
    record Done() implements RetryDecision {}

    /** Park the URL until {@code notBefore}, then fetch it again as attempt {@code nextAttempt}. */
    record Retry(Instant notBefore, int nextAttempt) implements RetryDecision {
        public Retry {
            Objects.requireNonNull(notBefore, "notBefore");
        }
    }

    /**
     * End the URL as failed.
     *
     * @param reason the error, and how many attempts were made when there were several: {@code "http 404"},
     *     {@code "timeout: read timed out after 3 attempts"}
     */
    record GiveUp(String reason) implements RetryDecision {
        public GiveUp {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
