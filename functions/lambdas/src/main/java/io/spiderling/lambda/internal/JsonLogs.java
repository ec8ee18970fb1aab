package io.spiderling.lambda.internal;

import java.util.logging.Handler;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.formatters.JsonFormatter;
import org.jboss.logmanager.formatters.StructuredFormatter;
import org.jboss.logmanager.handlers.ConsoleHandler;

/**
 * JSON log lines for Lambda: JBoss LogManager's {@link JsonFormatter} on the console handler Quarkus set up, so each
 * record is one JSON object on one line, which CloudWatch Logs Insights reads field by field (Quarkus's
 * {@code quarkus-logging-json} would do the same, but its build-time half does not resolve here). The
 * {@link io.spiderling.lambda.internal.LogContext} fields arrive under {@code mdc}.
 */
public final class JsonLogs {

    private JsonLogs() {}

    /** The formatter: ISO-8601 UTC timestamps, exceptions as their formatted stack trace, one record per line. */
    public static JsonFormatter formatter() {
        JsonFormatter formatter = new JsonFormatter();
        formatter.setDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
        formatter.setZoneId("UTC");
        formatter.setPrintDetails(false);
        formatter.setExceptionOutputType(StructuredFormatter.ExceptionOutputType.FORMATTED);
        formatter.setRecordDelimiter("\n");
        return formatter;
    }

    /**
     * Puts {@link #formatter()} on every console handler under the root logger (Quarkus nests them in a delayed
     * handler). Returns how many it changed.
     */
    public static int install() {
        int changed = 0;
        for (Handler handler : LogContext.getLogContext().getLogger("").getHandlers()) {
            changed += install(handler);
        }
        return changed;
    }

    private static int install(Handler handler) {
        int changed = 0;
        if (handler instanceof ConsoleHandler console) {
            console.setFormatter(formatter());
            changed++;
        }
        if (handler instanceof ExtHandler ext) {
            for (Handler child : ext.getHandlers()) {
                changed += install(child);
            }
        }
        return changed;
    }
}
