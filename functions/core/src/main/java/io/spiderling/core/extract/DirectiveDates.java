package io.spiderling.core.extract;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the date of an {@code unavailable_after} directive. Google accepts "a widely adopted format including, but not
 * limited to RFC 822, RFC 850, and ISO 8601" (https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag),
 * and its own examples mix them: {@code 25 Jun 2010 15:00:00 PST}, {@code 25-Aug-2007 15:00:00 EST},
 * {@code 2020-09-21}. So this reads:
 * <ul>
 *   <li>ISO 8601: an instant, a date-time with an offset, a date-time or a date alone (read as UTC), with a space
 *       allowed in place of the {@code T};</li>
 *   <li>RFC 822/1123 and RFC 850: an optional weekday, day, month name, year of two or four digits, the time with
 *       optional seconds, and a zone: {@code GMT}, {@code UT(C)}, {@code Z}, the North American zones of RFC 822
 *       ({@code EST} … {@code PDT}) or a numeric offset; none is read as UTC. Day, month and year may be separated by
 *       spaces or dashes;</li>
 *   <li>asctime ({@code Sun Nov  6 08:49:37 1994}), the third HTTP date format, read as UTC.</li>
 * </ul>
 * A two-digit year is 20yy below 70 and 19yy from 70, a fixed pivot rather than RFC 9110's "50 years from now",
 * because this reads no clock. Pure.
 */
final class DirectiveDates {

    private static final Pattern ISO_SPACE = Pattern.compile("(\\d{4}-\\d{2}-\\d{2}) (\\d{2}:)");
    private static final Pattern RFC = Pattern.compile("(?:[A-Za-z]+,?\\s+)?(\\d{1,2})[\\s-]+([A-Za-z]{3,9})\\.?"
            + "[\\s-]+(\\d{4}|\\d{2})\\s+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*([A-Za-z]{1,5}|[+-]\\d{2}:?\\d{2})?");
    private static final Pattern ASCTIME = Pattern.compile(
            "[A-Za-z]{3}\\s+([A-Za-z]{3})\\s+(\\d{1,2})\\s+(\\d{1,2}):(\\d{2}):(\\d{2})\\s+(\\d{4})");
    private static final List<String> MONTHS = List.of("january", "february", "march", "april", "may", "june",
            "july", "august", "september", "october", "november", "december");
    private static final Map<String, Integer> ZONE_HOURS = Map.ofEntries(Map.entry("gmt", 0), Map.entry("ut", 0),
            Map.entry("utc", 0), Map.entry("z", 0), Map.entry("est", -5), Map.entry("edt", -4), Map.entry("cst", -6),
            Map.entry("cdt", -5), Map.entry("mst", -7), Map.entry("mdt", -6), Map.entry("pst", -8),
            Map.entry("pdt", -7));
    private static final int TWO_DIGIT_PIVOT = 70;

    private DirectiveDates() {}

    /** @return the instant, or empty when the text is no date read here */
    static Optional<Instant> parse(String text) {
        String date = text.strip();
        if (date.isEmpty()) {
            return Optional.empty();
        }
        return iso(ISO_SPACE.matcher(date).replaceFirst("$1T$2")).or(() -> rfc(date)).or(() -> asctime(date));
    }

    private static Optional<Instant> iso(String date) {
        try {
            return Optional.of(OffsetDateTime.parse(date).toInstant());
        } catch (DateTimeParseException notWithOffset) {
            // next form
        }
        try {
            return Optional.of(LocalDateTime.parse(date).toInstant(ZoneOffset.UTC));
        } catch (DateTimeParseException notLocal) {
            // next form
        }
        try {
            return Optional.of(LocalDate.parse(date).atStartOfDay().toInstant(ZoneOffset.UTC));
        } catch (DateTimeParseException notADate) {
            return Optional.empty();
        }
    }

    private static Optional<Instant> rfc(String date) {
        Matcher m = RFC.matcher(date);
        if (!m.matches()) {
            return Optional.empty();
        }
        Optional<ZoneOffset> zone = zone(m.group(7));
        int month = month(m.group(2));
        if (zone.isEmpty() || month == 0) {
            return Optional.empty();
        }
        return at(year(m.group(3)), month, Integer.parseInt(m.group(1)), m.group(4), m.group(5), m.group(6),
                zone.get());
    }

    private static Optional<Instant> asctime(String date) {
        Matcher m = ASCTIME.matcher(date);
        if (!m.matches() || month(m.group(1)) == 0) {
            return Optional.empty();
        }
        return at(Integer.parseInt(m.group(6)), month(m.group(1)), Integer.parseInt(m.group(2)), m.group(3),
                m.group(4), m.group(5), ZoneOffset.UTC);
    }

    private static Optional<Instant> at(int year, int month, int day, String hour, String minute, String second,
            ZoneOffset zone) {
        try {
            return Optional.of(LocalDateTime.of(year, month, day, Integer.parseInt(hour), Integer.parseInt(minute),
                    second == null ? 0 : Integer.parseInt(second)).toInstant(zone));
        } catch (DateTimeException notAValidDate) {
            return Optional.empty();
        }
    }

    /** 1 to 12 for a month's English name or its first three letters; 0 for anything else. */
    private static int month(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (int i = 0; i < MONTHS.size(); i++) {
            String month = MONTHS.get(i);
            if (lower.equals(month) || lower.equals(month.substring(0, 3))) {
                return i + 1;
            }
        }
        return 0;
    }

    private static int year(String digits) {
        int year = Integer.parseInt(digits);
        if (digits.length() == 4) {
            return year;
        }
        return year < TWO_DIGIT_PIVOT ? 2000 + year : 1900 + year;
    }

    private static Optional<ZoneOffset> zone(String zone) {
        if (zone == null) {
            return Optional.of(ZoneOffset.UTC);
        }
        if (zone.startsWith("+") || zone.startsWith("-")) {
            String digits = zone.replace(":", "");
            try {
                return Optional.of(ZoneOffset.ofHoursMinutes(Integer.parseInt(digits.substring(0, 3)),
                        Integer.parseInt(digits.charAt(0) + digits.substring(3))));
            } catch (DateTimeException outOfRange) {
                return Optional.empty();
            }
        }
        Integer hours = ZONE_HOURS.get(zone.toLowerCase(Locale.ROOT));
        return hours == null ? Optional.empty() : Optional.of(ZoneOffset.ofHours(hours));
    }
}
