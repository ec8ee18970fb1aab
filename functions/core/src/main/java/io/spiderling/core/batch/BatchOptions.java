package io.spiderling.core.batch;

import java.time.Duration;
import java.util.Optional;

/**
 * What a client may ask of a batch besides its URLs.
 *
 * @param callbackUrl where to report completion (normalized); the notification stage sends to it
 * @param recrawlAfter how old a stored copy may be before the URL is fetched again; empty means the deployment's
 *     default window
 * @param progressEvery how often to post progress to the callback while the batch runs; empty for none
 * @param capture keep each fetch's exchange as it went over the wire, for WARC, even where the deployment does not
 */
public record BatchOptions(Optional<String> callbackUrl, Optional<Duration> recrawlAfter,
        Optional<Duration> progressEvery, boolean capture) {

    public static final BatchOptions NONE = new BatchOptions(Optional.empty(), Optional.empty(), Optional.empty());

    public BatchOptions(Optional<String> callbackUrl, Optional<Duration> recrawlAfter,
            Optional<Duration> progressEvery) {
        this(callbackUrl, recrawlAfter, progressEvery, false);
    }

    /** Shortest progress interval a client may ask for. */
    public static final Duration MIN_PROGRESS_EVERY = Duration.ofSeconds(1);
    /** Longest progress interval: the longest delay an SQS message can carry. */
    public static final Duration MAX_PROGRESS_EVERY = Duration.ofMinutes(15);

    public BatchOptions(Optional<String> callbackUrl, Optional<Duration> recrawlAfter) {
        this(callbackUrl, recrawlAfter, Optional.empty());
    }

    /** Longest recrawl window a client may ask for. */
    public static final Duration MAX_RECRAWL_AFTER = Duration.ofDays(365);
}
