package io.spiderling.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.configuration.PropertyLogContextConfigurator;

/**
 * Applies the local runner's {@code logging.properties} to the log context. On Lambda, Quarkus configures logging;
 * outside it, Quarkus's initial configurator leaves the root logger at ALL with a handler that only buffers (until a
 * Quarkus start that never comes), so nothing is printed and every SDK call formats its DEBUG and TRACE records for
 * nothing. Applied once, before the local stack starts.
 */
final class LocalLogging {

    private static boolean configured;

    private LocalLogging() {}

    static synchronized void configure() {
        if (configured) {
            return;
        }
        try (InputStream properties = LocalLogging.class.getClassLoader().getResourceAsStream("logging.properties")) {
            if (properties != null) {
                new PropertyLogContextConfigurator().configure(LogContext.getLogContext(), properties);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the local runner's logging.properties", e);
        }
        configured = true;
    }
}
