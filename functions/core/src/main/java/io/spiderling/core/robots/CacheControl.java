package io.spiderling.core.robots;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The one part of a {@code Cache-Control} header (RFC 9111 section 5.2.2) that shortens how long robots.txt is
 * trusted: {@code max-age}. {@code no-store} and {@code no-cache} count as {@code max-age=0}, since either asks for a
 * fresh copy before every use; the policy's minimum freshness then applies. {@code s-maxage} is for shared caches
 * serving many users, and a crawler's robots cache is not one; {@code Expires} is not read.
 */
final class CacheControl {

    private CacheControl() {}

    /** The shortest lifetime the header asks for; empty when it names none or none that parses. */
    static Optional<Duration> maxAge(String header) {
        Duration shortest = null;
        for (String part : header.split(",")) {
            String directive = part.strip().toLowerCase(Locale.ROOT);
            Duration age = null;
            if (directive.equals("no-store") || directive.equals("no-cache") || directive.startsWith("no-cache=")) {
                age = Duration.ZERO;
            } else if (directive.startsWith("max-age=")) {
                age = seconds(directive.substring("max-age=".length()));
            }
            if (age != null && (shortest == null || age.compareTo(shortest) < 0)) {
                shortest = age;
            }
        }
        return Optional.ofNullable(shortest);
    }

    private static Duration seconds(String value) {
        String digits = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        // RFC 9111 section 1.2.2: a delta-seconds too large to hold is read as 2^31
        return Duration.ofSeconds(digits.length() > 10 ? Integer.MAX_VALUE : Math.min(Long.parseLong(digits),
                Integer.MAX_VALUE));
    }
}
