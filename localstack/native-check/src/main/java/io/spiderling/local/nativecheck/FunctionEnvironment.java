package io.spiderling.local.nativecheck;

import io.spiderling.catalog.ConfigKey;
import io.spiderling.catalog.ConfigKeys;
import io.spiderling.catalog.FunctionSpec;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The environment variables that configure one function, as the CDK stack sets them: each configuration key the
 * function's catalog entry lists ({@link FunctionSpec#configKeys()}), under its {@link ConfigKey#envName()}, with the
 * value the deployment gives it. A key the function lists but the deployment leaves out is not set at all, so the
 * function's own default applies (or it fails to start, if the key is required and has none).
 */
public final class FunctionEnvironment {

    /** Which keys a function is given. */
    public enum Keys {
        /** Only those of its catalog entry: a function must start with exactly these. */
        CATALOG,
        /** Every key the deployment has a value for, whether the function reads it or not. */
        ALL
    }

    private static final Map<String, ConfigKey<?>> KNOWN =
            ConfigKeys.all().stream().collect(Collectors.toMap(ConfigKey::name, Function.identity()));

    private final Map<ConfigKey<?>, String> values;
    private final Keys keys;

    private FunctionEnvironment(Map<ConfigKey<?>, String> values, Keys keys) {
        this.values = values;
        this.keys = keys;
    }

    /**
     * @param values the deployment's configuration, by key name ({@code spiderling.tables.urls})
     * @throws IllegalArgumentException for a name that is no key of {@link ConfigKeys}: a typo would otherwise be
     *     dropped silently in {@link Keys#CATALOG} mode
     */
    public static FunctionEnvironment of(Map<String, String> values, Keys keys) {
        Map<ConfigKey<?>, String> byKey = new java.util.LinkedHashMap<>();
        values.forEach((name, value) -> {
            ConfigKey<?> key = KNOWN.get(name);
            if (key == null) {
                throw new IllegalArgumentException(name + " is not a configuration key of the catalog (ConfigKeys)");
            }
            byKey.put(key, value);
        });
        return new FunctionEnvironment(Map.copyOf(byKey), keys);
    }

    public Keys keys() {
        return keys;
    }

    /** The variables for {@code function}, by environment variable name. */
    public Map<String, String> variablesFor(FunctionSpec function) {
        Map<String, String> variables = new TreeMap<>();
        if (keys == Keys.ALL) {
            values.forEach((key, value) -> variables.put(key.envName(), value));
        } else {
            variables.putAll(function.environment(values));
        }
        return variables;
    }
}
