package io.spiderling.core.batch;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a client may ask of a batch besides its URLs. Built by name ({@link #builder()}): the options are several
 * optional values side by side.
 *
 * @param callbackUrl where to report completion (normalized); the notification stage sends to it
 * @param recrawlAfter how old a stored copy may be before the URL is fetched again; empty means the deployment's
 *     default window
 * @param progressEvery how often to post progress to the callback while the batch runs; empty for none
 * @param capture keep each fetch's exchange as it went over the wire, for WARC, even where the deployment does not
 */
public record BatchOptions(Optional<String> callbackUrl, Optional<Duration> recrawlAfter,
        Optional<Duration> progressEvery, boolean capture) {

    /** No options: the deployment's defaults, no callback. */
    public static final BatchOptions NONE = builder().build();

    /** Shortest progress interval a client may ask for. */
    public static final Duration MIN_PROGRESS_EVERY = Duration.ofSeconds(1);
    /** Longest progress interval: the longest delay an SQS message can carry. */
    public static final Duration MAX_PROGRESS_EVERY = Duration.ofMinutes(15);
    /** Longest recrawl window a client may ask for. */
    public static final Duration MAX_RECRAWL_AFTER = Duration.ofDays(365);

    public BatchOptions {
        Objects.requireNonNull(callbackUrl, "callbackUrl");
        Objects.requireNonNull(recrawlAfter, "recrawlAfter");
        Objects.requireNonNull(progressEvery, "progressEvery");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder().callbackUrl(callbackUrl).recrawlAfter(recrawlAfter).progressEvery(progressEvery)
                .capture(capture);
    }

    /** The options by name; each unset one is empty (or off). */
    public static final class Builder {
        private Optional<String> callbackUrl = Optional.empty();
        private Optional<Duration> recrawlAfter = Optional.empty();
        private Optional<Duration> progressEvery = Optional.empty();
        private boolean capture;

        private Builder() {}

        public Builder callbackUrl(Optional<String> value) {
            callbackUrl = value;
            return this;
        }

        public Builder callbackUrl(String value) {
            return callbackUrl(Optional.of(value));
        }

        public Builder recrawlAfter(Optional<Duration> value) {
            recrawlAfter = value;
            return this;
        }

        public Builder recrawlAfter(Duration value) {
            return recrawlAfter(Optional.of(value));
        }

        public Builder progressEvery(Optional<Duration> value) {
            progressEvery = value;
            return this;
        }

        public Builder progressEvery(Duration value) {
            return progressEvery(Optional.of(value));
        }

        public Builder capture(boolean value) {
            capture = value;
            return this;
        }

        public BatchOptions build() {
            return new BatchOptions(callbackUrl, recrawlAfter, progressEvery, capture);
        }
    }
}
