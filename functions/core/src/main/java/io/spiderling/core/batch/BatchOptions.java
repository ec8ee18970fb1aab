package io.spiderling.core.batch;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a client may ask of a batch besides its URLs. Built by name ({@link #builder()}): the options are several
 * optional values side by side.
 *
 * @param callbackUrl where to report completion (normalized); the notification stage sends to it
 * @param recrawlAfter how old a stored copy may be before the URL is fetched again; empty means the deployment's
 *     default window
 * @param progressEvery how often to post progress to the callback while the batch runs; empty for none
 * @param capture keep each fetch's exchange as it went over the wire, for WARC, even where the deployment does not
 * @param markdown render the main content of each HTML page the batch fetches as Markdown, stored beside its body
 *     ({@code "markdown": true} on the wire)
 * @param notices what else to post to the callback besides completion and progress ({@code "notify"} on the wire);
 *     empty for nothing else. An unmodifiable set that iterates in the enum's order.
 */
public record BatchOptions(Optional<String> callbackUrl, Optional<Duration> recrawlAfter,
        Optional<Duration> progressEvery, boolean capture, boolean markdown, Set<Notice> notices) {

    /** No options: the deployment's defaults, no callback. */
    public static final BatchOptions NONE = builder().build();

    /** Shortest progress interval a client may ask for. */
    public static final Duration MIN_PROGRESS_EVERY = Duration.ofSeconds(1);
    /** Longest progress interval: the longest delay an SQS message can carry. */
    public static final Duration MAX_PROGRESS_EVERY = Duration.ofMinutes(15);
    /** Longest recrawl window a client may ask for. */
    public static final Duration MAX_RECRAWL_AFTER = Duration.ofDays(365);

    /** A kind of event a batch may ask to have posted to its callback, by its wire name in {@code "notify"}. */
    public enum Notice {
        /**
         * {@code url.changed}: a fetch that ended one of the batch's items found the page's content changed (ADR 18),
         * posted with the batch's id.
         */
        CHANGES("changes");

        private final String wireName;

        Notice(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Optional<Notice> fromWireName(String name) {
            return Arrays.stream(values()).filter(n -> n.wireName.equals(name)).findFirst();
        }

        /** The wire names a client may give, in order, comma-separated: for a refusal that lists them. */
        public static String wireNames() {
            return Arrays.stream(values()).map(Notice::wireName).collect(Collectors.joining(", "));
        }
    }

    public BatchOptions {
        Objects.requireNonNull(callbackUrl, "callbackUrl");
        Objects.requireNonNull(recrawlAfter, "recrawlAfter");
        Objects.requireNonNull(progressEvery, "progressEvery");
        notices = notices.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(notices));
    }

    /** Whether the batch asked for {@code notice} to be posted to its callback. */
    public boolean wants(Notice notice) {
        return notices.contains(notice);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder().callbackUrl(callbackUrl).recrawlAfter(recrawlAfter).progressEvery(progressEvery)
                .capture(capture).markdown(markdown).notices(notices);
    }

    /** The options by name; each unset one is empty (or off). */
    public static final class Builder {
        private Optional<String> callbackUrl = Optional.empty();
        private Optional<Duration> recrawlAfter = Optional.empty();
        private Optional<Duration> progressEvery = Optional.empty();
        private boolean capture;
        private boolean markdown;
        private Set<Notice> notices = Set.of();

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

        public Builder markdown(boolean value) {
            markdown = value;
            return this;
        }

        public Builder notices(Set<Notice> value) {
            notices = value;
            return this;
        }

        public Builder notices(Notice... value) {
            return notices(Set.of(value));
        }

        public BatchOptions build() {
            return new BatchOptions(callbackUrl, recrawlAfter, progressEvery, capture, markdown, notices);
        }
    }
}
