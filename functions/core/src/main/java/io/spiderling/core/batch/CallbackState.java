package io.spiderling.core.batch;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a batch's notifications stand.
 *
 * @param completionEmittedAt when the completion event was handed to the notify queue and the listeners; empty until
 *     then, so a completion recorded by a call that died before emitting is emitted by the next one
 * @param deliveredAt when the callback took the completion (a 2xx)
 * @param failure why the completion callback was given up, after its last attempt
 * @param attempts how many completion deliveries were tried
 * @param progressSent the number of the last progress report posted; 0 for none
 */
public record CallbackState(Optional<Instant> completionEmittedAt, Optional<Instant> deliveredAt,
        Optional<String> failure, int attempts, long progressSent) {

    public static final CallbackState NONE = new CallbackState(Optional.empty(), Optional.empty(), Optional.empty(),
            0, 0);

    public CallbackState {
        Objects.requireNonNull(completionEmittedAt, "completionEmittedAt");
        Objects.requireNonNull(deliveredAt, "deliveredAt");
        Objects.requireNonNull(failure, "failure");
    }
}
