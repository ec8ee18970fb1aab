package io.spiderling.core.recrawl;

import io.spiderling.core.fetch.DeltaSeconds;
import io.spiderling.core.fetch.HttpDate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How long a fetched page stays fresh, from the caching headers of its response (RFC 9111 section 4.2), within the
 * bounds an operator sets. The page is due again at {@code fetchedAt + lifetime − Age}, clamped into
 * {@code [min, max]} after {@code fetchedAt}.
 *
 * <ul>
 *   <li>{@code Cache-Control: no-store} or an unqualified {@code no-cache}: due again soonest ({@code min}). A
 *       {@code no-cache="field"} only concerns the named fields and is ignored.</li>
 *   <li>Else {@code max-age}, the first one if repeated; a value that is not delta-seconds is ignored, as if absent.
 *       {@code s-maxage} is ignored: it is meant for shared caches that the site can purge, and nobody can purge
 *       Spiderling, so the longer CDN lifetime it usually carries would overstate freshness.</li>
 *   <li>Else {@code Expires}, measured from the response's {@code Date} (or {@code fetchedAt} without one), so a site
 *       whose clock is off still gets the lifetime it meant. An {@code Expires} that is not an HTTP-date, such as
 *       the common {@code 0} or {@code -1}, means already expired, as RFC 9111 section 5.3 requires.</li>
 *   <li>Else no caching headers: {@code defaultWindow}, as given. The bounds limit what a site's headers can do, not
 *       the window the caller chose.</li>
 * </ul>
 * A readable {@code Age} (time the response already spent in caches on the way) is subtracted from the lifetime.
 */
public final class Freshness {

    private Freshness() {}

    /**
     * When the page fetched at {@code fetchedAt} is due again.
     *
     * @param lowerCaseHeaders response headers with lower-case names, as {@code FetchResult.Response} has them;
     *     {@code cache-control}, {@code expires}, {@code date} and {@code age} are read
     * @param defaultWindow the freshness without caching headers, usually {@link RecrawlPolicy#DEFAULT_WINDOW}
     * @param min the shortest freshness headers can ask for
     * @param max the longest freshness headers can ask for
     * @throws IllegalArgumentException if a duration is negative or {@code min} is above {@code max}
     */
    public static Instant freshUntil(Map<String, String> lowerCaseHeaders, Instant fetchedAt, Duration defaultWindow,
            Duration min, Duration max) {
        Objects.requireNonNull(lowerCaseHeaders, "lowerCaseHeaders");
        Objects.requireNonNull(fetchedAt, "fetchedAt");
        if (defaultWindow.isNegative() || min.isNegative() || min.compareTo(max) > 0) {
            throw new IllegalArgumentException("need defaultWindow >= 0 and 0 <= min <= max, were " + defaultWindow
                    + ", " + min + ", " + max);
        }
        Optional<Duration> lifetime = lifetime(lowerCaseHeaders, fetchedAt);
        if (lifetime.isEmpty()) {
            return fetchedAt.plus(defaultWindow);
        }
        Duration age = DeltaSeconds.parse(lowerCaseHeaders.get("age")).orElse(Duration.ZERO);
        Duration remaining = lifetime.get().minus(age);
        Duration clamped = remaining.compareTo(min) < 0 ? min : remaining.compareTo(max) > 0 ? max : remaining;
        return fetchedAt.plus(clamped);
    }

    /** The freshness lifetime the headers give, zero for "do not reuse", empty when they say nothing. */
    private static Optional<Duration> lifetime(Map<String, String> headers, Instant fetchedAt) {
        Optional<Duration> maxAge = Optional.empty();
        for (String directive : directives(headers.get("cache-control"))) {
            int eq = directive.indexOf('=');
            String name = (eq < 0 ? directive : directive.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? null : unquote(directive.substring(eq + 1).strip());
            if (name.equals("no-store") || (name.equals("no-cache") && (value == null || value.isEmpty()))) {
                return Optional.of(Duration.ZERO);
            }
            if (name.equals("max-age") && maxAge.isEmpty()) {
                maxAge = DeltaSeconds.parse(value);
            }
        }
        if (maxAge.isPresent()) {
            return maxAge;
        }
        String expires = headers.get("expires");
        if (expires == null) {
            return Optional.empty();
        }
        Instant date = HttpDate.parse(headers.get("date"), fetchedAt).orElse(fetchedAt);
        return Optional.of(HttpDate.parse(expires, fetchedAt)
                .filter(e -> e.isAfter(date))
                .map(e -> Duration.between(date, e))
                .orElse(Duration.ZERO));
    }

    /** Splits a Cache-Control value at the commas that are not inside a quoted string. */
    private static List<String> directives(String value) {
        List<String> directives = new ArrayList<>();
        if (value == null) {
            return directives;
        }
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '\\' && quoted) {
                i++;
            } else if (c == ',' && !quoted) {
                directives.add(value.substring(start, i));
                start = i + 1;
            }
        }
        directives.add(value.substring(start));
        return directives;
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
    }
}
