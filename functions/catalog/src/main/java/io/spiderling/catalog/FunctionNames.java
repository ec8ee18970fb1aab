package io.spiderling.catalog;

/**
 * The functions' names: the {@code @Named} value of each handler, its {@code QUARKUS_LAMBDA_HANDLER}, and the stem of
 * its CDK construct id. Constants, because routes and the catalog refer to them; {@link Catalog} holds the entries.
 */
public final class FunctionNames {

    private FunctionNames() {}

    public static final String INGEST = "ingest";
    public static final String INGEST_QUEUE = "ingest-queue";
    public static final String CANONICALIZE = "canonicalize";
    public static final String PLAN = "plan";
    public static final String FETCH = "fetch";
    public static final String FETCH_DLQ = "fetch-dlq";
    public static final String EXTRACT = "extract";
    public static final String NOTIFY = "notify";
    public static final String NOTIFY_DLQ = "notify-dlq";
    public static final String API = "api";
    public static final String SWEEP = "sweep";
    public static final String WAKE = "wake";
}
