package io.spiderling.core.batch;

import java.time.Duration;
import java.util.Optional;

/**
 * What a client may ask of a batch besides its URLs.
 *
 * @param callbackUrl where to report completion (normalized); the notification stage sends to it
 * @param recrawlAfter how old a stored copy may be before the URL is fetched again; empty means the deployment's
 *     default window
 */
public record BatchOptions(Optional<String> callbackUrl, Optional<Duration> recrawlAfter) {

    public static final BatchOptions NONE = new BatchOptions(Optional.empty(), Optional.empty());

    /** Longest recrawl window a client may ask for. */
    public static final Duration MAX_RECRAWL_AFTER = Duration.ofDays(365);
}
