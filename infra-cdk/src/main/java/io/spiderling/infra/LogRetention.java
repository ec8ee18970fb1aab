package io.spiderling.infra;

import static java.util.Map.entry;

import java.util.Map;
import software.amazon.awscdk.services.logs.RetentionDays;

/** A retention in days as CDK's enum; CloudWatch Logs offers only these periods. */
final class LogRetention {

    private static final Map<Integer, RetentionDays> BY_DAYS = Map.ofEntries(
            entry(1, RetentionDays.ONE_DAY), entry(3, RetentionDays.THREE_DAYS), entry(5, RetentionDays.FIVE_DAYS),
            entry(7, RetentionDays.ONE_WEEK), entry(14, RetentionDays.TWO_WEEKS), entry(30, RetentionDays.ONE_MONTH),
            entry(60, RetentionDays.TWO_MONTHS), entry(90, RetentionDays.THREE_MONTHS),
            entry(120, RetentionDays.FOUR_MONTHS), entry(150, RetentionDays.FIVE_MONTHS),
            entry(180, RetentionDays.SIX_MONTHS), entry(365, RetentionDays.ONE_YEAR),
            entry(400, RetentionDays.THIRTEEN_MONTHS), entry(545, RetentionDays.EIGHTEEN_MONTHS),
            entry(731, RetentionDays.TWO_YEARS), entry(1096, RetentionDays.THREE_YEARS),
            entry(1827, RetentionDays.FIVE_YEARS), entry(2192, RetentionDays.SIX_YEARS),
            entry(2557, RetentionDays.SEVEN_YEARS), entry(2922, RetentionDays.EIGHT_YEARS),
            entry(3288, RetentionDays.NINE_YEARS), entry(3653, RetentionDays.TEN_YEARS));

    private LogRetention() {}

    /** @throws IllegalArgumentException for a period CloudWatch Logs does not offer */
    static RetentionDays days(int days) {
        RetentionDays retention = BY_DAYS.get(days);
        if (retention == null) {
            throw new IllegalArgumentException("CloudWatch Logs cannot keep logs " + days + " days; choose one of "
                    + BY_DAYS.keySet().stream().sorted().toList());
        }
        return retention;
    }

    static boolean offered(int days) {
        return BY_DAYS.containsKey(days);
    }
}
