package io.spiderling.core.fetch;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads delta-seconds (RFC 9111 section 1.2.2), the number of seconds in {@code Cache-Control: max-age}, {@code Age}
 * and {@code Retry-After}. A value too large to count is read as 2<sup>31</sup> seconds, as that section asks, so a
 * site cannot make a reader overflow; anything but digits (a sign, a fraction, a unit) is unreadable.
 */
public final class DeltaSeconds {

    /** What RFC 9111 tells a recipient to use for a value it cannot represent. */
    public static final Duration OVERFLOW = Duration.ofSeconds(1L << 31);

    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final int MAX_DIGITS = 10; // 2^31 has 10 digits, so longer values are above it

    private DeltaSeconds() {}

    /** The duration, or empty when the value (surrounding white space aside) is not a run of digits. */
    public static Optional<Duration> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String text = value.strip();
        if (!DIGITS.matcher(text).matches()) {
            return Optional.empty();
        }
        String digits = text.replaceFirst("^0+(?=\\d)", "");
        long seconds = digits.length() > MAX_DIGITS ? OVERFLOW.toSeconds()
                : Math.min(Long.parseLong(digits), OVERFLOW.toSeconds());
        return Optional.of(Duration.ofSeconds(seconds));
    }
}
