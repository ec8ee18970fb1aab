package io.spiderling.local.cost;

import io.spiderling.lambda.internal.JsonLogs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the bytes of the log records published during a handler invocation that Lambda would write: those at or
 * above the level the functions' {@code application.properties} sets for their category ({@code quarkus.log.level},
 * {@code quarkus.log.category."…".level}), each as the JSON line the functions write on Lambda
 * ({@link JsonLogs#formatter()}, with the {@link io.spiderling.lambda.internal.LogContext} fields set on the logging
 * thread at the time). Only counted: the local console keeps its readable text lines.
 *
 * <p>The levels are applied here because the local JVM's own are not Lambda's: outside Quarkus, Quarkus's bootstrap
 * log configurator leaves the root logger at ALL (with a handler that holds records for a Quarkus that never starts),
 * so the SDK's DEBUG and TRACE records are all created.
 */
final class LogMeter extends Handler {

    private static final Pattern CATEGORY = Pattern.compile("quarkus\\.log\\.category\\.\"([^\"]+)\"\\.level");

    private final Metering metering;
    private final Level rootLevel;
    /** Category levels, longest name first matching wins. */
    private final TreeMap<String, Level> categories;

    LogMeter(Metering metering, Level rootLevel, Map<String, Level> categories) {
        this.metering = metering;
        this.rootLevel = rootLevel;
        this.categories = new TreeMap<>(categories);
        setLevel(Level.ALL);
        setFormatter(JsonLogs.formatter());
    }

    /** With the levels of the functions' {@code application.properties} (its default profile). */
    static LogMeter withFunctionLevels(Metering metering) {
        URL resource = LogMeter.class.getClassLoader().getResource("application.properties");
        Properties properties = new Properties();
        if (resource != null) {
            try (InputStream in = resource.openStream()) {
                properties.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + resource, e);
            }
        }
        Map<String, Level> categories = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> {
            Matcher m = CATEGORY.matcher(name);
            if (m.matches()) {
                categories.put(m.group(1), level(properties.getProperty(name)));
            }
        });
        return new LogMeter(metering, level(properties.getProperty("quarkus.log.level", "INFO")), categories);
    }

    /** The level Lambda's functions log {@code category} at. */
    Level levelOf(String category) {
        String name = category == null ? "" : category;
        while (true) {
            Level level = categories.get(name);
            if (level != null) {
                return level;
            }
            int dot = name.lastIndexOf('.');
            if (dot < 0) {
                return rootLevel;
            }
            name = name.substring(0, dot);
        }
    }

    @Override
    public void publish(LogRecord record) {
        if (metering.invoking() && record.getLevel().intValue() >= levelOf(record.getLoggerName()).intValue()) {
            metering.logged(getFormatter().format(record).getBytes(StandardCharsets.UTF_8).length);
        }
    }

    /**
     * A level by its JBoss name ({@code WARN}, {@code DEBUG}, …). {@code parse} is java.util.logging's, which knows
     * those names once JBoss's levels exist; touching one first makes sure they do, also when the meter is the first
     * thing in the JVM to log (the soak creates it before the stack).
     */
    private static Level level(String name) {
        java.util.Objects.requireNonNull(org.jboss.logmanager.Level.WARN);
        return Level.parse(name.strip());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
