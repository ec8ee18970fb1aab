package io.spiderling.core.batch;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The change notices ({@code url.changed} posted to a batch's callback, {@code "notify": ["changes"]}) that the
 * notify stage gave up on, after their last attempt or dead-lettered. Delivered ones are not counted: nothing waits on
 * them, and the batch's completion does not either.
 *
 * @param count how many were given up
 * @param last why the latest one was, naming its event and URL
 * @param lastAt when the latest one was given up
 */
public record NoticeFailures(long count, Optional<String> last, Optional<Instant> lastAt) {

    public static final NoticeFailures NONE = new NoticeFailures(0, Optional.empty(), Optional.empty());

    public NoticeFailures {
        Objects.requireNonNull(last, "last");
        Objects.requireNonNull(lastAt, "lastAt");
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, was " + count);
        }
    }
}
