package io.spiderling.core.politeness;

import io.spiderling.core.fetch.DeltaSeconds;
import io.spiderling.core.fetch.HttpDate;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a {@code Retry-After} header (RFC 9110 section 10.2.3): how long a site asks us to stay away after a 429 or
 * 503.
 *
 * <p>The value is either delta-seconds or an HTTP-date (any of the three forms {@link HttpDate} reads). A time in the
 * past, and a negative number of seconds, which the grammar forbids but whose meaning is plain, read as "now" (zero).
 * A number too large to count is read as 2<sup>31</sup> seconds, as RFC 9111 asks of caches for delta-seconds; callers
 * cap the wait anyway. Anything else (fractions, words, an empty value) is empty, so the caller falls back to its own
 * backoff rather than trusting a value it cannot read.
 */
public final class RetryAfter {

    private static final Pattern NEGATIVE = Pattern.compile("-\\d+");

    private RetryAfter() {}

    /** The wait the header asks for, measured from {@code now}, never negative; empty when absent or unreadable. */
    public static Optional<Duration> parse(String headerValue, Instant now) {
        if (headerValue == null) {
            return Optional.empty();
        }
        String text = headerValue.strip();
        if (NEGATIVE.matcher(text).matches()) {
            return Optional.of(Duration.ZERO);
        }
        Optional<Duration> seconds = DeltaSeconds.parse(text);
        if (seconds.isPresent()) {
            return seconds;
        }
        return HttpDate.parse(text, now).map(date -> date.isAfter(now) ? Duration.between(now, date) : Duration.ZERO);
    }
}
