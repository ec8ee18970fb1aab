package io.spiderling.catalog;

/** How the functions write their log lines ({@link ConfigKeys#LOG_FORMAT}). */
public enum LogFormat implements ConfigChoice {
    /** Plain lines, for a terminal. */
    TEXT("text"),
    /** One JSON object per line, for CloudWatch Logs Insights: the functions on Lambda. */
    JSON("json");

    private final String wireName;

    LogFormat(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }
}
