package io.spiderling.core.fetch;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the HTTP-date of RFC 9110 section 5.6.7, as found in {@code Date}, {@code Expires}, {@code Retry-After} and
 * {@code Last-Modified}.
 *
 * <p>Senders must use IMF-fixdate ({@code Sun, 06 Nov 1994 08:49:37 GMT}), but recipients must also read the obsolete
 * RFC 850 ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and asctime ({@code Sun Nov  6 08:49:37 1994}) forms, and old
 * servers still send them. {@link java.time.format.DateTimeFormatter#RFC_1123_DATE_TIME} reads only the first, and
 * also accepts numeric offsets that HTTP forbids, so the three grammars are matched here directly.
 *
 * <p>Names of days and months are matched without regard to case, and IMF-fixdate may have a one-digit day; the day
 * name is not checked against the date. Everything else that does not fit a grammar is unreadable: an HTTP-date that
 * is wrong is better ignored than guessed at.
 */
public final class HttpDate {

    private static final String DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
    private static final String DAY_LONG = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
    private static final String MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
    private static final String TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
    private static final List<String> MONTHS =
            List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");

    /** Groups: day, month, year, hour, minute, second. */
    private static final Pattern IMF_FIXDATE = Pattern.compile(
            DAY + ", (\\d{1,2}) " + MONTH + " (\\d{4}) " + TIME + " GMT", Pattern.CASE_INSENSITIVE);
    /** Groups: day, month, two-digit year, hour, minute, second. */
    private static final Pattern RFC_850 = Pattern.compile(
            DAY_LONG + ", (\\d{2})-" + MONTH + "-(\\d{2}) " + TIME + " GMT", Pattern.CASE_INSENSITIVE);
    /** Groups: month, day (space-padded), hour, minute, second, year. */
    private static final Pattern ASCTIME = Pattern.compile(
            DAY + " " + MONTH + " ( \\d|\\d{2}) " + TIME + " (\\d{4})", Pattern.CASE_INSENSITIVE);

    private HttpDate() {}

    /**
     * The instant an HTTP-date names, or empty if the value is not one.
     *
     * @param now resolves the two-digit year of the RFC 850 form: RFC 9110 reads a year that would be more than 50
     *     years after {@code now} as the most recent past year with those two digits
     */
    public static Optional<Instant> parse(String value, Instant now) {
        if (value == null) {
            return Optional.empty();
        }
        String text = value.strip();
        Matcher m = IMF_FIXDATE.matcher(text);
        if (m.matches()) {
            return at(Integer.parseInt(m.group(3)), m.group(2), m.group(1), m.group(4), m.group(5), m.group(6));
        }
        m = RFC_850.matcher(text);
        if (m.matches()) {
            int year = fullYear(Integer.parseInt(m.group(3)), now.atOffset(ZoneOffset.UTC).getYear());
            return at(year, m.group(2), m.group(1), m.group(4), m.group(5), m.group(6));
        }
        m = ASCTIME.matcher(text);
        if (m.matches()) {
            return at(Integer.parseInt(m.group(6)), m.group(1), m.group(2).strip(), m.group(3), m.group(4),
                    m.group(5));
        }
        return Optional.empty();
    }

    private static int fullYear(int twoDigits, int currentYear) {
        int year = currentYear - Math.floorMod(currentYear, 100) + twoDigits;
        if (year > currentYear + 50) {
            return year - 100;
        }
        return year + 100 <= currentYear + 50 ? year + 100 : year;
    }

    private static Optional<Instant> at(int year, String month, String day, String hour, String minute,
            String second) {
        int h = Integer.parseInt(hour);
        int min = Integer.parseInt(minute);
        int s = Integer.parseInt(second);
        // 60 is allowed for a leap second; it reads as the first second of the next minute
        if (h > 23 || min > 59 || s > 60) {
            return Optional.empty();
        }
        try {
            LocalDate date = LocalDate.of(year, MONTHS.indexOf(month.toLowerCase(Locale.ROOT)) + 1,
                    Integer.parseInt(day));
            return Optional.of(date.atStartOfDay(ZoneOffset.UTC).toInstant().plusSeconds(h * 3600L + min * 60L + s));
        } catch (DateTimeException e) {
            return Optional.empty(); // 31 Apr, 29 Feb of a common year, day 0
        }
    }
}
