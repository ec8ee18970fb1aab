package io.spiderling.core.politeness;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Per-site request rates that replace the default, from an operator's file (Aragog's per-domain overrides): a site
 * that asked to be fetched faster, or slower, than everyone else.
 *
 * <p>The format is one site per line, its site key and its requests per second separated by white space:
 * <pre>
 *   # partners who asked for a faster crawl
 *   example.com     10
 *   slow.example    0.2   # one request every 5 s
 * </pre>
 * {@code #} starts a comment, blank lines are ignored, and keys are compared without regard to case. A key must be a
 * site key as {@link io.spiderling.core.url.SiteKey} derives it ({@code example.com}, not {@code www.example.com}),
 * because any other key would silently never match. The rate is a plain decimal number above 0 and at most
 * {@link #MAX_QPS}; a site appears once. A file that breaks a rule is refused whole, naming the line, so a typo
 * cannot quietly leave a site at the wrong rate.
 *
 * <p>An override sets the interval, and through it the site's places in flight ({@link RateLimiter#maxInFlight}) and
 * its message groups ({@link Lanes}): a site allowed R requests a second above the default gets {@code ceil(R × 1 s)}
 * of each, up to a cap, and keeps its rate while it answers within 500 ms.
 *
 * @param qps requests per second by site key, lower-case
 */
public record RateOverrides(Map<String, BigDecimal> qps) {

    /** The fastest rate an override may set: a ceiling on how hard a typo can hit a site. */
    public static final BigDecimal MAX_QPS = BigDecimal.valueOf(50);

    private static final RateOverrides NONE = new RateOverrides(Map.of());
    private static final String FILE = "rate overrides";
    private static final Pattern DECIMAL = Pattern.compile("\\d+(\\.\\d+)?");
    private static final BigDecimal MILLIS_PER_SECOND = BigDecimal.valueOf(1000);

    public RateOverrides {
        qps = Map.copyOf(qps);
        qps.forEach((key, rate) -> {
            if (!key.equals(key.toLowerCase(Locale.ROOT)) || rate.signum() <= 0 || rate.compareTo(MAX_QPS) > 0) {
                throw new IllegalArgumentException("need a lower-case site key and a rate in (0, " + MAX_QPS
                        + "], got " + key + " " + rate);
            }
        });
    }

    /** No overrides: every site gets the default. */
    public static RateOverrides none() {
        return NONE;
    }

    /**
     * Reads the file format described above.
     *
     * @throws IllegalArgumentException naming the first line (1-based) that breaks a rule, and why
     */
    public static RateOverrides parse(String text) {
        Objects.requireNonNull(text, "text");
        Map<String, BigDecimal> qps = new HashMap<>();
        Map<String, Integer> lineOf = new HashMap<>();
        for (SiteKeyField.Line line : SiteKeyField.contentLines(text)) {
            int number = line.number();
            String content = line.content();
            String[] fields = content.split("\\s+");
            if (fields.length != 2) {
                throw bad(number, "expected a site key and a rate, e.g. 'example.com 10', got '" + content + "'");
            }
            String key = siteKey(number, fields[0]);
            BigDecimal rate = rate(number, fields[1]);
            Integer earlier = lineOf.putIfAbsent(key, number);
            if (earlier != null) {
                throw bad(number, "site '" + key + "' already has a rate on line " + earlier);
            }
            qps.put(key, rate);
        }
        return qps.isEmpty() ? NONE : new RateOverrides(qps);
    }

    /** The overridden rate of a site, if it has one. */
    public Optional<BigDecimal> qpsFor(String siteKey) {
        return Optional.ofNullable(qps.get(siteKey.toLowerCase(Locale.ROOT)));
    }

    /**
     * The spacing between the site's requests: 1 s divided by its override, rounded up to the millisecond (never
     * faster than asked), or {@code defaultInterval} when it has none.
     */
    public Duration intervalFor(String siteKey, Duration defaultInterval) {
        return qpsFor(siteKey)
                .map(rate -> MILLIS_PER_SECOND.divide(rate, 0, RoundingMode.CEILING).longValueExact())
                .map(Duration::ofMillis)
                .orElse(defaultInterval);
    }

    private static String siteKey(int line, String field) {
        return SiteKeyField.read(FILE, line, field);
    }

    private static BigDecimal rate(int line, String field) {
        if (!DECIMAL.matcher(field).matches()) {
            throw bad(line, "rate '" + field + "' is not a decimal number of requests per second");
        }
        BigDecimal rate = new BigDecimal(field);
        if (rate.signum() <= 0 || rate.compareTo(MAX_QPS) > 0) {
            throw bad(line, "rate " + field + " is outside (0, " + MAX_QPS + "] requests per second");
        }
        BigDecimal plain = rate.stripTrailingZeros(); // 2.50 and 2.5 are one rate; 10 stays 10, not 1E+1
        return plain.scale() < 0 ? plain.setScale(0) : plain;
    }

    private static IllegalArgumentException bad(int line, String why) {
        return SiteKeyField.bad(FILE, line, why);
    }
}
