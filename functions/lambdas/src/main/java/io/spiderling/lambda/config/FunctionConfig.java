package io.spiderling.lambda.config;

import io.spiderling.catalog.ConfigKey;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;

/**
 * The one way functions read configuration: a typed {@link ConfigKey} in, its value out, from any source of text
 * values (MicroProfile Config on Lambda, where environment variables override {@code application.properties}; the
 * same file plus overrides in the local runner). It remembers which keys were read, so a test can hold each function
 * to the keys its catalog entry names.
 */
public final class FunctionConfig {

    private final Function<String, Optional<String>> source;
    private final Set<ConfigKey<?>> read = Collections.synchronizedSet(new LinkedHashSet<>());

    private FunctionConfig(Function<String, Optional<String>> source) {
        this.source = source;
    }

    /** Reads MicroProfile Config: Quarkus's, or one the local runner built. */
    public static FunctionConfig of(Config config) {
        return new FunctionConfig(name -> config.getOptionalValue(name, String.class));
    }

    /** Reads a map of key names to text values; for tests. */
    public static FunctionConfig of(Map<String, String> values) {
        return new FunctionConfig(name -> Optional.ofNullable(values.get(name)));
    }

    /**
     * The key's value.
     *
     * @throws IllegalArgumentException naming the key and its environment variable, when a required key is unset or
     *     a value is malformed
     */
    public <T> T get(ConfigKey<T> key) {
        read.add(key);
        return key.read(source.apply(key.name()));
    }

    /** Every key read so far, in the order first read. */
    public Set<ConfigKey<?>> keysRead() {
        synchronized (read) {
            return Set.copyOf(read);
        }
    }
}
