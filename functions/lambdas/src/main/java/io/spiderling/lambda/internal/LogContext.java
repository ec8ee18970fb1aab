package io.spiderling.lambda.internal;

import com.amazonaws.services.lambda.runtime.Context;
import io.spiderling.core.fetch.FetchJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.MDC;

/**
 * The fields that label every log line written while a function works on something: the stage and Lambda's request
 * id for the invocation, and the batch id, URL hash and site of the job or item at hand. The JSON log format writes
 * them under {@code mdc} (docs/observability.md).
 *
 * <p>They live in the logging library's MDC, which is per thread. So they are only ever set here, in a
 * {@link Scope} opened in a try-with-resources block around one invocation, job or item, and closing the scope puts
 * back exactly what was there before: nothing outlives the work it labels. Work moved to another thread takes the
 * fields along explicitly: {@link #current()} on the thread that hands the work over, {@link #resume} on the thread
 * that takes it.
 */
public final class LogContext {

    public static final String STAGE = "stage";
    public static final String REQUEST_ID = "requestId";
    public static final String BATCH_ID = "batchId";
    public static final String URL_HASH = "urlHash";
    public static final String SITE = "site";

    /** Every field, in the order documented. */
    public static final List<String> FIELDS = List.of(STAGE, REQUEST_ID, BATCH_ID, URL_HASH, SITE);

    /** Open while the fields it set apply; {@link #close} restores them. Close it on the thread that opened it. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    private LogContext() {}

    /**
     * An invocation of the function {@code stage} (its catalog name), with Lambda's request id when there is a
     * context. The item fields are cleared for its span: whatever an earlier invocation left on this thread is not
     * this one's.
     */
    public static Scope invocation(String stage, Context context) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(STAGE, stage);
        fields.put(REQUEST_ID, context == null ? null : context.getAwsRequestId());
        fields.put(BATCH_ID, null);
        fields.put(URL_HASH, null);
        fields.put(SITE, null);
        return set(fields);
    }

    /** One item of work; a {@code null} field is left unset for the scope. The stage and request id stay. */
    public static Scope item(String batchId, String urlHash, String site) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(BATCH_ID, batchId);
        fields.put(URL_HASH, urlHash);
        fields.put(SITE, site);
        return set(fields);
    }

    /** One fetch job: its batch, the hash of the URL it fetches, and its site key. */
    public static Scope job(FetchJob job) {
        return item(job.batchId(), job.urlHash(), job.siteKey().value());
    }

    /** The fields set on this thread now, to hand to {@link #resume} on another. */
    public static Map<String, String> current() {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : FIELDS) {
            Object value = MDC.get(field);
            if (value != null) {
                fields.put(field, value.toString());
            }
        }
        return fields;
    }

    /** Exactly {@code fields} (from {@link #current()} on another thread), every other field unset. */
    public static Scope resume(Map<String, String> fields) {
        Map<String, String> all = new LinkedHashMap<>();
        FIELDS.forEach(field -> all.put(field, fields.get(field)));
        return set(all);
    }

    private static Scope set(Map<String, String> fields) {
        Map<String, Object> before = new LinkedHashMap<>();
        fields.forEach((field, value) -> {
            before.put(field, MDC.get(field));
            put(field, value);
        });
        return () -> before.forEach(LogContext::put);
    }

    private static void put(String field, Object value) {
        if (value == null) {
            MDC.remove(field);
        } else {
            MDC.put(field, value);
        }
    }
}
