package io.spiderling.testkit.internal;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * Turns logback's DEBUG-everything default down to WARN. s3proxy brings logback as the SLF4J binding, and at DEBUG
 * Jetty, pekko and the AWS SDK log every request, which made the test suite four times slower.
 */
public final class QuietLogging {

    private QuietLogging() {}

    /** Does nothing when logback is not the binding, or when the application configured it. */
    public static void apply() {
        // Compare by name, and keep the logback calls in a nested class, so nothing loads logback when it is absent.
        if ("ch.qos.logback.classic.LoggerContext".equals(LoggerFactory.getILoggerFactory().getClass().getName())) {
            Logback.warnUnlessConfigured();
        }
    }

    private static final class Logback {
        static void warnUnlessConfigured() {
            LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
            // The places logback itself looks for a configuration.
            ClassLoader loader = LoggerContext.class.getClassLoader();
            boolean configured = System.getProperty("logback.configurationFile") != null
                    || Stream.of("logback-test.xml", "logback.xml").anyMatch(name -> loader.getResource(name) != null);
            if (!configured) {
                context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
            }
        }
    }
}
